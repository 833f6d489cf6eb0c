// A saved plan cannot be edited to run something else (issue 23, part 2). Every value in the file
// is covered by its digest (a MAC under a signing key or the passphrase when one is given): each
// single edit of the work list (every leaf, every member removed or added), of the public plan or
// of the providers is refused as 'corrupt' ("edited or damaged"); a plan made with other provider
// settings (region, endpoint, project, remote) is refused naming the setting; the MAC needs its key.
import { describe, it, expect, afterEach, beforeAll, afterAll, vi } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  Engine,
  FileStateStore,
  MemoryLocation,
  MemoryStateStore,
  Plan,
  PlanFileError,
  StalePlanError,
  type Provider,
} from 'converge';
import { provb } from 'converge/providers/b';
import { startSimulator as startCivo, type CivoSimulator } from 'converge/providers/b/simulator';
import { provc } from 'converge/providers/c';
import {
  startSimulator as startGcore,
  SIM_PROJECT_ID,
  SIM_REGION_ID,
  type GcoreSimulator,
} from 'converge/providers/c/simulator';
import { prova } from 'converge/providers/a';
import { startSimulator as startLxd, type LxdSimulator } from 'converge/providers/a/simulator';
import { thing } from '../helpers/builders.js';
import { TestCloud, testProvider } from '../helpers/test-provider.js';
import { expectValidPlanFile } from '../workflow/plan-schema.js';

// Each load under the passphrase derives two scrypt keys, and the edit-by-edit tests load one file
// hundreds of times: each key derived once (tests/helpers/memo-scrypt.ts).
vi.mock('node:crypto', async (original) => (await import('../helpers/memo-scrypt.js')).memoizeScrypt(await original()));
// The forks run file after file (isolate: false): src/ may already be loaded, bound to the real
// node:crypto, by a file before this one. Loaded again here, under the mock (hoisted above the imports).
vi.hoisted(() => vi.resetModules());

const PASS = 'correct horse battery staple';
const SIGNING_KEY = 'k7Qe1Zp0mWv3sXr9Tb2Yc8Ud5Hf4Lg6N';
const ref = (resource: string, path = 'address') => ({ '@converge': 'ref', resource, path });
const dir = () => mkdtempSync(join(tmpdir(), 'converge-plan-integrity-'));

// The keys come from the options of each call here, never from the environment of the run.
const ENV = ['CONVERGE_SECRETS_PASSPHRASE', 'CONVERGE_PLAN_SIGNING_KEY'] as const;
const outer = Object.fromEntries(ENV.map((k) => [k, process.env[k]]));
beforeAll(() => ENV.forEach((k) => delete process.env[k]));
afterAll(() => ENV.forEach((k) => (outer[k] === undefined ? delete process.env[k] : (process.env[k] = outer[k]))));

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type Path = (string | number)[];

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

/** A plan with every kind of step: create, update, replace (both orders), delete, rename, noop, references. */
async function richPlan() {
  const { cloud, a, b } = twoEngines();
  await a.apply(
    await a.plan([
      thing('net'),
      thing('web', { peer: ref('net'), size: 'small' }),
      thing('cbd', {}, { createBeforeDestroy: true }),
      thing('old'),
      thing('was', { name: 'moved' }),
      thing('same'),
    ]),
  );
  const decls = [
    thing('net', { region: 'us' }),
    thing('web', { peer: ref('net'), size: 'large' }),
    thing('cbd', { region: 'us' }, { createBeforeDestroy: true }),
    { ...thing('now', { name: 'moved' }), options: { aliases: ['was'] } },
    thing('same'),
    thing('fresh', { peer: ref('web') }),
  ];
  const plan = await a.plan(decls);
  expect(new Set(plan.steps.map((s) => s.action))).toEqual(new Set(['create', 'update', 'replace', 'delete', 'noop']));
  return { cloud, a, b, plan, decls };
}

function leaves(v: Json, path: Path = []): Path[] {
  if (Array.isArray(v)) return v.length ? v.flatMap((x, i) => leaves(x, [...path, i])) : [path];
  if (v && typeof v === 'object') {
    const keys = Object.keys(v);
    return keys.length ? keys.flatMap((k) => leaves(v[k]!, [...path, k])) : [path];
  }
  return [path];
}

