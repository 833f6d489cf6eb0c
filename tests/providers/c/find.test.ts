// find for every CDN resource (the activity log, see src/providers/c/activity.ts): a pre-existing
// object with the same name is never found, the object this create made is, a lost answer is
// recovered, an ambiguous log answers cannotTell; a delete whose answer was lost and whose retry
// meets 404 rejects as not found, and an apply counts it done (the engine's delete step absorbs
// it); and two stacks declaring the same origin group never adopt each other's.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ApplyError, Engine, MemoryStateStore, ProviderError, isCannotTell, type FindHint } from 'converge';
import { provc } from 'converge/providers/c';
import type { ResourceDefinition } from '../../../src/engine/provider/define.js';
import { resourceHelper } from '../../../src/engine/decl/helper.js';
import { cdnOriginGroup } from '../../../src/providers/c/resources/cdn-origin-group.js';
import { cdnResource } from '../../../src/providers/c/resources/cdn-resource.js';
import { cdnResourceRule } from '../../../src/providers/c/resources/cdn-resource-rule.js';
import { cdnRuleTemplate } from '../../../src/providers/c/resources/cdn-rule-template.js';
import { cdnCertificate } from '../../../src/providers/c/resources/cdn-certificate.js';
import { cdnTrustedCaCertificate } from '../../../src/providers/c/resources/cdn-trusted-ca-certificate.js';
import { failure, makeProvider, useHarness, type Harness } from './helpers/harness.js';

const pem = (f: string) => readFileSync(new URL(`./fixtures/${f}`, import.meta.url), 'utf8');

type Def = ResourceDefinition<any, any, any>;
type Kind = {
  name: string;
  def: Def;
  unique: boolean;
  inputs: (h: Harness) => Promise<Record<string, unknown>>;
  count: (h: Harness) => number;
};

async function newGroup(h: Harness, name: string) {
  const i = cdnOriginGroup.inputs.parse({ name, sources: [{ source: 'origin.example.com' }] });
  return Number((await cdnOriginGroup.create(h.ctx('create'), i)).id);
}

const kinds: Kind[] = [
  {
    name: 'CdnOriginGroup',
    def: cdnOriginGroup,
    unique: true,
    inputs: async () => ({ name: 'shared', sources: [{ source: 'origin.example.com' }] }),
    count: (h) => h.sim.store.cdn.originGroups.size,
  },
  {
    name: 'CdnResource',
    def: cdnResource,
    unique: true,
    inputs: async (h) => ({ cname: 'cdn.example.com', originGroup: await newGroup(h, 'g') }),
    count: (h) => h.sim.store.cdn.resources.size,
  },
  {
    name: 'CdnResourceRule',
    def: cdnResourceRule,
    unique: true,
    count: (h) => h.sim.store.cdn.rules.size,
    inputs: async (h) => ({
      resourceId: Number(
        (
          await cdnResource.create(
            h.ctx('create'),
            cdnResource.inputs.parse({ cname: 'r.example.com', originGroup: await newGroup(h, 'g') }),
          )
        ).id,
      ),
      name: 'images',
      rule: '/img/*',
    }),
  },
  {
    name: 'CdnRuleTemplate',
    def: cdnRuleTemplate,
    unique: false,
    inputs: async () => ({ name: 'tpl', rule: '/static/*' }),
    count: (h) => h.sim.store.cdn.ruleTemplates.size,
  },
  {
    name: 'CdnCertificate',
    def: cdnCertificate,
    unique: true,
    inputs: async () => ({ name: 'site', sslCertificate: pem('cdn.crt'), sslPrivateKey: pem('cdn.key') }),
    count: (h) => h.sim.store.cdn.certificates.size,
  },
  {
    name: 'CdnTrustedCaCertificate',
    def: cdnTrustedCaCertificate,
    unique: true,
    inputs: async () => ({ name: 'root', sslCertificate: pem('ca.crt') }),
    count: (h) => h.sim.store.cdn.caCertificates.size,
  },
];

const hint = (operationId: string): FindHint => ({ startedAt: new Date().toISOString(), operationId });
/** An engine on the harness's provider whose first retry clears the faults: a lost answer, then a clean retry. */
const clearingFaultsOnRetry = (h: Harness) =>
  new Engine({
    providers: [h.provider],
    state: new MemoryStateStore(),
    retry: { retries: 3, minTimeoutMs: 1, maxTimeoutMs: 5 },
    onEvent: (e) => {
      h.events.push(e);
      if (e.type === 'retry') h.sim.setFaults(undefined);
    },
  });
