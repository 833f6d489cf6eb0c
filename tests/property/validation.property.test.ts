// The validation gate, property-tested against the three simulators with a non-empty applied state:
// random sets of declarations (every resource type of prova, provb and provc) and lookup calls
// (every lookup), each with injected mistakes, must fail with one ValidationError naming every
// injected mistake by resource and exact path, and no simulator may see a single request.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Engine, MemoryStateStore, ValidationError, ref, type ResourceDecl } from 'converge';
import { prova } from 'converge/providers/a';
import { provb } from 'converge/providers/b';
import { provc } from 'converge/providers/c';
import { startSimulator as startB, type CivoSimulator } from 'converge/providers/b/simulator';
import {
  startSimulator as startC,
  SIM_PROJECT_ID,
  SIM_REGION_ID,
  type GcoreSimulator,
} from 'converge/providers/c/simulator';
import { simEnv, type SimEnv } from '../providers/a/sim-env.js';
import { watchedStore } from '../validation/table.js';
import { objectView, shapeSchema } from '../../src/engine/validate/zod-def.js';
import type { AnyResource, AnyLookup } from '../../src/engine/provider/define.js';

type Expected = { readonly resource: string; readonly field: string; readonly path: readonly (string | number)[] };
type Made = { readonly decls: ResourceDecl[]; readonly expected: Expected[] };

let a: SimEnv;
let b: CivoSimulator;
let c: GcoreSimulator;
let engine: Engine;
let applied: ResourceDecl[];
const sims = () => [a.sim.requests.length, b.requests.length, c.requests.length];
/** The requests besides each provider's plan-time credential check (GET /1.0, /v2/regions, /cloud/v1/tasks), which a valid plan with changes makes by design. */
const simsBesidesVerify = () => [
  a.sim.requests.filter((r) => !(r.method === 'GET' && r.path === '/1.0')).length,
  b.requests.filter((r) => !(r.method === 'GET' && r.path === '/v2/regions')).length,
  c.requests.filter((r) => !(r.method === 'GET' && r.path === '/cloud/v1/tasks')).length,
];

beforeAll(async () => {
  a = await simEnv();
  b = await startB({
    transitions: { instance: 1, cluster: 1, pool: 1, database: 1, volume: 1, ip: 1, objectStore: 1, credential: 1 },
  });
  c = await startC({ taskDurationMs: 1 });
  const providers = [
    a.provider,
    provb({ token: b.token, apiEndpoint: b.url, region: 'LON1', pollIntervalMs: 1 }),
    provc({
      apiKey: c.apiKey,
      baseUrl: c.baseUrl,
      cloudProjectId: SIM_PROJECT_ID,
      cloudRegionId: SIM_REGION_ID,
      pollingIntervalSeconds: 0.002,
      env: {},
    }),
  ];
  engine = new Engine({ providers, state: new MemoryStateStore() });
  applied = [
    prova.network('seedNet', { name: 'cvt-valid-net', config: { 'ipv4.address': 'none', 'ipv6.address': 'none' } }),
    provb.network('seedVpc', { label: 'cvt-valid' }),
    provc.cdnOriginGroup('seedOrigins', { name: 'cvt-valid', sources: [{ source: 'origin.example.com' }] }),
  ];
  await engine.apply(await engine.plan(applied));
  expect(Object.keys((await engine.state()).resources)).toHaveLength(3);
  a.sim.clearLog();
  b.clearLog();
  c.clearLog();
});

afterAll(async () => {
  await a?.close();
  await b?.close();
  await c?.close();
});

const resources = () => engine.providers.flatMap((p) => [...p.resources.values()]) as AnyResource[];
const lookups = () => engine.providers.flatMap((p) => [...p.lookups.values()]) as AnyLookup[];
const keysOf = (schema: unknown) => Object.keys(objectView(schema as never)?.shape ?? {});
/** Top-level keys whose schema is a plain scalar, for a wrong-kind value. */
function scalarKeys(schema: unknown): { key: string; kind: string }[] {
  const shape = objectView(schema as never)?.shape ?? {};
  return Object.entries(shape).flatMap(([key, s]) => {
    const kind = (shapeSchema(s) as { _zod?: { def?: { type?: string } } } | undefined)?._zod?.def?.type ?? '';
    return ['string', 'number', 'boolean', 'enum'].includes(kind) ? [{ key, kind }] : [];
  });
}

const POOL: unknown[] = [
  'x',
  '00000000-0000-4000-8000-000000000001',
  '192.0.2.1',
  '/etc/motd',
  'cdn.example.com',
  '1.28.7-k3s1',
  1,
  600,
  true,
  ['x'],
  [{ source: 'origin.example.com' }],
  { nodeCount: 1, size: 'g4s.kube.small' },
  {},
];
/** Inputs holding a value the schema accepts for every required key (the rest left to defaults). */
function baseFor(def: AnyResource): Record<string, unknown> {
  const shape = objectView(def.inputs)?.shape ?? {};
  const out: Record<string, unknown> = {};
  for (const [k, schema] of Object.entries(shape)) {
    if ((schema as { safeParse(v: unknown): { success: boolean } }).safeParse(undefined).success) continue;
    const v = POOL.find((x) => (schema as { safeParse(v: unknown): { success: boolean } }).safeParse(x).success);
    if (v !== undefined) out[k] = v;
  }
  if (def.token.endsWith('instanceFile:InstanceFile') || def.token.endsWith('instance:Instance'))
    Object.assign(out, def.token.includes('prova') ? { image: 'busybox', content: 'x' } : {});
  return out;
}