/** Every object member below `root` (to remove), and every object (to add a member to). */
function members(v: Json, path: Path = []): { objects: Path[]; members: Path[] } {
  const out = { objects: [] as Path[], members: [] as Path[] };
  if (Array.isArray(v))
    v.forEach((x, i) => {
      const m = members(x, [...path, i]);
      out.objects.push(...m.objects);
      out.members.push(...m.members);
    });
  else if (v && typeof v === 'object') {
    out.objects.push(path);
    for (const k of Object.keys(v)) {
      out.members.push([...path, k]);
      const m = members(v[k]!, [...path, k]);
      out.objects.push(...m.objects);
      out.members.push(...m.members);
    }
  }
  return out;
}

function changed(v: Json): Json {
  if (typeof v === 'string') return v.length ? `${v.slice(0, -1)}${v.endsWith('x') ? 'y' : 'x'}` : 'x';
  if (typeof v === 'number') return v + 1;
  if (typeof v === 'boolean') return !v;
  if (v === null) return 'x';
  return Array.isArray(v) ? [0] : { x: 1 };
}

function edit(
  file: Json,
  path: Path,
  fn: (parent: Record<string | number, Json>, key: string | number) => void,
): string {
  const copy = { root: structuredClone(file) } as Record<string | number, Json>;
  const full = ['root', ...path];
  let parent = copy;
  for (const k of full.slice(0, -1)) parent = parent[k] as Record<string | number, Json>;
  fn(parent, full[full.length - 1]!);
  return JSON.stringify(copy.root, null, 2);
}

const at = (file: Json, path: Path): Json =>
  path.reduce<Json>((v, k) => (v as Record<string | number, Json>)[k]!, file);

/** The problem (or error code) loading `text` ends with; 'loaded' when it loads. */
async function outcome(text: string, options: Parameters<typeof Plan.parse>[1] = {}): Promise<string> {
  try {
    await Plan.parse(text, options);
    return 'loaded';
  } catch (error) {
    if (error instanceof PlanFileError) return error.problem;
    return (error as { code?: string }).code ?? String(error);
  }
}

/** Each single edit's outcome, as `path → outcome`, for those that were not refused as corrupt. */
async function editsNotRefused(
  text: string,
  paths: Path[],
  how: 'change' | 'remove' | 'add',
  options: Parameters<typeof Plan.parse>[1] = {},
): Promise<Record<string, string>> {
  const file = JSON.parse(text) as Json;
  const missed: Record<string, string> = {};
  for (const path of paths) {
    const edited = edit(file, path, (parent, key) => {
      if (how === 'change') parent[key] = changed(parent[key]!);
      else if (how === 'remove') delete parent[key];
      else (parent[key] as Record<string, Json>)['@added'] = 1;
    });
    const got = await outcome(edited, options);
    if (got !== 'corrupt') missed[`${how} ${JSON.stringify(path)}`] = got;
  }
  return missed;
}