const ctxOf = (h: Harness, operation: 'create' | 'find' | 'delete', operationId?: string) => ({
  ...h.ctx(operation),
  ...(operationId ? { operationId } : {}),
});

describe.each(kinds)('$name find', (k) => {
  const h = useHarness();

  it('never answers with an object of the same inputs that existed before the create started', async () => {
    h().secrets.push(pem('cdn.key').split('\n')[1]!);
    const i = k.def.inputs.parse(await k.inputs(h()));
    const theirs = await k.def.create(ctxOf(h(), 'create', 'stack-a'), i);
    // Stack B's create starts after stack A's object exists (a millisecond later at least).
    const mine = { startedAt: new Date(h().sim.requests.at(-1)!.at + 1).toISOString(), operationId: 'stack-b' };
    expect(await k.def.find!(ctxOf(h(), 'find', 'stack-b'), i, mine)).toBeNull();
    if (k.unique) {
      // Stack B's create is refused (the name is taken); its find still claims nothing.
      expect(await failure(h(), k.def.create(ctxOf(h(), 'create', 'stack-b'), i))).toBeInstanceOf(ProviderError);
      expect(await k.def.find!(ctxOf(h(), 'find', 'stack-b'), i, mine)).toBeNull();
    }
    expect(theirs.id).toBeTruthy();
  });

  it('answers with the object this create made, after its answer was lost', async () => {
    h().secrets.push(pem('cdn.key').split('\n')[1]!);
    const i = k.def.inputs.parse(await k.inputs(h()));
    const before = k.count(h());
    const mine = hint('op-1');
    h().sim.setFaults({ rate: 1, kinds: ['drop_after'], methods: ['POST'] });
    const lost = await failure(h(), k.def.create(ctxOf(h(), 'create', 'op-1'), i));
    expect(lost).toMatchObject({ outcomeUnknown: true });
    h().sim.setFaults(undefined);
    expect(k.count(h())).toBe(before + 1);
    const found = await k.def.find!(ctxOf(h(), 'find', 'op-1'), i, mine);
    expect(found && !isCannotTell(found) ? found.id : found).toMatch(/^\d+(\/\d+)?$/);
    const again = await k.def.read(h().ctx(), (found as { id: string }).id, { inputs: i, outputs: {} });
    expect(again).not.toBeNull();
  });

  it('answers null when the create never reached the API', async () => {
    const i = k.def.inputs.parse(await k.inputs(h()));
    const mine = hint('op-2');
    h().sim.setFaults({ rate: 1, kinds: ['drop'], methods: ['POST'] });
    await failure(h(), k.def.create(ctxOf(h(), 'create', 'op-2'), i));
    h().sim.setFaults(undefined);
    expect(await k.def.find!(ctxOf(h(), 'find', 'op-2'), i, mine)).toBeNull();
  });

  // A delete answered not found is absorbed in one layer, the engine's delete step: the handler
  // throws what the vendor says, and an apply counts it done.
  it('rejects a delete whose answer was lost and whose retry meets 404 as not found, the object gone', async () => {
    h().secrets.push(pem('cdn.key').split('\n')[1]!);
    const i = k.def.inputs.parse(await k.inputs(h()));
    const r = await k.def.create(h().ctx('create'), i);
    const before = k.count(h());
    h().sim.setFaults({ rate: 1, kinds: ['drop_after'], methods: ['DELETE'] });
    // The first DELETE acts and its answer is lost; the retry goes through and meets 404.
    const ctx = { ...h().ctx('delete'), report: () => h().sim.setFaults(undefined) };
    const gone = await failure(h(), k.def.delete(ctx, r.id, { inputs: i, outputs: r.outputs }));
    expect(gone).toBeInstanceOf(ProviderError);
    expect(gone).toMatchObject({ notFound: true, status: 404 });
    expect(k.count(h())).toBe(before - 1);
    const deletes = h().sim.requests.filter((x) => x.method === 'DELETE');
    expect(deletes.map((x) => x.fault ?? x.status)).toEqual(['drop_after', 404]);
  });

  it('counts a delete whose answer was lost and whose retry meets 404 as done', async () => {
    h().secrets.push(pem('cdn.key').split('\n')[1]!);
    const engine = clearingFaultsOnRetry(h());
    const decl = resourceHelper(k.def)('it', await k.inputs(h()));
    expect((await engine.apply(await engine.plan([decl]))).failed).toEqual([]);
    const before = k.count(h());
    h().sim.setFaults({ rate: 1, kinds: ['drop_after'], methods: ['DELETE'] });
    // Removed from the stack: the first DELETE acts and its answer is lost; the retry meets 404.
    const result = await engine.apply(await engine.plan([]));
    expect(result.succeeded.map((s) => [s.address, s.action])).toEqual([['it', 'delete']]);
    expect((await engine.state()).resources).toEqual({});
    expect(k.count(h())).toBe(before - 1);
    const deletes = h().sim.requests.filter((x) => x.method === 'DELETE');
    expect(deletes.map((x) => x.fault ?? x.status)).toEqual(['drop_after', 404]);
  });
});

