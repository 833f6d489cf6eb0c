// Provider instances: several accounts (or servers) of one provider in one stack. Each object lands
// in the account of the instance its declaration chose; moving it to another instance replaces it
// with the reason shown; an instance removed while objects it made are recorded makes the plan
// name the instance and settings it needs; changed settings are shown and replace nothing; a saved
// plan is refused when an instance's settings changed.
import { afterEach, describe, expect, it } from 'vitest';
import { Engine, MemoryStateStore, Plan, PlanFileError, ValidationError } from '../../../src/index.js';
import { provb } from '../../../src/providers/b/index.js';
import { provc } from '../../../src/providers/c/index.js';
import { startSimulator as startCivo, type CivoSimulator } from '../../../src/providers/b/simulator/index.js';
import { startSimulator as startGcore } from '../../../src/providers/c/simulator/index.js';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of closers.splice(0).reverse()) await c();
});

async function twoCivo(): Promise<[CivoSimulator, CivoSimulator]> {
  const a = await startCivo({ token: 'token-main' });
  const b = await startCivo({ token: 'token-ops' });
  closers.push(
    () => a.close(),
    () => b.close(),
  );
  return [a, b];
}

/** The networks converge made in a simulated account (each region has its own 'Default' one). */
const labels = (sim: CivoSimulator) =>
  [...sim.store.networks.values()]
    .map((n) => String(n.label))
    .filter((l) => l !== 'Default')
    .sort();