describe('a saved plan without a key (plain digest)', () => {
  it('refuses every single edit of the work list: each leaf changed, each member removed, a member added', async () => {
    const { plan } = await richPlan();
    const text = await plan.serialize({ allowPlaintextSecrets: true });
    expectValidPlanFile(text);
    expect(await outcome(text)).toBe('loaded');
    const file = JSON.parse(text) as Json;
    const work = at(file, ['work']);
    const workLeaves = leaves(work).map((p) => ['work', ...p]);
    // Every field apply reads is there to edit: ids, inputs, prior and deposed objects, nodes, deps.
    const fields = new Set(
      workLeaves.map((p) =>
        p
          .filter((k) => typeof k === 'string')
          .slice(1, 3)
          .join('.'),
      ),
    );
    for (const f of ['steps.step', 'steps.decl', 'steps.prior', 'steps.inputs', 'steps.nodes', 'steps.deps'])
      expect(fields).toContain(f);
    expect(workLeaves.length).toBeGreaterThan(300);
    expect(await editsNotRefused(text, workLeaves, 'change')).toEqual({});
    const { objects, members: keys } = members(work);
    expect(
      await editsNotRefused(
        text,
        keys.map((p) => ['work', ...p]),
        'remove',
      ),
    ).toEqual({});
    expect(
      await editsNotRefused(
        text,
        objects.map((p) => ['work', ...p]),
        'add',
      ),
    ).toEqual({});
  });

  it('refuses every single edit of the public plan, the providers and the file header', async () => {
    const { plan } = await richPlan();
    const text = await plan.serialize({ allowPlaintextSecrets: true });
    const file = JSON.parse(text) as Json;
    const paths = leaves(file).filter((p) => p[0] !== 'work' && p[0] !== 'formatVersion');
    expect(paths.length).toBeGreaterThan(100);
    expect(await editsNotRefused(text, paths, 'change')).toEqual({});
    expect(await editsNotRefused(text, [[]], 'add')).toEqual({});
    const { integrity: _i, ...withoutDigest } = file as Record<string, Json>;
    await expect(Plan.parse(JSON.stringify(withoutDigest))).rejects.toThrow(/edited or damaged/);
  });

  it("refuses the issue's edits: another object to delete, a label nobody reviewed", async () => {
    const { plan, b, cloud } = await richPlan();
    const text = await plan.serialize({ allowPlaintextSecrets: true });
    const file = JSON.parse(text) as { work: { steps: { step: { address: string }; prior?: { id: string } }[] } };
    const del = file.work.steps.findIndex((s) => s.step.address === 'old');
    const other = file.work.steps.find((s) => s.step.address === 'same')!.prior!.id;
    const forged = edit(file as unknown as Json, ['work', 'steps', del, 'prior', 'id'], (p, k) => (p[k] = other));
    const error = await Plan.parse(forged).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PlanFileError);
    expect(error).toMatchObject({ problem: 'corrupt' });
    expect((error as Error).message).toMatch(/edited or damaged/);
    const web = file.work.steps.findIndex((s) => s.step.address === 'web');
    const relabel = edit(
      file as unknown as Json,
      ['work', 'steps', web, 'decl', 'inputs', 'size'],
      (p, k) => (p[k] = 'huge'),
    );
    await expect(Plan.parse(relabel)).rejects.toMatchObject({ problem: 'corrupt' });
    const cbd = file.work.steps.findIndex((s) => s.step.address === 'cbd');
    const region = edit(file as unknown as Json, ['work', 'steps', cbd, 'inputs', 'region'], (p, k) => (p[k] = 'ap'));
    await expect(Plan.parse(region)).rejects.toMatchObject({ problem: 'corrupt' });
    const before = [...cloud.objects.keys()].sort();
    await expect(b.apply(await Plan.parse(text))).resolves.toMatchObject({ failed: [] });
    expect([...cloud.objects.keys()]).toContain(other);
    expect(before).not.toEqual([...cloud.objects.keys()].sort());
  });

  it('is only a digest: an editor who recomputes it is caught only where the shown plan differs — a key is needed', async () => {
    const { plan } = await richPlan();
    const text = await plan.serialize({ allowPlaintextSecrets: true });
    const file = JSON.parse(text) as Record<string, unknown> & {
      work: { steps: { step: { address: string; id?: string }; prior?: { id: string } }[] };
    };
    const { createHash } = await import('node:crypto');
    const { canonical } = await import('../../src/engine/plan/plan-integrity.js');
    const redigest = (f: Record<string, unknown>) => {
      const { integrity: _i, ...rest } = f;
      return JSON.stringify({
        ...rest,
        integrity: { alg: 'sha256', digest: createHash('sha256').update(canonical(rest)).digest('hex') },
      });
    };
    // The shown id and the id apply acts on are one: a recomputed digest does not hide the switch.
    const del = file.work.steps.find((s) => s.step.address === 'old')!;
    const other = file.work.steps.find((s) => s.step.address === 'same')!.prior!.id;
    const switched = structuredClone(file);
    switched.work.steps.find((s) => s.step.address === 'old')!.prior!.id = other;
    const error = await Plan.parse(redigest(switched)).catch((e: unknown) => e);
    expect(error).toMatchObject({ problem: 'corrupt' });
    expect((error as Error).message).toContain(`step ${file.work.steps.indexOf(del)} 'old': shows id`);
    // A shown step edited with its carried twin: named by resource.
    const shown = structuredClone(file) as typeof file & { plan: { steps: { action: string }[] } };
    shown.plan.steps[0]!.action = 'noop';
    await expect(Plan.parse(redigest(shown))).rejects.toThrow(`'${file.work.steps[0]!.step.address}': action`);
    // What a digest cannot hold: a recomputed edit of both. Given a key, apply refuses any unsigned plan.
    await expect(Plan.parse(redigest(file))).resolves.toBeInstanceOf(Plan);
    await expect(Plan.parse(redigest(file), { passphrase: PASS })).rejects.toMatchObject({ problem: 'unsigned' });
    await expect(Plan.parse(redigest(file), { signingKey: SIGNING_KEY })).rejects.toMatchObject({
      problem: 'unsigned',
    });
  });
});

