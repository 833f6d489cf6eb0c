// The validation gate (issue 12): everything checkable without remote data is reported in one
// ValidationError before the state store is locked or read and before any request.
import { describe, expect, it } from 'vitest';
import {
  Engine,
  MemoryStateStore,
  ValidationError,
  formatIssue,
  ref,
  stackRef,
  type Issue,
  type ResourceDecl,
} from 'converge';
import { provb } from 'converge/providers/b';
import { startSimulator as startB } from 'converge/providers/b/simulator';
import { testProvider, TestCloud, THING } from '../helpers/test-provider.js';
import { thing, blob } from '../helpers/builders.js';
import { watchedStore } from './table.js';

function gate() {
  const cloud = new TestCloud();
  const { store, calls } = watchedStore();
  const engine = new Engine({ providers: [testProvider(cloud)], state: store });
  const refuse = async (decls: unknown[], options?: object): Promise<ValidationError> => {
    const e = await engine.plan(decls as ResourceDecl[], options).then(
      () => undefined,
      (x: unknown) => x,
    );
    expect(e).toBeInstanceOf(ValidationError);
    expect(calls, 'state store untouched').toEqual([]);
    expect(cloud.calls).toHaveLength(0);
    return e as ValidationError;
  };
  return { engine, cloud, calls, refuse };
}
const at = (issues: readonly Issue[]) => issues.map((i) => [i.resource, i.field ?? 'inputs', i.path.join('.'), i.code]);

describe('the gate runs before the state and any request', () => {
  it('a valid plan reads the state (the watched store sees it)', async () => {
    const { engine, calls } = gate();
    await engine.plan([thing('a')]);
    expect(calls).toContain('read');
  });

  it('reports invalid input, not a 401, when the token is revoked and the state is applied', async () => {
    const sim = await startB({});
    try {
      const { store } = watchedStore();
      const good = new Engine({
        providers: [provb({ token: sim.token, apiEndpoint: sim.url, region: 'LON1', pollIntervalMs: 1 })],
        state: store,
      });
      await good.apply(await good.plan([provb.network('net', { label: 'cvt-valid-gate' })]));
      sim.clearLog();
      const revoked = new Engine({
        providers: [provb({ token: 'revoked-token', apiEndpoint: sim.url, region: 'LON1' })],
        state: store,
      });
      const e = await revoked
        .plan([
          provb.network('net', { label: 'cvt-valid-gate' }),
          provb.volume('vol', { name: 'v', sizeGb: -1 } as never),
        ])
        .catch((x) => x);
      expect(e).toBeInstanceOf(ValidationError);
      expect(at((e as ValidationError).issues)).toEqual([['vol', 'inputs', 'sizeGb', 'too_small']]);
      expect(sim.requests).toHaveLength(0);
    } finally {
      await sim.close();
    }
  });
});

describe('all at once', () => {
  it('a duplicate name, an unknown type, a bad option and a missing reference hide no schema or rule issue', async () => {
    const e = await gate().refuse([
      thing('net'),
      thing('net'),
      thing('v', { size: 'huge' }),
      thing('r', { ports: [0] }),
      { type: 'test:index/nope:Nope', name: 'u', inputs: {} },
      thing('o', {}, { protect: 'yes' } as never),
      thing('m', { peer: ref('ghost', 'address') }),
      thing('c', { size: 'large', region: 'tiny' }),
    ]);
    expect(at(e.issues)).toEqual(
      expect.arrayContaining([
        ['net', 'declaration', '', 'duplicate_name'],
        ['v', 'inputs', 'size', 'invalid_value'],
        ['r', 'inputs', 'ports.0', 'too_small'],
        ['u', 'declaration', 'type', 'unknown_type'],
        ['o', 'options', 'protect', 'invalid_option'],
        ['m', 'inputs', 'peer', 'missing_reference'],
        ['c', 'inputs', 'size', 'custom'],
      ]),
    );
  });

  it('a resource with an unknown type still has its options checked, and a duplicate its inputs', async () => {
    const e = await gate().refuse([
      { type: 'test:index/nope:Nope', name: 'u', inputs: {}, options: { dependsOn: ['u'] } },
      thing('d'),
      thing('d', { size: 1 }),
    ]);
    expect(at(e.issues)).toEqual(
      expect.arrayContaining([
        ['u', 'options', 'dependsOn.0', 'invalid_option'],
        ['d', 'inputs', 'size', 'invalid_value'],
      ]),
    );
  });
});