describe('two instances of provider B (two Civo accounts) in one stack', () => {
  it('puts each network in the account of the instance its declaration chose', async () => {
    const [main, ops] = await twoCivo();
    const opsProvider = provb({ name: 'ops', token: ops.token, apiEndpoint: ops.url, region: 'NYC1' });
    const engine = new Engine({
      providers: [provb({ token: main.token, apiEndpoint: main.url, region: 'LON1' }), opsProvider],
      state: new MemoryStateStore(),
    });
    const decls = [
      provb.network('main-net', { label: 'main-net' }),
      provb.network('ops-net', { label: 'ops-net' }, { provider: 'ops' }),
      opsProvider.network('ops-net-2', { label: 'ops-net-2' }),
    ];
    expect(decls[2]!.options).toEqual({ provider: 'ops' });
    const plan = await engine.plan(decls);
    expect(plan.steps.map((s) => [s.address, s.instance])).toEqual([
      ['main-net', undefined],
      ['ops-net', 'ops'],
      ['ops-net-2', 'ops'],
    ]);
    await engine.apply(plan);
    expect(labels(main)).toEqual(['main-net']);
    expect(labels(ops)).toEqual(['ops-net', 'ops-net-2']);
    const state = await engine.state();
    expect(state.resources['ops-net']!.instance).toBe('ops');
    expect(state.resources['ops-net']!.instanceSettings).toEqual({ apiEndpoint: ops.url, region: 'NYC1' });
    expect(state.resources['main-net']!.instance).toBeUndefined();
    expect(JSON.stringify(state)).not.toContain('token-ops');
    expect((await engine.plan(decls)).hasChanges).toBe(false);
    // Lookups ask the instance they are bound to.
    const found = await engine.lookup(opsProvider.getNetwork({ label: 'ops-net' }));
    expect(found).toMatchObject({ label: 'ops-net' });
    await expect(engine.lookup(provb.getNetwork({ label: 'ops-net' }))).rejects.toMatchObject({ reason: 'not_found' });
  });

  it('refuses two default instances, and one name given twice, naming them', () => {
    const p = () => provb({ token: 't', apiEndpoint: 'http://127.0.0.1:9', region: 'LON1' });
    expect(() => new Engine({ providers: [p(), p()] })).toThrow(/one default instance of each provider; 'provb'/);
    const ops = () => provb({ name: 'ops', token: 't', apiEndpoint: 'http://127.0.0.1:9', region: 'LON1' });
    expect(() => new Engine({ providers: [p(), ops(), ops()] })).toThrow(/provb instance 'ops' is given twice/);
    expect(() => provb({ name: 'not a name', token: 't' })).toThrow(TypeError);
  });

  it('an unknown instance name is a validation issue naming the resource and options.provider, with a suggestion', async () => {
    const [main, ops] = await twoCivo();
    const engine = new Engine({
      providers: [
        provb({ token: main.token, apiEndpoint: main.url, region: 'LON1' }),
        provb({ name: 'ops', token: ops.token, apiEndpoint: ops.url, region: 'LON1' }),
      ],
      state: new MemoryStateStore(),
    });
    const e = await engine
      .plan([
        provb.network('a', { label: 'a' }, { provider: 'opz' }),
        provb.network('b', { label: 'b' }, { provider: 42 as unknown as string }),
      ])
      .catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ValidationError);
    const issues = (e as ValidationError).issues;
    expect(issues.find((i) => i.resource === 'a')).toMatchObject({
      field: 'options',
      path: ['provider'],
      code: 'unknown_instance',
      suggestion: 'ops',
    });
    expect(issues.find((i) => i.resource === 'a')!.message).toMatch(/Did you mean 'ops'\?/);
    expect(issues.find((i) => i.resource === 'b')).toMatchObject({ field: 'options', path: ['provider'] });
    expect(main.requests).toEqual([]);
    expect(ops.requests).toEqual([]);
  });

  it('without a default instance, a declaration that chooses none is told to choose', async () => {
    const [, ops] = await twoCivo();
    const engine = new Engine({
      providers: [provb({ name: 'ops', token: ops.token, apiEndpoint: ops.url, region: 'LON1' })],
      state: new MemoryStateStore(),
    });
    const e = (await engine.plan([provb.network('a', { label: 'a' })]).catch((x: unknown) => x)) as ValidationError;
    expect(e.issues[0]).toMatchObject({ resource: 'a', code: 'unknown_instance' });
    expect(e.issues[0]!.message).toMatch(/no default instance of provb .*'ops'/);
  });

  it('moving a resource to another instance replaces it, deleting through the old one, with the reason shown', async () => {
    const [main, ops] = await twoCivo();
    const engine = new Engine({
      providers: [
        provb({ token: main.token, apiEndpoint: main.url, region: 'LON1' }),
        provb({ name: 'ops', token: ops.token, apiEndpoint: ops.url, region: 'LON1' }),
      ],
      state: new MemoryStateStore(),
    });
    await engine.apply(await engine.plan([provb.network('net', { label: 'net' })]));
    expect(labels(main)).toEqual(['net']);
    const plan = await engine.plan([provb.network('net', { label: 'net' }, { provider: 'ops' })]);
    const step = plan.steps[0]!;
    expect(step).toMatchObject({ action: 'replace', cause: 'provider_changed', reasons: ['provider'] });
    expect(step.providerChange).toEqual({ from: 'provb (default instance)', to: "provb 'ops'" });
    expect(plan.render({ color: false })).toContain(
      "# (provider instance changed from provb (default instance) to provb 'ops')",
    );
    await engine.apply(plan);
    expect(labels(main)).toEqual([]);
    expect(labels(ops)).toEqual(['net']);
    expect((await engine.state()).resources.net!.instance).toBe('ops');
  });

  it('an instance removed while its objects are recorded: the plan names the instance and its settings, and reads nothing through another account', async () => {
    const [main, ops] = await twoCivo();
    const store = new MemoryStateStore();
    const mainP = () => provb({ token: main.token, apiEndpoint: main.url, region: 'LON1' });
    const first = new Engine({
      providers: [mainP(), provb({ name: 'ops', token: ops.token, apiEndpoint: ops.url, region: 'NYC1' })],
      state: store,
    });
    await first.apply(await first.plan([provb.network('net', { label: 'net' }, { provider: 'ops' })]));
    const without = new Engine({ providers: [mainP()], state: store });
    const before = ops.requests.length;
    const e = (await without.plan([]).catch((x: unknown) => x)) as ValidationError;
    expect(e).toBeInstanceOf(ValidationError);
    expect(e.issues).toEqual([expect.objectContaining({ resource: 'net', code: 'missing_instance' })]);
    expect(e.issues[0]!.message).toContain(`made by provb 'ops' with apiEndpoint '${ops.url}', region 'NYC1'`);
    expect(e.issues[0]!.message).toContain("provb({ name: 'ops', <credentials>, ... })");
    expect(e.issues[0]!.message).not.toContain(ops.token);
    expect(ops.requests.length).toBe(before);
    expect(main.requests.filter((r) => r.path.includes('network'))).toEqual([]);
    // With the instance given back (same settings, its credentials), the removal plans as a delete.
    const back = new Engine({
      providers: [mainP(), provb({ name: 'ops', token: ops.token, apiEndpoint: ops.url, region: 'NYC1' })],
      state: store,
    });
    const plan = await back.plan([]);
    expect(plan.steps.map((s) => [s.address, s.action, s.instance])).toEqual([['net', 'delete', 'ops']]);
    await back.apply(plan);
    expect(labels(ops)).toEqual([]);
  });

  it('changed settings of an instance are shown as state-only changes and a warning, and replace nothing', async () => {
    const [main] = await twoCivo();
    const store = new MemoryStateStore();
    const at = (region: string) =>
      new Engine({ providers: [provb({ token: main.token, apiEndpoint: main.url, region })], state: store });
    const decls = [provb.network('net', { label: 'net', region: 'LON1' })];
    await at('LON1').apply(await at('LON1').plan(decls));
    const engine = at('NYC1');
    const plan = await engine.plan(decls);
    const step = plan.steps[0]!;
    expect(step).toMatchObject({ action: 'update', cause: 'options_changed' });
    expect(step.changes).toEqual([
      { path: 'provider.region', before: 'LON1', after: 'NYC1', forcesReplacement: false, scope: 'state' },
    ]);
    expect(plan.warnings.join('\n')).toMatch(
      /provb \(default instance\): its settings differ .*region 'LON1' -> 'NYC1'.* replaces none of them/,
    );
    const text = plan.render({ color: false });
    expect(text).toContain('~ provider.region = "LON1" -> "NYC1" # state only');
    const writes = main.requests.length;
    await engine.apply(plan);
    expect(main.requests.slice(writes).filter((r) => r.method !== 'GET')).toEqual([]);
    expect((await engine.state()).resources.net!.instanceSettings).toMatchObject({ region: 'NYC1' });
    expect((await engine.plan(decls)).hasChanges).toBe(false);
  });

  it('a saved plan is refused when an instance has other settings at apply', async () => {
    const [main, ops] = await twoCivo();
    const store = new MemoryStateStore();
    const engineWith = (region: string) =>
      new Engine({
        providers: [
          provb({ token: main.token, apiEndpoint: main.url, region: 'LON1' }),
          provb({ name: 'ops', token: ops.token, apiEndpoint: ops.url, region }),
        ],
        state: store,
      });
    const plan = await engineWith('LON1').plan([provb.network('net', { label: 'net' }, { provider: 'ops' })]);
    const key = { signingKey: 'a-signing-key-of-some-length' };
    const file = await plan.serialize(key);
    const e = await engineWith('FRA1')
      .apply(await Plan.parse(file, key))
      .catch((x: unknown) => x);
    expect(e).toBeInstanceOf(PlanFileError);
    expect((e as PlanFileError).problem).toBe('providers_mismatch');
    expect((e as PlanFileError).detail).toContain(
      "provb 'ops'.region: the plan was made with 'LON1', this engine has 'FRA1'",
    );
    expect(labels(ops)).toEqual([]);
    await engineWith('LON1').apply(await Plan.parse(file, key));
    expect(labels(ops)).toEqual(['net']);
  });
});

