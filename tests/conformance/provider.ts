// The provider conformance suite (STYLE.md, "Tests"): run for providers a, b and c against their
// simulators. For every resource: create, read back, plan again to all noop, update (or replace
// per replaceOn), delete, read returns null; a delete of an object deleted outside (the handler
// throws not found, the engine's delete counts it done); import by ID; every lookup's not-found (and, where
// the API can have two, ambiguity) errors; no secret in any error, event or render; no unmatched
// simulator route.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  Engine,
  MemoryStateStore,
  LookupError,
  ProviderError,
  standaloneContext,
  type Action,
  type Event,
  type Provider,
  type ResourceDecl,
  type ResourceState,
  type State,
} from 'converge';
import type { SimServer } from '../../src/kit/sim/router.js';

export type ResourceCase = {
  /** The stack that makes the resource under test (named by `subject`) and what it needs. */
  readonly stack: () => ResourceDecl[];
  /** The same stack with the subject changed. */
  readonly changed: () => ResourceDecl[];
  /** What the change must plan for the subject. */
  readonly expect: Extract<Action, 'update' | 'replace'>;
  /** The subject's name in the stack; default the last declaration's. */
  readonly subject?: string;
  /** The import ID of a recorded resource (default its id); receives the whole state for ids made of parts. */
  readonly importId?: (resource: ResourceState, state: State) => string;
  /** Inputs the API cannot return (write-only), whose diff after import is expected. */
  readonly importDiffers?: readonly string[];
};

export type LookupCase = {
  /** Arguments that match nothing (single lookups). */
  readonly notFound?: Record<string, unknown>;
  /** Arguments that succeed (list lookups, and lookups of things that always exist). */
  readonly succeeds?: Record<string, unknown>;
  /** Makes two objects that both match `args`, for lookups that must refuse ambiguity. */
  readonly ambiguous?: { readonly arrange: (engine: Engine) => Promise<void>; readonly args: Record<string, unknown> };
};

export type ProviderUnderTest = {
  readonly provider: Provider<unknown>;
  readonly sim: SimServer;
  /** Secret strings (API keys, passwords, keys) that must never appear in output. */
  readonly secrets: readonly string[];
  close(): Promise<void>;
};

export type ProviderCase = {
  readonly name: string;
  readonly start: () => Promise<ProviderUnderTest>;
  readonly resources: Readonly<Record<string, ResourceCase>>;
  readonly lookups: Readonly<Record<string, LookupCase>>;
};

const fastRetry = { retries: 4, minTimeoutMs: 1, maxTimeoutMs: 5, maxRetryAfterMs: 5 };