describe('a saved plan with a key (HMAC-SHA-256)', () => {
  it(
    'sealed under the passphrase: every single edit is "edited or damaged", never "a different passphrase"',
    { timeout: 180_000 },
    async () => {
      const { plan } = await richPlan();
      const text = await plan.serialize({ passphrase: PASS });
      expectValidPlanFile(text);
      const file = JSON.parse(text) as Json;
      expect(at(file, ['integrity', 'alg'])).toBe('hmac-sha256');
      expect(at(file, ['integrity', 'key'])).toBe('passphrase');
      // Each load derives two scrypt keys: every leaf outside the public plan's steps (the sealed work,
      // the headers, the providers) and the leaves of two steps (all steps: the unkeyed test above).
      const paths = leaves(file).filter(
        (p) => p[0] !== 'formatVersion' && !(p[0] === 'plan' && p[1] === 'steps' && Number(p[2]) > 1),
      );
      expect(paths.filter((p) => p[0] === 'work').length).toBe(5); // the sealed value: @converge, v, n, c, t
      expect(await editsNotRefused(text, paths, 'change', { passphrase: PASS })).toEqual({});
      // The sealed work's ciphertext edited: "edited or damaged".
      // (its first character changed: to 'B' when it is an 'A' already, so the edit is never a no-op)
      const forged = edit(file, ['work', 'c'], (p, k) => {
        const c = String(p[k]);
        p[k] = `${c.startsWith('A') ? 'B' : 'A'}${c.slice(1)}`;
      });
      const error = await Plan.parse(forged, { passphrase: PASS }).catch((e: unknown) => e);
      expect((error as Error).message).toMatch(/edited or damaged/);
      expect((error as Error).message).not.toMatch(/different passphrase/);
    },
  );

  it('the passphrase: the right one loads, a wrong one is named, none is explained', async () => {
    const { plan, b } = await richPlan();
    const text = await plan.serialize({ passphrase: PASS });
    await expect(Plan.parse(text, { passphrase: 'wrong' })).rejects.toMatchObject({
      code: 'CONVERGE_STATE_PASSPHRASE',
      reason: 'wrong',
    });
    await expect(Plan.parse(text)).rejects.toMatchObject({ code: 'CONVERGE_STATE_PASSPHRASE', reason: 'missing' });
    await expect(b.apply(await Plan.parse(text, { passphrase: PASS }))).resolves.toMatchObject({ failed: [] });
  });

  it('a signing key: the right key loads and applies, a wrong key or none is refused, an unsigned plan is refused', async () => {
    const { plan, b, cloud } = await richPlan();
    const text = await plan.serialize({ signingKey: SIGNING_KEY, allowPlaintextSecrets: true });
    expectValidPlanFile(text);
    const file = JSON.parse(text) as Json;
    expect(at(file, ['integrity', 'key'])).toBe('signing-key');
    const wrong = await Plan.parse(text, { signingKey: `${SIGNING_KEY}-other` }).catch((e: unknown) => e);
    expect(wrong).toMatchObject({ problem: 'corrupt' });
    expect((wrong as Error).message).toContain('another signing key');
    const none = await Plan.parse(text).catch((e: unknown) => e);
    expect(none).toMatchObject({ problem: 'unsigned' });
    expect((none as Error).message).toMatch(
      /signed with a plan signing key, and none was given.*\n.*CONVERGE_PLAN_SIGNING_KEY/,
    );
    const unsigned = await plan.serialize({ allowPlaintextSecrets: true });
    await expect(Plan.parse(unsigned, { signingKey: SIGNING_KEY })).rejects.toMatchObject({ problem: 'unsigned' });
    expect(
      await editsNotRefused(
        text,
        leaves(file).filter((p) => p[0] !== 'formatVersion'),
        'change',
        { signingKey: SIGNING_KEY },
      ),
    ).toEqual({});
    process.env.CONVERGE_PLAN_SIGNING_KEY = SIGNING_KEY;
    try {
      const loaded = await Plan.parse(text);
      const before = cloud.objects.size;
      await expect(b.apply(loaded)).resolves.toMatchObject({ failed: [] });
      expect(cloud.objects.size).toBe(before); // fresh made, old deleted; net and cbd replaced
    } finally {
      delete process.env.CONVERGE_PLAN_SIGNING_KEY;
    }
    await expect(plan.serialize({ signingKey: 'short' })).rejects.toThrow(/at least 16 characters/);
  });

  it('with both: the work sealed by the passphrase, the MAC by the signing key; each is needed', async () => {
    const { plan } = await richPlan();
    const text = await plan.serialize({ passphrase: PASS, signingKey: SIGNING_KEY });
    expect(JSON.parse(text)).toMatchObject({ integrity: { key: 'signing-key' }, work: { '@converge': 'encrypted' } });
    await expect(Plan.parse(text, { passphrase: PASS, signingKey: SIGNING_KEY })).resolves.toBeInstanceOf(Plan);
    await expect(Plan.parse(text, { passphrase: PASS })).rejects.toMatchObject({ problem: 'unsigned' });
    await expect(Plan.parse(text, { signingKey: SIGNING_KEY })).rejects.toMatchObject({ reason: 'missing' });
  });

  it('never holds a secret in clear when sealed', async () => {
    const { cloud, a } = twoEngines();
    await a.apply(await a.plan([thing('web', { password: 'hunter2-password' })]));
    const token = [...cloud.objects.values()][0]!.outputs.token as string;
    const text = await (
      await a.plan([thing('web', { password: 'new-hunter3-password' })])
    ).serialize({
      passphrase: PASS,
      signingKey: SIGNING_KEY,
    });
    for (const secret of ['hunter2-password', 'new-hunter3-password', token, PASS, SIGNING_KEY])
      expect(text).not.toContain(secret);
  });
});