describe('two instances of provider C (two Gcore API keys) in one stack', () => {
  it('puts each origin group in the account of its instance, and a move replaces it', async () => {
    const a = await startGcore({ apiKey: 'key-main' });
    const b = await startGcore({ apiKey: 'key-edge' });
    closers.push(
      () => a.close(),
      () => b.close(),
    );
    const edge = provc({ name: 'edge', apiKey: b.apiKey, baseUrl: b.baseUrl, env: {} });
    const engine = new Engine({
      providers: [provc({ apiKey: a.apiKey, baseUrl: a.baseUrl, env: {} }), edge],
      state: new MemoryStateStore(),
    });
    const group = (name: string) => ({ name, sources: [{ source: `${name}.example.com` }] });
    await engine.apply(
      await engine.plan([provc.cdnOriginGroup('main', group('main')), edge.cdnOriginGroup('edge', group('edge'))]),
    );
    const names = (s: typeof a) => [...s.store.cdn.originGroups.values()].map((g) => g.name).sort();
    expect(names(a)).toEqual(['main']);
    expect(names(b)).toEqual(['edge']);
    const moved: Plan = await engine.plan([
      edge.cdnOriginGroup('main', group('main')),
      edge.cdnOriginGroup('edge', group('edge')),
    ]);
    expect(moved.steps.find((s) => s.address === 'main')).toMatchObject({
      action: 'replace',
      cause: 'provider_changed',
    });
    await engine.apply(moved);
    expect(names(a)).toEqual([]);
    expect(names(b)).toEqual(['edge', 'main']);
  });
});
