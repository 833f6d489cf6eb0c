// Own keys `__proto__` and `constructor` in inputs or lookup arguments are refused by the engine for
// every provider, at any depth (top level, inside maps, inside list elements), with an issue naming
// the resource and the key's path; the rest of the declaration is still judged. Before, providers A
// and C accepted them (their schemas strip unknown keys and take any key in maps), B refused them only
// through its strict schemas.
import { describe, expect, it } from 'vitest';
import { Engine, MemoryStateStore, ValidationError, type Issue, type Provider, type ResourceDecl } from 'converge';
import { prova } from 'converge/providers/a';
import { provb } from 'converge/providers/b';
import { provc } from 'converge/providers/c';
import { testProvider, TestCloud, THING } from '../helpers/test-provider.js';
import { watchedStore } from './table.js';

/** `inputs` with an own, enumerable key `key` holding `value` at `at` (JSON.parse makes `__proto__` an own key). */
function withOwnKey<T>(inputs: T, at: readonly (string | number)[], key: string, value: unknown): T {
  const copy = JSON.parse(JSON.stringify(inputs)) as Record<string | number, unknown>;
  let target = copy;
  for (const seg of at) target = target[seg] as Record<string | number, unknown>;
  Object.defineProperty(target, key, { value, enumerable: true, configurable: true, writable: true });
  return copy as T;
}

const providers = (): Provider<unknown>[] => [
  prova({ socketPath: '/nonexistent/converge-valid.sock', configDir: '/tmp/converge-valid-a' }),
  provb({ token: 'valid-test-token', apiEndpoint: 'http://127.0.0.1:9', region: 'LON1' }),
  provc({ apiKey: 'valid-test-key', baseUrl: 'http://127.0.0.1:9', cloudProjectId: 1, cloudRegionId: 1, env: {} }),
  testProvider(new TestCloud()) as Provider<unknown>,
];

type Row = { readonly what: string; readonly base: object; readonly at: readonly (string | number)[] };

const bases: Row[] = [
  { what: 'A instance, top level', base: prova.instance('i', { name: 'i', image: 'busybox' }), at: [] },
  {
    what: 'A instance, inside the config map',
    base: prova.instance('i', { name: 'i', image: 'busybox', config: { 'user.note': 'x' } }),
    at: ['config'],
  },
  { what: 'B network, top level', base: provb.network('n', { label: 'l' }), at: [] },
  {
    what: 'C CDN resource, top level',
    base: provc.cdnResource('s', { cname: 'cdn.example.com', originGroup: 1 }),
    at: [],
  },
  {
    what: 'C origin group, inside a list element',
    base: provc.cdnOriginGroup('o', { name: 'o', sources: [{ source: 'origin.example.com' }] }),
    at: ['sources', 0],
  },
  {
    what: 'test provider, inside a map',
    base: { type: THING, name: 't', inputs: { name: 't', tags: {} } },
    at: ['tags'],
  },
];

const rows = bases.flatMap((b) =>
  ['__proto__', 'constructor'].map((key) => ({ ...b, key, value: key === '__proto__' ? { polluted: true } : 'x' })),
);

const where = (issues: readonly Issue[]) =>
  issues.map((i) => [i.resource, i.field ?? 'inputs', JSON.stringify(i.path), i.code]);

describe('reserved keys', () => {
  for (const row of rows) {
    it(`refuses an own '${row.key}': ${row.what}`, async () => {
      const base = row.base as ResourceDecl;
      const decl = { ...base, inputs: withOwnKey(base.inputs, row.at, row.key, row.value) };
      expect(Object.prototype.hasOwnProperty.call(decl.inputs, row.at.length ? row.at[0]! : row.key)).toBe(true);
      const { store, calls } = watchedStore();
      const e = await new Engine({ providers: providers(), state: store }).plan([decl]).catch((x: unknown) => x);
      expect(e).toBeInstanceOf(ValidationError);
      expect(calls).toEqual([]);
      expect(where((e as ValidationError).issues)).toEqual([
        [decl.name, 'inputs', JSON.stringify([...row.at, row.key]), 'reserved_key'],
      ]);
      expect((e as ValidationError).issues[0]!.message).toContain(`'${row.key}' cannot be a key`);
    });
  }

  it('still judges the rest of the declaration, and every reserved key is named', async () => {
    const inputs = withOwnKey(
      withOwnKey({ name: 't', size: 'huge', tags: {} }, [], '__proto__', { a: 1 }),
      ['tags'],
      'constructor',
      'x',
    );
    const e = await new Engine({ providers: providers(), state: new MemoryStateStore() })
      .plan([{ type: THING, name: 't', inputs }])
      .catch((x: unknown) => x);
    expect(where((e as ValidationError).issues).sort()).toEqual([
      ['t', 'inputs', '["__proto__"]', 'reserved_key'],
      ['t', 'inputs', '["size"]', 'invalid_value'],
      ['t', 'inputs', '["tags","constructor"]', 'reserved_key'],
    ]);
  });

  it("refuses them in a lookup's arguments", async () => {
    const args = withOwnKey({ name: 'www' }, [], 'constructor', 'x');
    const e = await new Engine({ providers: providers(), state: new MemoryStateStore() })
      .lookup('provb:index/getDnsDomainRecord:getDnsDomainRecord', args)
      .catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ValidationError);
    expect(where((e as ValidationError).issues)).toContainEqual([
      'provb:index/getDnsDomainRecord:getDnsDomainRecord',
      'args',
      '["constructor"]',
      'reserved_key',
    ]);
  });

  it('accepts the same names as values and as parts of longer keys', async () => {
    const plan = await new Engine({ providers: providers(), state: new MemoryStateStore() }).plan([
      { type: THING, name: 't', inputs: { name: 'constructor', tags: { constructorName: '__proto__', proto: 'x' } } },
    ]);
    expect(plan.steps.map((s) => s.action)).toEqual(['create']);
  });
});
