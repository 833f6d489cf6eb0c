// Table-driven seed-rule tests: each row is one declaration (or lookup call) breaking one stated
// rule, and the issue code and path the plan-time gate must report for it. The providers point at
// a closed port: any request would fail with something other than a ValidationError.
import { expect, it } from 'vitest';
import { Engine, MemoryStateStore, ValidationError, type Provider, type ResourceDecl, type StateStore } from 'converge';

export type Row = {
  /** The rule, as the seed or wire notes state it. */
  readonly rule: string;
  readonly decl?: ResourceDecl;
  readonly lookup?: { readonly token: string; readonly args: Record<string, unknown> };
  readonly code: string | readonly string[];
  readonly path: readonly (string | number)[];
  readonly field?: 'inputs' | 'options' | 'args' | 'declaration';
};

export type Valid = { readonly rule: string; readonly decl?: ResourceDecl; readonly lookup?: Row['lookup'] };

/** A memory store that counts every call: the gate must refuse before the state is read or locked. */
export function watchedStore(): { store: StateStore; calls: string[] } {
  const calls: string[] = [];
  const inner = new MemoryStateStore();
  const store = new Proxy(inner, {
    get(target, prop, receiver) {
      const v = Reflect.get(target, prop, receiver);
      return typeof v === 'function'
        ? (...args: unknown[]) => {
            calls.push(String(prop));
            return v.apply(target, args);
          }
        : v;
    },
  });
  return { store, calls };
}

async function issuesOf(
  engine: Engine,
  row: { decl?: ResourceDecl; lookup?: Row['lookup'] },
): Promise<ValidationError | undefined> {
  const run = row.decl ? engine.plan([row.decl]) : engine.lookup(row.lookup!.token, row.lookup!.args);
  const e = await run.then(
    () => undefined,
    (x: unknown) => x,
  );
  if (e === undefined) return undefined;
  expect(e).toBeInstanceOf(ValidationError);
  return e as ValidationError;
}

/** One `it` per row: the issue with that code at that path (and resource name) is reported. */
export function describeRules(
  provider: () => Provider<unknown>,
  rows: readonly Row[],
  valid: readonly Valid[] = [],
): void {
  // An accepted declaration goes on to the provider's closed endpoint, which refuses at once: no
  // retries, so the row takes the time of its validation, not of a backoff (2-11 s a row).
  const engine = () => new Engine({ providers: [provider()], state: new MemoryStateStore(), retry: { retries: 0 } });
  for (const row of rows) {
    it(`refuses: ${row.rule}`, async () => {
      const { store, calls } = watchedStore();
      const e = await issuesOf(new Engine({ providers: [provider()], state: store }), row);
      expect(calls, 'no state store call before the ValidationError').toEqual([]);
      expect(e, 'a ValidationError').toBeDefined();
      const field = row.field ?? (row.decl ? 'inputs' : 'args');
      const codes = typeof row.code === 'string' ? [row.code] : row.code;
      const found = e!.issues.filter(
        (i) => (i.field ?? 'inputs') === field && JSON.stringify(i.path) === JSON.stringify(row.path),
      );
      expect(
        found.map((i) => i.code),
        e!.message,
      ).toEqual(expect.arrayContaining([expect.toSatisfy((c: string) => codes.includes(c))]));
      expect(found[0]!.resource).toBe(row.decl ? row.decl.name : row.lookup!.token);
    });
  }
  for (const v of valid) {
    it(`accepts: ${v.rule}`, async () => {
      if (v.decl) {
        const e = await engine()
          .plan([v.decl])
          .then(
            () => undefined,
            (x: unknown) => x,
          );
        expect(e instanceof ValidationError ? e.message : undefined).toBeUndefined();
      } else {
        // A valid lookup passes the gate and reaches the (closed) endpoint: any error but a ValidationError.
        const e = await engine()
          .lookup(v.lookup!.token, v.lookup!.args)
          .then(
            () => undefined,
            (x: unknown) => x,
          );
        expect(e instanceof ValidationError ? e.message : undefined).toBeUndefined();
      }
    });
  }
}