describe('messages', () => {
  it('a second apply of a plan made on an empty state says the state moved on (serial), not another lineage', async () => {
    const { a, b } = twoEngines();
    const path = join(dir(), 'plan.json');
    await (await a.plan([thing('web')])).save(path, { passphrase: PASS });
    await b.apply(await Plan.load(path, { passphrase: PASS }));
    const error = await b.apply(await Plan.load(path, { passphrase: PASS })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StalePlanError);
    expect((error as Error).message).toMatch(
      /made at state serial 0 \(an empty state\), but the state is now at serial [1-9]/,
    );
    expect((error as Error).message).not.toMatch(/lineage/);
  });

  it('the same with a FileStateStore in two engines', async () => {
    const where = join(dir(), 'state.json');
    const cloud = new TestCloud();
    const stores = [new FileStateStore(where), new FileStateStore(where)];
    const [a, b] = stores.map((state) => new Engine({ providers: [testProvider(cloud)], state }));
    try {
      const text = await (await a.plan([thing('web')])).serialize({ passphrase: PASS });
      await b.apply(await Plan.parse(text, { passphrase: PASS }));
      await expect(b.apply(await Plan.parse(text, { passphrase: PASS }))).rejects.toThrow(
        /state serial 0 \(an empty state\)/,
      );
    } finally {
      for (const s of stores) await s.close();
    }
  });

  it('declarations given to apply that differ are named', async () => {
    const { plan, decls, b } = await richPlan();
    const loaded = await Plan.parse(await plan.serialize({ passphrase: PASS }), { passphrase: PASS });
    const other = decls.map((d) => (d.name === 'web' ? thing('web', { peer: ref('net'), size: 'xl' }) : d));
    const error = await b
      .apply(loaded, { declarations: [...other.filter((d) => d.name !== 'same'), thing('extra')] })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ problem: 'declarations_mismatch' });
    expect((error as Error).message).toContain('changed: web; not in the plan: extra; missing: same');
  });
});