export function describeProvider(c: ProviderCase): void {
  describe(`${c.name} conformance`, () => {
    let put: ProviderUnderTest;
    let events: Event[];
    let said: string[];
    const engine = (store = new MemoryStateStore()) =>
      new Engine({ providers: [put.provider], state: store, retry: fastRetry, onEvent: (e) => events.push(e) });
    const keep = (text: string) => {
      said.push(text);
      return text;
    };

    beforeEach(async () => {
      put = await c.start();
      events = [];
      said = [];
    });
    afterEach(async () => {
      try {
        expect(put.sim.unmatched.map((e) => `${e.method} ${e.path}`)).toEqual([]);
        const out = JSON.stringify(events) + said.join('\n');
        for (const s of put.secrets) expect(out).not.toContain(s);
      } finally {
        await put.close();
      }
    });

    it('serves a case for every resource and every lookup it declares', () => {
      expect(Object.keys(c.resources).sort()).toEqual([...put.provider.resources.keys()].sort());
      expect(Object.keys(c.lookups).sort()).toEqual([...put.provider.lookups.keys()].sort());
      for (const [token, lc] of Object.entries(c.lookups)) expect(lc.notFound ?? lc.succeeds, token).toBeDefined();
    });

    for (const [token, rc] of Object.entries(c.resources)) {
      it(`${token}: create, read back, plan again to noop, ${rc.expect}, delete, read null`, async () => {
        const e = engine();
        const stack = rc.stack();
        const subject = rc.subject ?? stack.at(-1)!.name;
        const plan = await e.plan(stack);
        keep(plan.render({ color: false }));
        keep(JSON.stringify(plan));
        await e.apply(plan);
        const state = await e.state();
        const record = state.resources[subject]!;
        expect(record.type).toBe(token);
        const def = put.provider.resources.get(token)!;
        const ctx = standaloneContext(put.provider.config, { retry: fastRetry });
        expect(await def.read(ctx, record.id, { inputs: record.inputs, outputs: record.outputs })).not.toBeNull();

        const again = await e.plan(stack);
        expect(
          again.steps
            .filter((s) => s.action !== 'noop')
            .map((s) => [s.address, s.action, s.changes.map((x) => x.path)]),
        ).toEqual([]);

        const change = await e.plan(rc.changed());
        keep(change.render({ color: false }));
        expect(change.steps.find((s) => s.address === subject)!.action).toBe(rc.expect);
        await e.apply(change);
        const settled = await e.plan(rc.changed());
        expect(
          settled.steps
            .filter((s) => s.action !== 'noop')
            .map((s) => [s.address, s.action, s.changes.map((x) => x.path)]),
        ).toEqual([]);

        const after = (await e.state()).resources[subject]!;
        await e.destroy();
        expect(await def.read(ctx, after.id, { inputs: after.inputs, outputs: after.outputs })).toBeNull();
        if (rc.expect === 'replace')
          expect(await def.read(ctx, record.id, { inputs: record.inputs, outputs: record.outputs })).toBeNull();
      });

      // A delete answered not found is done, absorbed in one layer: the engine's delete step
      // (src/kit/gone.ts). The object is deleted behind the engine's back, straight through its
      // handler; a second delete throws the vendor's not found, and an apply that deletes it (a
      // plan that does not refresh, so it does not know) succeeds and forgets it.
      it(`${token}: delete of an object deleted outside: the handler throws notFound, apply succeeds and forgets it`, async () => {
        const e = engine();
        const stack = rc.stack();
        const subject = rc.subject ?? stack.at(-1)!.name;
        await e.apply(await e.plan(stack));
        const record = (await e.state()).resources[subject]!;
        const def = put.provider.resources.get(token)!;
        const ctx = standaloneContext(put.provider.config, { retry: fastRetry });
        const prior = { inputs: record.inputs, outputs: record.outputs };
        await def.delete(ctx, record.id, prior);
        const error = await def.delete(ctx, record.id, prior).then(
          () => 'resolved',
          (x: unknown) => x,
        );
        expect(error).toBeInstanceOf(ProviderError);
        expect(error).toMatchObject({ notFound: true });
        keep((error as Error).message);

        const plan = await e.plan(
          stack.filter((d) => d.name !== subject),
          { refresh: false },
        );
        expect(plan.steps.filter((s) => s.action !== 'noop').map((s) => [s.address, s.action])).toEqual([
          [subject, 'delete'],
        ]);
        const result = await e.apply(plan);
        expect(result.succeeded.filter((s) => s.action !== 'noop').map((s) => [s.address, s.action])).toEqual([
          [subject, 'delete'],
        ]);
        const state = await e.state();
        expect(state.resources[subject]).toBeUndefined();
        expect(state.pending).toEqual({});
        await e.destroy();
      });

      it(`${token}: import by ID records it so the declaration plans as noop`, async () => {
        const e = engine();
        const stack = rc.stack();
        await e.apply(await e.plan(stack));
        const state = await e.state();
        const fresh = engine();
        for (const d of stack) {
          const r = state.resources[d.name]!;
          const ownCase = c.resources[d.type];
          const importId = ownCase?.importId?.(r, state) ?? r.id;
          const imported = await fresh.import(d, importId);
          expect(imported.id).toBe(r.id);
          keep(JSON.stringify(imported));
        }
        const plan = await fresh.plan(stack);
        const subject = rc.subject ?? stack.at(-1)!.name;
        const changed = plan.steps
          .filter((s) => s.action !== 'noop')
          .flatMap((s) => s.changes.map((x) => `${s.address}.${x.path}`));
        const allowed = (rc.importDiffers ?? []).map((p) => `${subject}.${p}`);
        expect(
          changed.filter((p) => !allowed.some((a) => p === a || p.startsWith(`${a}.`) || p.startsWith(`${a}[`))),
        ).toEqual([]);
        await e.destroy();
      });
    }

    for (const [token, lc] of Object.entries(c.lookups)) {
      const notFound = lc.notFound;
      if (notFound) {
        it(`${token}: not found is a LookupError naming what was looked for`, async () => {
          const err = await engine()
            .lookup(token, notFound)
            .catch((x: unknown) => x);
          expect(err).toBeInstanceOf(LookupError);
          expect(err).toMatchObject({ token, reason: 'not_found' });
          keep((err as Error).message);
        });
      }
      const succeeds = lc.succeeds;
      if (succeeds) {
        it(`${token}: answers with an id`, async () => {
          const result = await engine().lookup<Record<string, unknown>>(token, succeeds);
          expect(typeof result.id).toBe('string');
          keep(JSON.stringify(result));
        });
      }

      if (lc.ambiguous) {
        const amb = lc.ambiguous;
        it(`${token}: two matches is a LookupError listing them`, async () => {
          const e = engine();
          await amb.arrange(e);
          const err = await e.lookup(token, amb.args).catch((x: unknown) => x);
          expect(err).toBeInstanceOf(LookupError);
          expect(err).toMatchObject({ token, reason: 'ambiguous' });
          expect((err as LookupError).matches.length).toBeGreaterThanOrEqual(2);
          keep((err as Error).message);
        });
      }
    }
  });
}
