// Saved plans in one process: save → load → apply runs the reviewed steps with no re-planning, and
// apply refuses a plan whose state moved on, whose providers or declarations differ, or whose
// format it does not know, with nothing changed. Secrets are sealed, or refused in clear.
import { describe, it, expect } from 'vitest';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Engine, MemoryStateStore, MemoryLocation, Plan, StalePlanError } from 'converge';
import { setup, thing } from '../helpers/builders.js';
import { TestCloud, testProvider } from '../helpers/test-provider.js';
import { expectValidPlanFile } from './plan-schema.js';

const dir = () => mkdtempSync(join(tmpdir(), 'converge-wf-'));
const PASS = 'correct horse battery staple';

function twoEngines() {
  const cloud = new TestCloud();
  const where = new MemoryLocation();
  const make = () =>
    new Engine({
      providers: [testProvider(cloud)],
      state: new MemoryStateStore(where),
      retry: { retries: 0, minTimeoutMs: 1, maxTimeoutMs: 1 },
    });
  return { cloud, a: make(), b: make() };
}

describe('saved plans', () => {
  it('applies a loaded plan in another engine exactly as saved: same steps, no refresh or re-planning', async () => {
    const { cloud, a, b } = twoEngines();
    const path = join(dir(), 'plan.json');
    const plan = await a.plan([thing('web', { size: 'medium' }), thing('db')]);
    await plan.save(path, { passphrase: PASS });
    expectValidPlanFile(readFileSync(path, 'utf8'));
    const loaded = await Plan.load(path, { passphrase: PASS });
    expect(loaded.toJSON().steps).toEqual(plan.toJSON().steps);
    cloud.calls = [];
    const result = await b.apply(loaded);
    expect(cloud.calls.map((c) => c.op)).toEqual(['create', 'create']);
    expect(result.succeeded.map((s) => s.address).sort()).toEqual(['db', 'web']);
    expect((await b.plan([thing('web', { size: 'medium' }), thing('db')])).hasChanges).toBe(false);
  });

  it('refuses a plan whose state moved on since it was made (StalePlanError), changing nothing', async () => {
    const { cloud, a, b } = twoEngines();
    const path = join(dir(), 'plan.json');
    await (await a.plan([thing('web')])).save(path, { passphrase: PASS });
    await b.apply(await b.plan([thing('other')]));
    const before = [...cloud.objects.keys()];
    const loaded = await Plan.load(path, { passphrase: PASS });
    await expect(b.apply(loaded)).rejects.toBeInstanceOf(StalePlanError);
    expect([...cloud.objects.keys()]).toEqual(before);
  });

  it('refuses a plan made with other providers (providers_mismatch)', async () => {
    const { a } = twoEngines();
    const path = join(dir(), 'plan.json');
    await (await a.plan([thing('web')])).save(path, { passphrase: PASS });
    const other = new Engine({ providers: [testProvider(new TestCloud(), 'other')], state: new MemoryStateStore() });
    await expect(other.apply(await Plan.load(path, { passphrase: PASS }))).rejects.toMatchObject({
      code: 'CONVERGE_PLAN_FILE',
      problem: 'providers_mismatch',
    });
  });

  it('refuses a plan when the declarations given to apply differ (declarations_mismatch), changing nothing', async () => {
    const { cloud, a, b } = twoEngines();
    const path = join(dir(), 'plan.json');
    await (await a.plan([thing('web')])).save(path, { passphrase: PASS });
    const loaded = await Plan.load(path, { passphrase: PASS });
    await expect(b.apply(loaded, { declarations: [thing('web', { size: 'large' })] })).rejects.toMatchObject({
      problem: 'declarations_mismatch',
    });
    expect(cloud.objects.size).toBe(0);
    await expect(b.apply(loaded, { declarations: [thing('web')] })).resolves.toMatchObject({ failed: [] });
  });

  it('refuses a plan file of a format version it does not know (unknown_version)', async () => {
    const { a } = twoEngines();
    const path = join(dir(), 'plan.json');
    await (await a.plan([thing('web')])).save(path, { passphrase: PASS });
    const file = JSON.parse(readFileSync(path, 'utf8'));
    writeFileSync(path, JSON.stringify({ ...file, formatVersion: 99 }));
    await expect(Plan.load(path, { passphrase: PASS })).rejects.toMatchObject({ problem: 'unknown_version' });
  });

  it('refuses a plan file whose shown steps were edited (corrupt)', async () => {
    const { a } = twoEngines();
    const path = join(dir(), 'plan.json');
    await (await a.plan([thing('web')])).save(path, { passphrase: PASS });
    const file = JSON.parse(readFileSync(path, 'utf8'));
    file.plan.steps[0].action = 'noop';
    writeFileSync(path, JSON.stringify(file));
    await expect(Plan.load(path, { passphrase: PASS })).rejects.toMatchObject({ problem: 'corrupt' });
  });

  it('seals secret values: the file never holds them, and a wrong passphrase cannot open it', async () => {
    const { cloud, engine } = setup();
    await engine.apply(await engine.plan([thing('web', { password: 'hunter2-password' })]));
    const token = [...cloud.objects.values()][0]!.outputs.token as string;
    const path = join(dir(), 'plan.json');
    await (await engine.plan([thing('web', { password: 'new-hunter3-password' })])).save(path, { passphrase: PASS });
    const text = readFileSync(path, 'utf8');
    expectValidPlanFile(text);
    for (const secret of ['hunter2-password', 'new-hunter3-password', token]) expect(text).not.toContain(secret);
    await expect(Plan.load(path, { passphrase: 'wrong' })).rejects.toMatchObject({ code: 'CONVERGE_STATE_PASSPHRASE' });
  });

  it('refuses to save secrets in clear without a passphrase unless allowPlaintextSecrets is given', async () => {
    const { engine } = setup();
    const saved = process.env.CONVERGE_SECRETS_PASSPHRASE;
    delete process.env.CONVERGE_SECRETS_PASSPHRASE;
    try {
      const plan = await engine.plan([thing('web', { password: 'hunter2-password' })]);
      const path = join(dir(), 'plan.json');
      await expect(plan.save(path)).rejects.toMatchObject({ problem: 'secrets_in_clear' });
      await plan.save(path, { allowPlaintextSecrets: true });
      expectValidPlanFile(readFileSync(path, 'utf8'));
      await (await engine.plan([thing('plain')])).save(join(dir(), 'plain.json'));
    } finally {
      if (saved !== undefined) process.env.CONVERGE_SECRETS_PASSPHRASE = saved;
    }
  });

  it('carries a replacement, a deletion and references through a saved plan', async () => {
    const { cloud, a, b } = twoEngines();
    await a.apply(
      await a.plan([
        thing('net'),
        thing('web', { peer: { '@converge': 'ref', resource: 'net', path: 'address' } }),
        thing('old'),
      ]),
    );
    const path = join(dir(), 'plan.json');
    const decls = [
      thing('net', { region: 'us' }),
      thing('web', { peer: { '@converge': 'ref', resource: 'net', path: 'address' } }),
    ];
    const plan = await a.plan(decls);
    await plan.save(path, { passphrase: PASS });
    expectValidPlanFile(readFileSync(path, 'utf8'));
    cloud.calls = [];
    await b.apply(await Plan.load(path, { passphrase: PASS }), { declarations: decls });
    expect(cloud.calls.filter((c) => c.op !== 'read').map((c) => `${c.op} ${c.name ?? ''}`)).toEqual(
      expect.arrayContaining(['delete old', 'delete net', 'create net']),
    );
    expect((await b.plan(decls)).hasChanges).toBe(false);
  });

  it('carries a create-before-destroy replacement (deposed key and node order) through a saved plan', async () => {
    const { cloud, a, b } = twoEngines();
    await a.apply(await a.plan([thing('web', {}, { createBeforeDestroy: true })]));
    const decls = [thing('web', { region: 'us' }, { createBeforeDestroy: true })];
    const plan = await a.plan(decls);
    const text = await plan.serialize({ passphrase: PASS });
    expectValidPlanFile(text);
    cloud.calls = [];
    await b.apply(await Plan.parse(text, { passphrase: PASS }), { declarations: decls });
    expect(cloud.calls.filter((c) => c.op === 'create' || c.op === 'delete').map((c) => c.op)).toEqual([
      'create',
      'delete',
    ]);
    expect(Object.keys((await b.state()).deposed)).toEqual([]);
    expect((await b.plan(decls)).hasChanges).toBe(false);
  });

  it('saves only plans an engine made', async () => {
    const { a } = twoEngines();
    const text = await (await a.plan([thing('web')])).serialize({ passphrase: PASS });
    const loaded = await Plan.parse(text, { passphrase: PASS });
    await expect(loaded.serialize()).rejects.toMatchObject({ problem: 'not_a_plan' });
  });
});