describe('unknown keys', () => {
  it('are named at their own path, nested too, with the closest key', async () => {
    const e = await gate().refuse([
      thing('a', { sise: 'small', tags: { x: 'y' } }),
      blob('b', { content: 'x', contnet: 'y' }),
    ]);
    const sise = e.issues.find((i) => i.path.join('.') === 'sise')!;
    expect(sise.code).toBe('unrecognized_keys');
    expect(sise.suggestion).toBe('size');
    expect(at(e.issues)).toEqual(expect.arrayContaining([['b', 'inputs', 'contnet', 'unrecognized_keys']]));
    expect(e.issues.some((i) => i.path.join('.') === 'tags.x')).toBe(false);
  });

  it('in a declaration itself are refused with a suggestion', async () => {
    const e = await gate().refuse([{ type: THING, name: 'a', input: { name: 'a' } }]);
    expect(at(e.issues)).toEqual(
      expect.arrayContaining([
        ['a', 'declaration', 'input', 'unrecognized_keys'],
        ['a', 'declaration', 'inputs', 'invalid_type'],
      ]),
    );
    expect(e.issues[0]).toMatchObject({ code: 'unrecognized_keys', path: ['input'], suggestion: 'inputs' });
  });
});

describe('options', () => {
  it.each([['600h'], ['25d'], ['0s'], ['banana'], ['5 m']])(
    'refuses timeouts.create %s with a clear message',
    async (value) => {
      const e = await gate().refuse([thing('a', {}, { timeouts: { create: value } } as never)]);
      expect(at(e.issues)).toEqual([['a', 'options', 'timeouts.create', 'invalid_option']]);
      expect(formatIssue(e.issues[0]!)).toMatch(/^a\.options\.timeouts\.create: /);
    },
  );

  it('accepts the longest timeout a timer holds', async () => {
    await gate().engine.plan([thing('a', {}, { timeouts: { create: '596h', delete: '30s' } })]);
  });

  it.each([
    ['ignoreChanges', 'bogus'],
    ['ignoreChanges', 'tags..x'],
    ['ignoreChanges', 'size.inner'],
    ['replaceOnChanges', 'ports.x'],
    ['replaceOnChanges', '[0]'],
  ])('refuses %s path %s (malformed or naming no input)', async (option, path) => {
    const e = await gate().refuse([thing('a', {}, { [option]: [path] })]);
    expect(at(e.issues)).toEqual([['a', 'options', `${option}.0`, 'invalid_option']]);
  });

  it.each([['tags.x'], ['tags.*'], ['ports[0]'], ['ports[*]'], ['size']])('accepts input path %s', async (path) => {
    await gate().engine.plan([thing('a', {}, { ignoreChanges: [path], replaceOnChanges: [path] })]);
  });

  it('refuses dependsOn naming the resource itself, and suggests a declared name for a missing one', async () => {
    const e = await gate().refuse([thing('web', {}, { dependsOn: ['web', 'dbb'] }), thing('db')]);
    expect(at(e.issues)).toEqual([
      ['web', 'options', 'dependsOn.0', 'invalid_option'],
      ['web', 'options', 'dependsOn.1', 'missing_reference'],
    ]);
    expect(e.issues[1]!.suggestion).toBe('db');
  });

  it('refuses an unknown option with a suggestion', async () => {
    const e = await gate().refuse([thing('a', {}, { protekt: true } as never)]);
    expect(at(e.issues)).toEqual([['a', 'options', 'protekt', 'invalid_option']]);
    expect(e.issues[0]!.suggestion).toBe('protect');
  });
});

describe('values that are not JSON', () => {
  const circular = () => {
    const o: Record<string, unknown> = {};
    o.me = o;
    return o;
  };
  it.each([
    ['BigInt', () => 1n, []],
    ['function', () => () => 1, []],
    ['Symbol', () => Symbol('x'), []],
    ['Date', () => new Date(), []],
    ['Map', () => new Map(), []],
    ['Set', () => new Set(), []],
    ['NaN', () => NaN, []],
    ['Infinity', () => -Infinity, []],
    ['undefined in a list', () => ['a', undefined], [1]],
    ['a hole in a list', () => [, 'a'], [0]], // eslint-disable-line no-sparse-arrays
    ['circular object', circular, ['me']],
    ['Promise', () => Promise.resolve('x'), []],
    ['class instance', () => new (class Box {})(), []],
    ['Uint8Array', () => new Uint8Array(2), []],
  ] as [string, () => unknown, (string | number)[]][])(
    '%s is an issue at its path, never a TypeError',
    async (_kind, make, below) => {
      const e = await gate().refuse([thing('a', { tags: { x: make() } })]);
      expect(at(e.issues)).toContainEqual(['a', 'inputs', ['tags', 'x', ...below].join('.'), 'not_json']);
    },
  );

  it('a circular object holding a stack reference is an issue at its path, never a RangeError', async () => {
    const o = circular();
    o.peer = stackRef(new MemoryStateStore(), 'address');
    const e = await gate().refuse([thing('a', { tags: { x: o } })]);
    // The loop stands where it stood in the declaration, and the reference is reported once, in its own words.
    expect(at(e.issues).sort()).toEqual([
      ['a', 'inputs', 'tags.x.me', 'not_json'],
      ['a', 'inputs', 'tags.x.peer', 'missing_stack_output'],
    ]);
  });

  it('an undefined property is the same as an absent one, as in JSON', async () => {
    await gate().engine.plan([thing('a', { password: undefined })]);
  });

  it('refuses the literal unknown marker and other converge tags', async () => {
    const e = await gate().refuse([
      thing('a', { peer: { '@converge': 'unknown' }, region: { '@converge': 'sensitive' } }),
    ]);
    expect(at(e.issues)).toEqual([
      ['a', 'inputs', 'peer', 'unknown_marker'],
      ['a', 'inputs', 'region', 'invalid_reference'],
    ]);
  });

  it.each([[''], ['a..b'], ['[0]'], ['x.*'], [42]])('refuses a hand-built ref with path %s', async (path) => {
    const e = await gate().refuse([thing('b'), thing('a', { peer: { '@converge': 'ref', resource: 'b', path } })]);
    expect(at(e.issues)).toEqual([['a', 'inputs', 'peer', 'invalid_reference']]);
  });

  it('refuses a hand-built ref without a resource', async () => {
    const e = await gate().refuse([thing('a', { peer: { '@converge': 'ref', path: 'address' } })]);
    expect(at(e.issues)).toEqual([['a', 'inputs', 'peer', 'invalid_reference']]);
  });
});