describe('provider settings are part of the plan', () => {
  const closers: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const c of closers.splice(0).reverse()) await c();
  });

  it('provider B: region and endpoint', async () => {
    const sim: CivoSimulator = await startCivo();
    closers.push(() => sim.close());
    const b = (o: Record<string, unknown> = {}) =>
      provb({ token: sim.token, apiEndpoint: sim.url, region: 'LON1', pollIntervalMs: 1, ...o });
    const decls = [provb.network('net', { label: 'demo' })];
    const where = new MemoryLocation();
    const plan = await new Engine({ providers: [b()], state: new MemoryStateStore(where) }).plan(decls);
    const saved = await plan.serialize({ passphrase: PASS });
    expectValidPlanFile(saved);
    expect(JSON.parse(saved).providers[0].settings).toEqual({ apiEndpoint: sim.url, region: 'LON1' });
    expect(saved).not.toContain(sim.token);
    const refused = async (p: Provider<unknown>) =>
      new Engine({ providers: [p], state: new MemoryStateStore(where) })
        .apply(await Plan.parse(saved, { passphrase: PASS }))
        .catch((e: unknown) => e);
    const region = await refused(b({ region: 'FRA1' }));
    expect(region).toMatchObject({ problem: 'providers_mismatch' });
    expect((region as Error).message).toContain("provb.region: the plan was made with 'LON1', this engine has 'FRA1'");
    const endpoint = await refused(b({ apiEndpoint: 'http://127.0.0.1:9' }));
    expect((endpoint as Error).message).toContain(
      `provb.apiEndpoint: the plan was made with '${sim.url}', this engine has 'http://127.0.0.1:9'`,
    );
    expect(sim.store.counts().networks).toBe(4); // only the seeded defaults: nothing was made
    // Another token is not a setting: the same plan applies (the simulator takes one token only: same).
    await expect(
      new Engine({ providers: [b()], state: new MemoryStateStore(where) }).apply(
        await Plan.parse(saved, { passphrase: PASS }),
      ),
    ).resolves.toMatchObject({ failed: [] });
    expect(sim.store.counts().networks).toBe(5);
  });

  it('provider C: project, region and endpoint', async () => {
    const sim: GcoreSimulator = await startGcore();
    closers.push(() => sim.close());
    const c = (o: Record<string, unknown> = {}) =>
      provc({
        apiKey: sim.apiKey,
        baseUrl: sim.baseUrl,
        cloudProjectId: SIM_PROJECT_ID,
        cloudRegionId: SIM_REGION_ID,
        pollingIntervalSeconds: 0.002,
        pollingTimeoutSeconds: 5,
        env: {},
        ...o,
      });
    const decls = [provc.cdnOriginGroup('origins', { name: 'origins', sources: [{ source: 'o.example.com' }] })];
    const where = new MemoryLocation();
    const plan = await new Engine({ providers: [c()], state: new MemoryStateStore(where) }).plan(decls);
    const saved = await plan.serialize({ passphrase: PASS });
    expect(JSON.parse(saved).providers[0].settings).toEqual({
      baseUrl: sim.baseUrl,
      cloudProjectId: SIM_PROJECT_ID,
      cloudRegionId: SIM_REGION_ID,
    });
    expect(saved).not.toContain(sim.apiKey);
    const refused = async (p: Provider<unknown>) =>
      (
        (await new Engine({ providers: [p], state: new MemoryStateStore(where) })
          .apply(await Plan.parse(saved, { passphrase: PASS }))
          .catch((e: unknown) => e)) as Error
      ).message;
    expect(await refused(c({ cloudProjectId: SIM_PROJECT_ID + 1 }))).toContain(
      `provc.cloudProjectId: the plan was made with '${SIM_PROJECT_ID}', this engine has '${SIM_PROJECT_ID + 1}'`,
    );
    expect(await refused(c({ cloudRegionId: SIM_REGION_ID + 1 }))).toContain(
      `provc.cloudRegionId: the plan was made with '${SIM_REGION_ID}', this engine has '${SIM_REGION_ID + 1}'`,
    );
    expect(await refused(c({ cloudRegionId: undefined }))).toContain(
      `provc.cloudRegionId: the plan was made with '${SIM_REGION_ID}', this engine has none`,
    );
    expect(await refused(c({ baseUrl: 'http://127.0.0.1:9' }))).toContain(
      `provc.baseUrl: the plan was made with '${sim.baseUrl}', this engine has 'http://127.0.0.1:9'`,
    );
    await expect(
      new Engine({ providers: [c({ pollingIntervalSeconds: 0.001 })], state: new MemoryStateStore(where) }).apply(
        await Plan.parse(saved, { passphrase: PASS }),
      ),
    ).resolves.toMatchObject({ failed: [] });
  });

  it('provider A: the remote', async () => {
    const [sim, other]: LxdSimulator[] = [await startLxd(), await startLxd()];
    closers.push(
      () => sim.close(),
      () => other.close(),
    );
    const configDir = dir();
    const a = (address: string, o: Record<string, unknown> = {}) => {
      const p = prova({ configDir, pollIntervalMs: 2, remotes: [{ name: 'sim', address, default: true }], ...o });
      closers.push(() => p.close());
      return p;
    };
    const decls = [prova.profile('prof', { name: 'cvt-sprof', config: { 'user.team': 'a' } })];
    const where = new MemoryLocation();
    const plan = await new Engine({ providers: [a(sim.address)], state: new MemoryStateStore(where) }).plan(decls);
    const saved = await plan.serialize({ passphrase: PASS });
    expect(JSON.parse(saved).providers[0].settings).toMatchObject({ defaultRemote: 'sim', 'remote.sim': sim.address });
    const error = await new Engine({ providers: [a(other.address)], state: new MemoryStateStore(where) })
      .apply(await Plan.parse(saved, { passphrase: PASS }))
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ problem: 'providers_mismatch' });
    expect((error as Error).message).toContain(
      `prova.remote.sim: the plan was made with '${sim.address}', this engine has '${other.address}'`,
    );
    expect(other.store.profiles.has('default/cvt-sprof')).toBe(false);
    await expect(
      new Engine({ providers: [a(sim.address)], state: new MemoryStateStore(where) }).apply(
        await Plan.parse(saved, { passphrase: PASS }),
      ),
    ).resolves.toMatchObject({ failed: [] });
  });

  it('a provider without planConfig: terraformConfig() without its secrets', async () => {
    const { defineProvider } = await import('converge');
    const base = testProvider(new TestCloud());
    const custom = (region: string) =>
      defineProvider({
        name: base.name,
        resources: [...base.resources.values()],
        terraformConfig: () => ({
          region,
          api_key: { '@converge': 'sensitive' },
          url: 'https://user:pw@api.example.test/v1',
        }),
      });
    const where = new MemoryLocation();
    const plan = await new Engine({ providers: [custom('r1')], state: new MemoryStateStore(where) }).plan([
      thing('web'),
    ]);
    const saved = await plan.serialize({ passphrase: PASS });
    expect(JSON.parse(saved).providers[0].settings).toEqual({ region: 'r1', url: 'https://api.example.test/v1' });
    expect(saved).not.toContain('pw@');
    const error = await new Engine({ providers: [custom('r2')], state: new MemoryStateStore(where) })
      .apply(await Plan.parse(saved, { passphrase: PASS }))
      .catch((e: unknown) => e);
    expect((error as Error).message).toContain("test.region: the plan was made with 'r1', this engine has 'r2'");
  });
});