describe('CdnRuleTemplate find with two creates of the same body', () => {
  const h = useHarness();
  it('cannot tell which one was this create', async () => {
    const i = cdnRuleTemplate.inputs.parse({ name: 'tpl', rule: '/static/*' });
    const mine = hint('op-3');
    await cdnRuleTemplate.create(ctxOf(h(), 'create', 'op-3'), i);
    await cdnRuleTemplate.create(ctxOf(h(), 'create', 'someone-else'), i);
    expect(isCannotTell(await cdnRuleTemplate.find!(ctxOf(h(), 'find', 'op-3'), i, mine))).toBe(true);
  });
});

describe('two stacks declaring the same CDN origin group', () => {
  const h = useHarness();
  const decl = () => [provc.cdnOriginGroup('origins', { name: 'shared', sources: [{ source: 'origin.example.com' }] })];

  for (const kind of ['drop_after', '500'] as const) {
    it(`stack B's create (refused, its answer lost: ${kind}) never adopts stack A's group, and B's destroy leaves it`, async () => {
      const a = h().engine;
      expect((await a.apply(await a.plan(decl()))).failed).toEqual([]);
      const groupA = [...h().sim.store.cdn.originGroups.keys()];
      const b = new Engine({
        providers: [makeProvider(h().sim)],
        state: new MemoryStateStore(),
        retry: { retries: 2, minTimeoutMs: 1, maxTimeoutMs: 2 },
      });
      h().sim.setFaults({ rate: 1, kinds: [kind], methods: ['POST'] });
      const refused = await failure(h(), b.apply(await b.plan(decl())));
      h().sim.setFaults(undefined);
      expect(refused).toBeInstanceOf(ApplyError);
      expect((refused as unknown as ApplyError).result.failed.map((f) => f.address)).toEqual(['origins']);
      const stateB = await b.state();
      expect(Object.values(stateB.resources).map((r) => r.id)).not.toContain(String(groupA[0]));
      await b.destroy();
      expect([...h().sim.store.cdn.originGroups.keys()]).toEqual(groupA);
      expect((await a.plan(decl(), { refresh: true })).hasChanges).toBe(false);
    });
  }
});

describe('CdnCertificate create answered without a body', () => {
  const h = useHarness({ skipConformance: true });
  it('takes the id from the activity log entry of its own POST, never from a certificate of the same name', async () => {
    h().secrets.push(pem('cdn.key').split('\n')[1]!);
    const { cdnCertificateRoutes } = await import('../../../src/providers/c/simulator/routes-cdn-certs.js');
    const { recordActivity } = await import('../../../src/providers/c/simulator/routes-cdn-activity.js');
    const real = cdnCertificateRoutes().find((r) => r.method === 'POST' && r.path === '/cdn/sslData')!;
    h().sim.use({
      method: 'POST',
      path: '/cdn/sslData',
      handler: async (req, s) => {
        const res = await real.handler(req, s as never);
        recordActivity(s as never, req, '/sslData', res);
        return { status: res.status };
      },
    });
    const i = cdnCertificate.inputs.parse({
      name: 'site',
      sslCertificate: pem('cdn.crt'),
      sslPrivateKey: pem('cdn.key'),
    });
    const r = await cdnCertificate.create(ctxOf(h(), 'create', 'op-5'), i);
    expect([...h().sim.store.cdn.certificates.keys()]).toEqual([Number(r.id)]);
    expect(r.outputs).toMatchObject({ sslId: Number(r.id), name: 'site', deleted: false });
  });
});