const circular = () => {
  const o: Record<string, unknown> = { a: 1 };
  o.self = o;
  return o;
};
const notJson: (() => unknown)[] = [
  () => 10n,
  () => () => 1,
  () => Symbol('s'),
  () => new Date(0),
  () => new Map([[1, 2]]),
  () => NaN,
  () => Infinity,
  () => Promise.resolve(1),
  () => [1, undefined],
  circular,
  () => new Set([1]),
  () => new (class Thing {})(),
];
const badPaths = ['', 'a..b', '[0]', '*', 'x.*', 'a b[', 'x[y]'];
const word = fc.stringMatching(/^[a-z][a-zA-Z0-9]{2,12}$/);

/** One bad declaration (or a bad pair) at index i, with the issues it must produce. */
const badDecl = fc
  .record({
    r: fc.nat(),
    kind: fc.nat({ max: 12 }),
    pick: fc.nat(),
    extra: word,
    v: fc.nat(),
  })
  .map(({ r, kind, pick, extra, v }) => (i: number): Made => {
    const def = resources()[r % resources().length]!;
    const name = `bad${i}`;
    const keys = keysOf(def.inputs);
    const key = keys.length ? keys[pick % keys.length]! : `k${extra}`;
    const fresh = keys.includes(extra) ? `${extra}Zq` : extra;
    const decl = (inputs: Record<string, unknown>, options?: object): ResourceDecl =>
      ({ type: def.token, name, inputs, ...(options ? { options } : {}) }) as ResourceDecl;
    const one = (
      inputs: Record<string, unknown>,
      field: string,
      path: (string | number)[],
      options?: object,
    ): Made => ({ decls: [decl(inputs, options)], expected: [{ resource: name, field, path }] });
    switch (kind) {
      case 0:
        return one({ [fresh]: 1 }, 'inputs', [fresh]);
      case 1:
        return one({ [key]: notJson[v % notJson.length]!() }, 'inputs', [
          key,
          ...(v % notJson.length === 8 ? [1] : v % notJson.length === 9 ? ['self'] : []),
        ]);
      case 2:
        return one({ [key]: { '@converge': 'unknown' } }, 'inputs', [key]);
      case 3:
        return one(
          { [key]: { '@converge': 'ref', resource: 'seedNet', path: badPaths[v % badPaths.length] } },
          'inputs',
          [key],
        );
      case 4:
        return one({ [key]: ref(`nowhere${extra}`, 'id') }, 'inputs', [key]);
      case 5: {
        const scalars = scalarKeys(def.inputs);
        if (!scalars.length) return one({ [fresh]: true }, 'inputs', [fresh]);
        const s = scalars[pick % scalars.length]!;
        return one({ [s.key]: s.kind === 'boolean' ? 'not-a-boolean' : true }, 'inputs', [s.key]);
      }
      case 6:
        return one({}, 'options', ['timeouts', 'create'], {
          timeouts: { create: ['banana', '600h', '0s', '5 minutes'][v % 4] },
        });
      case 7:
        return one({}, 'options', ['dependsOn', 0], { dependsOn: [name] });
      case 8:
        return one({}, 'options', ['ignoreChanges', 0], { ignoreChanges: [`${fresh}.x`] });
      case 9:
        return one({}, 'options', [`${fresh}Opt`], { [`${fresh}Opt`]: true });
      case 10:
        return { decls: [decl({}), decl({})], expected: [{ resource: name, field: 'declaration', path: [] }] };
      case 11:
        return {
          decls: [{ type: `${def.token}${extra}`, name, inputs: {} } as ResourceDecl],
          expected: [{ resource: name, field: 'declaration', path: ['type'] }],
        };
      default:
        return one({ [fresh]: 'x'.repeat(10_000), [key]: notJson[v % 7]!() }, 'inputs', [fresh]);
    }
  });

const hasIssue = (e: ValidationError, x: Expected) =>
  e.issues.some(
    (i) =>
      i.resource === x.resource &&
      (i.field ?? 'inputs') === x.field &&
      JSON.stringify(i.path) === JSON.stringify(x.path),
  );