describe('references stand as unknowns of any type', () => {
  it('a ref in an enum, a number list or a string passes the gate', async () => {
    const { engine } = gate();
    const plan = await engine.plan([
      thing('b'),
      thing('a', { size: ref('b', 'status'), ports: [ref('b', 'address')], peer: ref('b', 'address') }),
    ]);
    expect(plan.steps.map((s) => s.address)).toEqual(['b', 'a']);
  });

  it('a check that needs a referenced value is not judged before it is known', async () => {
    const { engine } = gate();
    await engine.plan([thing('b'), thing('a', { size: 'large', region: ref('b', 'status') })]);
  });
});

describe('readable messages', () => {
  it('a 1 MB type token makes a short message', async () => {
    const e = await gate().refuse([
      { type: `x${'y'.repeat(1_000_000)}`, name: 'a', inputs: {} },
      thing('b', { [`k${'z'.repeat(1_000_000)}`]: 1 }),
    ]);
    expect(e.message.length).toBeLessThan(1500);
    expect(e.issues.map((i) => i.code)).toEqual(['unknown_type', 'unrecognized_keys']);
  });

  it('an unknown type suggests the closest token', async () => {
    const e = await gate().refuse([{ type: 'test:index/thing:Thnig', name: 'a', inputs: {} }]);
    expect(e.issues[0]).toMatchObject({ code: 'unknown_type', path: ['type'], suggestion: THING });
  });

  it('a type of a shipped provider the engine lacks names the factory to add', async () => {
    const e = await gate().refuse([{ type: 'provc:index/cdnResource:CdnResource', name: 'a', inputs: {} }]);
    expect(e.issues[0]).toMatchObject({ code: 'unknown_type', path: ['type'], providerModule: 'converge/providers/c' });
  });

  it('formats each field as its own address', () => {
    const f = (field: Issue['field'], path: (string | number)[], resource = 'web') =>
      formatIssue({ resource, field, path, code: 'x', message: 'm' });
    expect([
      f('inputs', ['files', 0, 'mode']),
      f('options', ['timeouts', 'create']),
      f('declaration', ['type']),
      f('declaration', []),
      f('args', ['name'], 'prova:index/getInstance:getInstance'),
      f('plan', ['targets', 0], ''),
    ]).toEqual([
      'web.inputs.files[0].mode: m',
      'web.options.timeouts.create: m',
      'web.type: m',
      'web: m',
      'prova:index/getInstance:getInstance.args.name: m',
      'targets[0]: m',
    ]);
  });
});

describe('lookups', () => {
  it('an unknown lookup token suggests the closest one', async () => {
    const { engine } = gate();
    const e = await engine.lookup('test:index/getThnig:getThing', {}).catch((x) => x);
    expect(e).toBeInstanceOf(ValidationError);
    expect((e as ValidationError).issues[0]!.code).toBe('unknown_type');
  });

  it('plan targets that are not names are plan issues', async () => {
    const e = await gate().refuse([thing('a')], { targets: ['a', 5] });
    expect(at(e.issues)).toEqual([['', 'plan', 'targets.1', 'invalid_type']]);
  });
});

describe('lookup calls that are not calls', () => {
  it.each([[null], [undefined], [42], [{}]])('a lookup call %s is a ValidationError, not a TypeError', async (call) => {
    const { engine } = gate();
    const e = await engine.lookup(call as never).catch((x) => x);
    expect(e).toBeInstanceOf(ValidationError);
  });
});

describe('schema issues hide no rule issue of the same resource', () => {
  it("a provider's check still judges the fields the schema accepted", async () => {
    const e = await gate().refuse([thing('a', { size: 'large', region: 'tiny', ports: ['x'] })]);
    expect(at(e.issues)).toEqual([
      ['a', 'inputs', 'ports.0', 'invalid_type'],
      ['a', 'inputs', 'size', 'custom'],
    ]);
  });

  it('an unknown key in a strict schema hides no other issue', async () => {
    const e = await gate().refuse([blob('b', { content: 7, colour: 'red' })]);
    expect(at(e.issues).map((i) => i[2])).toEqual(['colour', 'content']);
  });
});