describe('the validation gate', () => {
  it('refuses every generated invalid declaration set at once, naming each mistake, before any request', async () => {
    let runs = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(badDecl, { minLength: 1, maxLength: 5 }), fc.boolean(), async (bads, keepApplied) => {
        runs++;
        const made = bads.map((m, i) => m(i));
        const decls = [...(keepApplied ? applied : []), ...made.flatMap((m) => m.decls)];
        const before = sims();
        const e = await engine.plan(decls).then(
          () => undefined,
          (x: unknown) => x,
        );
        expect(e).toBeInstanceOf(ValidationError);
        const err = e as ValidationError;
        for (const x of made.flatMap((m) => m.expected))
          expect(hasIssue(err, x), `${JSON.stringify(x)} in\n${err.message}`).toBe(true);
        expect(err.message.length).toBeLessThan(2000 * err.issues.length);
        expect(sims()).toEqual(before);
      }),
      { numRuns: 1000, seed: Number(process.env.VALIDATION_SEED ?? 20261123) },
    );
    expect(runs).toBeGreaterThanOrEqual(1000);
    expect(sims()).toEqual([0, 0, 0]);
  });

  it('refuses every generated invalid lookup call, naming each mistake, before any request', async () => {
    const badArgs = fc
      .record({ l: fc.nat(), kind: fc.nat({ max: 4 }), pick: fc.nat(), extra: word, v: fc.nat() })
      .map(({ l, kind, pick, extra, v }) => {
        const def = lookups()[l % lookups().length]!;
        const keys = keysOf(def.args);
        const key = keys.length ? keys[pick % keys.length]! : `k${extra}`;
        const fresh = keys.includes(extra) ? `${extra}Zq` : extra;
        const scalars = scalarKeys(def.args);
        const s = scalars.length ? scalars[pick % scalars.length]! : undefined;
        const cases: [Record<string, unknown>, (string | number)[]][] = [
          [{ [fresh]: 1 }, [fresh]],
          [
            { [key]: notJson[v % notJson.length]!() },
            [key, ...(v % notJson.length === 8 ? [1] : v % notJson.length === 9 ? ['self'] : [])],
          ],
          [{ [key]: { '@converge': 'unknown' } }, [key]],
          [{ [key]: ref('seedNet', 'id') }, [key]],
          s ? [{ [s.key]: s.kind === 'boolean' ? 'nope' : true }, [s.key]] : [{ [fresh]: 2 }, [fresh]],
        ];
        const [args, path] = cases[kind]!;
        return { token: def.token, args, path };
      });
    await fc.assert(
      fc.asyncProperty(badArgs, async ({ token, args, path }) => {
        const e = await engine.lookup(token, args).then(
          () => undefined,
          (x: unknown) => x,
        );
        expect(e).toBeInstanceOf(ValidationError);
        expect(hasIssue(e as ValidationError, { resource: token, field: 'args', path }), (e as Error).message).toBe(
          true,
        );
      }),
      { numRuns: 400, seed: Number(process.env.VALIDATION_SEED ?? 20261124) + 1 },
    );
    expect(sims()).toEqual([0, 0, 0]);
  });

  it('is complete: for declarations without references, no ValidationError comes after the state is read', async () => {
    const leaf = fc.oneof(
      fc.constantFrom(
        'x',
        'web',
        '/etc/motd',
        '0755',
        '999',
        '192.0.2.1',
        'not-an-ip',
        'tcp',
        'a',
        'LON1',
        '10m',
        'banana',
        '',
        'container',
      ),
      fc.constantFrom(0, 1, -1, 600, 5, 1.5, 65536),
      fc.boolean(),
    );
    const value = fc.oneof(
      { depthSize: 'small' },
      leaf,
      fc.array(leaf, { maxLength: 2 }),
      fc.dictionary(fc.constantFrom('a', 'user.k', 'name', 'source', 'targetPath', 'content'), leaf, { maxKeys: 2 }),
    );
    const anyDecl = fc
      .record({ r: fc.nat(), picks: fc.array(fc.tuple(fc.nat(), value), { maxLength: 2 }) })
      .map(({ r, picks }) => (i: number): ResourceDecl => {
        const def = resources()[r % resources().length]!;
        const keys = keysOf(def.inputs);
        const inputs: Record<string, unknown> = { ...baseFor(def) };
        for (const [k, v] of picks) if (keys.length) inputs[keys[k % keys.length]!] = v;
        return { type: def.token, name: `d${i}`, inputs } as ResourceDecl;
      });
    let passed = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(anyDecl, { minLength: 1, maxLength: 3 }), async (makers) => {
        const { store, calls } = watchedStore();
        const local = new Engine({ providers: engine.providers, state: store });
        const e = await local
          .plan(
            makers.map((m, i) => m(i)),
            { refresh: false },
          )
          .then(
            () => undefined,
            (x: unknown) => x,
          );
        if (e === undefined) {
          passed++;
          return;
        }
        expect(e).toBeInstanceOf(ValidationError);
        expect(calls, `a ValidationError after the state was read:\n${(e as Error).message}`).toEqual([]);
      }),
      { numRuns: 600, seed: Number(process.env.VALIDATION_SEED ?? 20261125) + 2 },
    );
    expect(simsBesidesVerify()).toEqual([0, 0, 0]);
    expect(passed).toBeGreaterThan(0);
  });

  it('covers every resource type and lookup of the three providers', () => {
    expect(new Set(resources().map((r) => r.token.split(':')[0]))).toEqual(new Set(['prova', 'provb', 'provc']));
    expect(resources().length).toBeGreaterThanOrEqual(30);
    expect(lookups().length).toBeGreaterThanOrEqual(40);
  });
});
