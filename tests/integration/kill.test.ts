// Crash safety for every action, without a person in the loop: a child process applies a scenario
// (create, in-place update, delete-first replacement, create-first replacement, delete, a mixed
// plan) of a stack holding every Civo type against the Civo simulator living in this process, with
// the file or the PostgreSQL store and 10-20 % injected faults, and is SIGKILLed at a seeded point:
// right after the simulator handled its n-th changing request (a POST, PUT or DELETE whose answer is
// never read: a create that made its object and was never told), or after its n-th engine event. Then this process recovers on its own:
// plan+apply at most twice, then a plan with no changes. Checked per trial: exactly one object per
// declaration of each type in the simulator, every one recorded (a census of the simulator against
// the state), nothing pending or deposed, no trial hung (a per-trial limit), and no interrupted
// create left undecided ("could not be checked": counted per type, and 0 is required of each).
// A torn journal tail: the child kills itself inside the write of a create's pending record (the
// record as first written, or as rewritten with what existed before the request); the simulator's
// log must show that no create request for that resource was sent, and recovery converges.
//
// CONVERGE_KILL_TRIALS (default 6: every scenario once, the stores taken in turn), CONVERGE_KILL_TEARS (default 2),
// CONVERGE_KILL_SEED, CONVERGE_KILL_CONCURRENCY (default 4), CONVERGE_KILL_ONLY=3,17 (those trials
// only, as numbered in a failure); scripts/kill-trials.sh runs the full count.
import { spawn } from 'node:child_process';
import { appendFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleForNode } from '../helpers/node-bundle.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  Engine,
  FileStateStore,
  PostgresStateStore,
  type ResourceDecl,
  type State,
  type StateStore,
} from '../../src/index.js';
import { provb } from '../../src/providers/b/index.js';
import { startSimulator, type CivoSimulator } from '../../src/providers/b/simulator/index.js';
import type { RequestLogEntry } from '../../src/kit/sim/router.js';
import { seededRandom } from '../../src/kit/sim/faults.js';
import { civoTypes, scenarios, shortName, stacksOf, type Scenario } from './kill/stacks.js';
import { crashPgUrl, dropPgStack } from './crash/pg-env.js';

const env = process.env;
const TRIALS = Number(env.CONVERGE_KILL_TRIALS ?? 6);
const TEARS = Number(env.CONVERGE_KILL_TEARS ?? 2);
const SEED = Number(env.CONVERGE_KILL_SEED ?? 20261126);
const CONCURRENCY = Number(env.CONVERGE_KILL_CONCURRENCY ?? 4);
/** No kills: prints how many requests, changes and events each scenario's apply makes (to set SPAN). */
const CALIBRATE = env.CONVERGE_KILL_CALIBRATE === '1';
const ONLY = env.CONVERGE_KILL_ONLY ? new Set(env.CONVERGE_KILL_ONLY.split(',').map(Number)) : undefined;
/**
 * A trial that takes longer has hung (a stuck lock, a wait that never ends): it fails. A trial takes
 * a few seconds; the margin is for a machine busy with other work.
 */
const TRIAL_LIMIT_MS = Number(env.CONVERGE_KILL_TRIAL_LIMIT_MS ?? 120_000);
const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');
// Per process: two runs at once (a full run beside the suite) must not overwrite each other's bundle.
const childDir = join(root, 'node_modules', '.cache', 'converge-kill', String(process.pid));
const childJs = join(childDir, 'child.mjs');
const pgUrl = crashPgUrl();

/**
 * How many changing requests and engine events the child's apply makes in each scenario (measured
 * with CONVERGE_KILL_CALIBRATE=1: no kill, faults on): kill points are drawn below them, so nearly
 * every trial is killed mid-apply.
 */
const SPAN: Record<Scenario, { changes: number; events: number }> = {
  create: { changes: 32, events: 71 },
  update: { changes: 33, events: 85 },
  replace: { changes: 62, events: 109 },
  'replace-cbd': { changes: 59, events: 112 },
  delete: { changes: 27, events: 86 },
  mixed: { changes: 31, events: 83 },
};

/** Quick status transitions: the kill window stays open through every wait, and a trial stays short. */
const transitions = {
  instance: 15,
  cluster: 20,
  pool: 15,
  database: 15,
  volume: 10,
  ip: 10,
  objectStore: 10,
  credential: 10,
};

type Store = 'file' | 'pg';
type Trial = {
  readonly n: number;
  readonly scenario: Scenario;
  readonly store: Store;
  readonly faultRate: number;
  /**
   * Killed right after the simulator handled the child's n-th request that changes something (a
   * POST, PUT or DELETE: its answer is never read), or after the child's n-th engine event.
   */
  readonly kill: { readonly after: 'change' | 'event'; readonly n: number };
};
type Tear = { readonly n: number; readonly mode: 'mark' | 'note'; readonly type: string };
type Outcome = ChildExit & { readonly applies: number };

beforeAll(async () => {
  // One bundle of the child (tests/helpers/node-bundle.ts): a process starts in a fraction of
  // tsx's time. Split, so that a child on the file store does not load the PostgreSQL store.
  await bundleForNode([join(here, 'kill', 'child.ts')], childDir);
}, 60_000);
afterAll(() => rm(childDir, { recursive: true, force: true }));

const stackName = (label: string) => `kill-${process.pid}-${label}`;

function storeOf(store: Store, dir: string, label: string): StateStore {
  return store === 'pg'
    ? new PostgresStateStore({ connectionString: pgUrl!, stack: stackName(label) })
    : new FileStateStore(join(dir, 'state.json'));
}

function engineOf(sim: CivoSimulator, state: StateStore): Engine {
  return new Engine({
    providers: [provb({ token: sim.token, apiEndpoint: sim.url, region: 'LON1', pollIntervalMs: 5 })],
    state,
    parallelism: 4,
    retry: { retries: 8, minTimeoutMs: 1, maxTimeoutMs: 5 },
  });
}

/**
 * The objects of each type the simulator holds, by the id the state records them under; the
 * region's default networks and firewalls, and objects made by someone else (`foreign`), left out.
 */
function census(sim: CivoSimulator, foreign: ReadonlySet<string>): Record<string, string[]> {
  const s = sim.store;
  const ids = (m: ReadonlyMap<string, unknown>) => [...m.keys()].filter((id) => !foreign.has(id));
  const made = new Set(s.madeFirewalls.values());
  return {
    'provb:index/sshKey:SshKey': ids(s.sshkeys),
    'provb:index/network:Network': [...s.networks.values()].filter((n) => n.default !== true).map((n) => n.id),
    'provb:index/firewall:Firewall': [...s.firewalls.values()]
      .filter((f) => f.default !== true && !made.has(f.id))
      .map((f) => f.id),
    'provb:index/reservedIp:ReservedIp': ids(s.ips),
    'provb:index/volume:Volume': ids(s.volumes),
    'provb:index/instance:Instance': ids(s.instances),
    'provb:index/volumeAttachment:VolumeAttachment': [...s.volumes.values()]
      .filter((v) => v.instance_id)
      .map((v) => `${v.instance_id}:${v.id}`),
    'provb:index/instanceReservedIpAssignment:InstanceReservedIpAssignment': [...s.ips.values()]
      .filter((ip) => ip.assigned_to?.id)
      .map((ip) => `${ip.id}:${ip.assigned_to.id}`),
    'provb:index/dnsDomainName:DnsDomainName': ids(s.domains),
    'provb:index/dnsDomainRecord:DnsDomainRecord': [...s.records.values()].map((r) => `${r.domain_id}:${r.id}`),
    'provb:index/loadBalancer:LoadBalancer': ids(s.loadbalancers),
    'provb:index/database:Database': ids(s.databases),
    'provb:index/objectStoreCredential:ObjectStoreCredential': ids(s.credentials),
    'provb:index/objectStore:ObjectStore': ids(s.objectStores),
    'provb:index/kubernetesCluster:KubernetesCluster': ids(s.clusters),
    // A cluster's own pool ('main') is the cluster's; the rest are node pools.
    'provb:index/kubernetesNodePool:KubernetesNodePool': [...s.clusters.values()].flatMap((c) =>
      (c.pools ?? []).filter((p: { id: string }) => p.id !== 'main').map((p: { id: string }) => `${c.id}:${p.id}`),
    ),
  };
}

/** Someone else's reserved IPs, named as the stack's are (names need not be unique): never to be adopted. */
async function makeForeign(sim: CivoSimulator, decls: readonly ResourceDecl[]): Promise<Set<string>> {
  const ids = new Set<string>();
  for (const d of decls.filter((x) => x.type === 'provb:index/reservedIp:ReservedIp')) {
    const res = await fetch(`${sim.url}/v2/ips?region=LON1`, {
      method: 'POST',
      headers: { authorization: `bearer ${sim.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: d.inputs.name }),
    });
    ids.add(((await res.json()) as { id: string }).id);
  }
  return ids;
}

/** Checks the end state: nothing pending or deposed, exactly one object per declaration, each recorded. */
function checkConverged(
  what: string,
  sim: CivoSimulator,
  state: State,
  after: readonly ResourceDecl[],
  foreign: ReadonlySet<string>,
) {
  expect(state.pending, `${what}: pending`).toEqual({});
  expect(state.deposed, `${what}: deposed`).toEqual({});
  const remote = census(sim, foreign);
  for (const type of civoTypes) {
    const declared = after.filter((d) => d.type === type).length;
    const recorded = Object.values(state.resources)
      .filter((r) => r.type === type)
      .map((r) => r.id)
      .sort();
    const objects = [...(remote[type] ?? [])].sort();
    expect(objects.length, `${what}: ${shortName(type)} objects in the simulator (${objects.join(', ')})`).toBe(
      declared,
    );
    expect(recorded, `${what}: ${shortName(type)} recorded`).toEqual(objects);
  }
}

/** Plans and applies until converged (at most twice), then a plan with no changes; returns how many applies it took. The plans' warnings go to `warnings`. */
async function recover(
  what: string,
  engine: Engine,
  after: readonly ResourceDecl[],
  warnings: string[],
): Promise<number> {
  let applies = 0;
  for (; applies < 2; applies++) {
    const plan = await engine.plan(after);
    warnings.push(...plan.warnings);
    if (!plan.hasChanges) break;
    const result = await engine.apply(plan);
    warnings.push(...result.failed.map((f) => `apply failed: ${f.address}: ${f.error.message}`));
  }
  const final = await engine.plan(after);
  warnings.push(...final.warnings);
  expect(
    final.hasChanges,
    `${what}: not converged after ${applies} recovery applies: ${JSON.stringify(final.steps.filter((s) => s.action !== 'noop').map((s) => `${s.action} ${s.address}`))}; warnings: ${warnings.join(' | ')}`,
  ).toBe(false);
  return applies;
}

type ChildExit = {
  readonly killed: boolean;
  /** The request the simulator had just handled when the child was killed (its answer never read). */
  readonly lastRequest?: string;
  readonly hung: boolean;
  readonly code: number | null;
  readonly signal: string | null;
  readonly out: string;
  readonly err: string;
  readonly requests: number;
  /** Requests other than GETs. */
  readonly changes: number;
  readonly events: number;
};

/** Starts the child; resolves when it exits (killed at `kill`, by itself, done, or killed as hung). */
function runChild(sim: CivoSimulator, vars: Record<string, string>, kill?: Trial['kill']): Promise<ChildExit> {
  const child = spawn(process.execPath, [childJs], {
    cwd: root,
    env: {
      ...env,
      KILL_URL: sim.url,
      KILL_TOKEN: sim.token,
      ...(pgUrl ? { CONVERGE_TEST_PG_URL: pgUrl } : {}),
      ...vars,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let killed = false;
  let hung = false;
  let lastRequest: string | undefined;
  let events = 0;
  let changes = 0;
  let out = '';
  let err = '';
  const log = sim.requests as RequestLogEntry[];
  const first = log.length;
  const push = log.push;
  const killNow = () => {
    if (killed || child.exitCode !== null) return;
    killed = true;
    child.kill('SIGKILL');
  };
  // The simulator logs a request after handling it, before answering: a kill here loses the answer.
  log.push = function (...entries: RequestLogEntry[]) {
    const r = push.apply(this, entries);
    for (const e of entries) if (e.method !== 'GET') changes++;
    if (kill?.after === 'change' && !killed && changes >= kill.n) {
      const e = entries[entries.length - 1]!;
      lastRequest = `${e.method} ${e.route ?? e.path}${e.fault ? ` (fault ${e.fault})` : ''}`;
      killNow();
    }
    return r;
  };
  const limit = setTimeout(() => {
    hung = true;
    child.kill('SIGKILL');
  }, TRIAL_LIMIT_MS);
  child.stderr.on('data', (d) => (err += d));
  child.stdout.on('data', (d: Buffer) => {
    const text = d.toString();
    out += text;
    events += (text.match(/^event /gm) ?? []).length;
    if (kill?.after === 'event' && events >= kill.n) killNow();
  });
  return new Promise((resolve) =>
    child.on('exit', (code, signal) => {
      clearTimeout(limit);
      delete (log as { push?: unknown }).push;
      resolve({ killed, lastRequest, hung, code, signal, out, err, requests: log.length - first, changes, events });
    }),
  );
}

/** Runs `fn` with a time limit: past it the trial has hung. */
async function limited<T>(what: string, fn: () => Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      fn(),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`${what}: hung (over ${TRIAL_LIMIT_MS} ms)`)), TRIAL_LIMIT_MS);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

async function runTrial(t: Trial, warnings: string[]): Promise<Outcome> {
  const what = `trial ${t.n} ${JSON.stringify(t)} (seed ${SEED})`;
  const dir = await mkdtemp(join(tmpdir(), 'converge-kill-'));
  const sim = await startSimulator({ latencyMs: 1, seed: SEED + t.n, transitions });
  const label = String(t.n);
  const [before, after] = stacksOf(t.scenario);
  try {
    const foreign = await makeForeign(sim, after);
    const setup = storeOf(t.store, dir, label);
    try {
      if (before.length) {
        const e = engineOf(sim, setup);
        const r = await e.apply(await e.plan(before));
        expect(r.failed, `${what}: setup`).toEqual([]);
      }
    } finally {
      await setup.close();
    }
    sim.setFaults({ rate: t.faultRate });
    const child = await runChild(
      sim,
      {
        KILL_STORE: t.store,
        KILL_STATE: join(dir, 'state.json'),
        KILL_STACK: stackName(label),
        KILL_SCENARIO: t.scenario,
      },
      CALIBRATE ? undefined : t.kill,
    );
    if (child.hung) throw new Error(`${what}: the child hung (over ${TRIAL_LIMIT_MS} ms)`);
    if (!child.killed) expect(child.code, `${what}: child failed: ${child.err}`).toBe(0);

    // Recovery: this process plans and applies until nothing is left to do (faults off).
    sim.setFaults(undefined);
    const store = storeOf(t.store, dir, label);
    try {
      const applies = await recover(what, engineOf(sim, store), after, warnings);
      checkConverged(what, sim, await store.read(), after, foreign);
      return { ...child, applies };
    } finally {
      await store.close();
    }
  } finally {
    await sim.close();
    await rm(dir, { recursive: true, force: true });
    if (t.store === 'pg') await dropPgStack(pgUrl!, stackName(label));
  }
}

/** The create requests (POST or PUT) after `from` that carry the key of a create of `inputs` (a name, a label, an id) in their path or body. */
function createRequests(sim: CivoSimulator, from: number, inputs: Record<string, unknown>): RequestLogEntry[] {
  const keys = ['name', 'label', 'volumeId', 'reservedIpId', 'clusterId']
    .map((k) => inputs[k])
    .filter((v): v is string => typeof v === 'string');
  return sim.requests
    .slice(from)
    .filter((r) => r.method === 'POST' || r.method === 'PUT')
    .filter((r) => keys.some((k) => r.path.includes(k) || JSON.stringify(r.body ?? '').includes(`"${k}"`)));
}

async function runTear(t: Tear, warnings: string[]): Promise<{ torn: string }> {
  const what = `tear ${t.n} ${JSON.stringify(t)} (seed ${SEED})`;
  const dir = await mkdtemp(join(tmpdir(), 'converge-kill-'));
  const sim = await startSimulator({ latencyMs: 1, seed: SEED + t.n, transitions });
  const [, after] = stacksOf('create');
  try {
    const foreign = await makeForeign(sim, after);
    const first = sim.requests.length;
    const child = await runChild(sim, {
      KILL_STORE: 'file',
      KILL_STATE: join(dir, 'state.json'),
      KILL_SCENARIO: 'create',
      KILL_TEAR: t.mode,
      KILL_TEAR_TYPE: t.type,
    });
    expect(child.hung, `${what}: the child hung`).toBe(false);
    expect(child.signal, `${what}: the child killed itself inside the write (${child.err})`).toBe('SIGKILL');
    const line = /^torn (.+)$/m.exec(child.out)?.[1];
    expect(line, `${what}: a record was torn`).toBeDefined();
    const torn = JSON.parse(line!) as { name: string; inputs: Record<string, unknown> };
    expect(createRequests(sim, first, torn.inputs), `${what}: create requests for ${torn.name}`).toEqual([]);

    const store = new FileStateStore(join(dir, 'state.json'));
    try {
      const recovering = sim.requests.length;
      await recover(what, engineOf(sim, store), after, warnings);
      expect(warnings.join('\n'), `${what}: the torn tail is reported`).toMatch(
        /ends in \d+ bytes of an unfinished write/,
      );
      if (t.mode === 'note')
        expect(warnings, `${what}: the record without its note is dropped`).toContainEqual(
          `${torn.name}: an interrupted create never sent its request; its pending record was dropped.`,
        );
      // The same search finds the create that recovery sends: the check above can see one.
      expect(
        createRequests(sim, recovering, torn.inputs).length,
        `${what}: recovery's create of ${torn.name}`,
      ).toBeGreaterThan(0);
      checkConverged(what, sim, await store.read(), after, foreign);
      return { torn: torn.name };
    } finally {
      await store.close();
    }
  } finally {
    await sim.close();
    await rm(dir, { recursive: true, force: true });
  }
}

function trials(): Trial[] {
  const random = seededRandom(SEED);
  const stores: Store[] = pgUrl ? ['file', 'pg'] : ['file'];
  return Array.from({ length: TRIALS }, (_, n) => {
    const scenario = scenarios[n % scenarios.length]!;
    const after = random() < 0.5 ? 'change' : 'event';
    return {
      n,
      scenario,
      // the stores in turn, and each round of scenarios starts on the other store: any count covers both
      store: stores[(n + Math.floor(n / scenarios.length)) % stores.length]!,
      faultRate: Math.round((0.1 + random() * 0.1) * 100) / 100,
      kill: { after, n: 1 + Math.floor(random() * SPAN[scenario][after === 'change' ? 'changes' : 'events']) },
    };
  });
}

/** Tear trials: each type that notes what existed before its create, both kinds of record, in turn. */
function tears(): Tear[] {
  const noting = civoTypes.filter((t) => t !== 'provb:index/instance:Instance');
  return Array.from({ length: TEARS }, (_, n) => ({
    n,
    mode: n % 2 === 0 ? 'note' : 'mark',
    type: noting[(Math.floor(n / 2) * 7 + (n % 2) * 3) % noting.length]!,
  }));
}

type Result<J, R> = { job: J; result?: R; error?: string; warnings: string[]; ms: number };

/** Runs `jobs` CONCURRENCY at a time, each within the time limit; a failure is kept with its job (and the warnings seen), not thrown. */
async function pool<J extends { n: number }, R>(
  jobs: readonly J[],
  run: (j: J, warnings: string[]) => Promise<R>,
): Promise<Result<J, R>[]> {
  const results: Result<J, R>[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < jobs.length) {
        const job = jobs[next++]!;
        const start = performance.now();
        const warnings: string[] = [];
        let r: Result<J, R>;
        try {
          r = { job, result: await limited(JSON.stringify(job), () => run(job, warnings)), warnings, ms: 0 };
        } catch (e) {
          r = { job, error: (e as Error).message, warnings, ms: 0 };
        }
        r.ms = performance.now() - start;
        results.push(r);
        if (env.CONVERGE_KILL_LOG)
          await appendFile(
            env.CONVERGE_KILL_LOG,
            `${new Date().toISOString()} ${r.error ? 'FAILED' : 'ok'} ${JSON.stringify(job)} ${(r.ms / 1000).toFixed(1)} s${r.error ? `: ${r.error}` : ''}\n`,
          );
      }
    }),
  );
  return results.sort((a, b) => a.job.n - b.job.n);
}

type Counts = { cannotTell: number; neverSent: number; adopted: number; none: number };

/** Per type, what recovery decided about interrupted creates: nobody could tell, never sent, adopted, made nothing. */
function perType(warnings: readonly string[]): Record<string, Counts> {
  const counts: Record<string, Counts> = Object.fromEntries(
    civoTypes.map((t) => [t, { cannotTell: 0, neverSent: 0, adopted: 0, none: 0 }]),
  );
  for (const w of warnings) {
    const cannot = /of a (\S+) (?:could not|cannot) be checked/.exec(w);
    if (cannot) {
      (counts[cannot[1]!] ??= { cannotTell: 0, neverSent: 0, adopted: 0, none: 0 }).cannotTell++;
      continue;
    }
    const name = /^(\S+): an interrupted create/.exec(w)?.[1];
    const c = name ? counts[typeByName.get(name) ?? ''] : undefined;
    if (!c) continue;
    if (/never sent its request/.test(w)) c.neverSent++;
    else if (/had made \S+; it was adopted/.test(w)) c.adopted++;
    else if (/left no object/.test(w)) c.none++;
  }
  return counts;
}
/** The type of each resource name of the stacks (a name has one type in every scenario). */
const typeByName = new Map(
  scenarios.flatMap((s) =>
    stacksOf(s)
      .flat()
      .map((d) => [d.name, d.type] as const),
  ),
);

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

describe('crash safety for every action, on every Civo type', () => {
  it(
    `converges by itself, loses nothing and makes nothing twice when the applying process is killed (${TRIALS} trials)`,
    async () => {
      if (!pgUrl && env.CI === 'true')
        throw new Error(
          'CONVERGE_TEST_PG_URL is not set: the PostgreSQL half of the kill test cannot run in CI without it',
        );
      const started = performance.now();
      const results = await pool(
        trials().filter((t) => !ONLY || ONLY.has(t.n)),
        runTrial,
      );
      const failures = results.filter((r) => r.error);
      const counts = perType(results.flatMap((r) => r.warnings));
      const killed = results.filter((r) => r.result?.killed);
      const afterChange = killed.filter((r) => r.result!.lastRequest).length;
      const kindOf = (f: Result<Trial, Outcome>) =>
        /hung/.test(f.error!)
          ? 'hung'
          : /objects in the simulator/.test(f.error!)
            ? 'made twice or lost'
            : /recorded|pending|deposed/.test(f.error!)
              ? 'not recorded, pending or deposed'
              : /not converged/.test(f.error!)
                ? 'not converged in 2 applies'
                : 'other';
      const lines = [
        `kill test: ${results.length} trials in ${seconds(performance.now() - started)} (seed ${SEED}, concurrency ${CONCURRENCY}, stores ${pgUrl ? 'file+pg' : 'file only'}), ${killed.length} killed mid-apply (${afterChange} right after a POST, PUT or DELETE was handled, its answer lost), ${failures.length} failed`,
        ...scenarios.map((s) => {
          const of = results.filter((r) => r.job.scenario === s);
          const applies = of.filter((r) => r.result).map((r) => r.result!.applies);
          const whole = of.filter((r) => r.result && !r.result.killed).map((r) => r.result!);
          const range = (f: (o: Outcome) => number) => `${Math.min(...whole.map(f))}-${Math.max(...whole.map(f))}`;
          return (
            `  ${s.padEnd(12)} ${of.length} trials (file ${of.filter((r) => r.job.store === 'file').length}, pg ${of.filter((r) => r.job.store === 'pg').length}), ` +
            `${of.filter((r) => r.result?.killed).length} killed, ${of.filter((r) => r.error).length} failed, recovery applies 0/1/2: ` +
            `${applies.filter((a) => a === 0).length}/${applies.filter((a) => a === 1).length}/${applies.filter((a) => a === 2).length}, slowest ${seconds(Math.max(0, ...of.map((r) => r.ms)))}` +
            (whole.length
              ? `; not killed: ${range((o) => o.requests)} requests (${range((o) => o.changes)} changes), ${range((o) => o.events)} events`
              : '')
          );
        }),
        ...civoTypes.map((t) => {
          const c = counts[t]!;
          return `  ${shortName(t).padEnd(29)} cannot tell ${c.cannotTell}, never sent ${c.neverSent}, adopted ${c.adopted}, made nothing ${c.none}`;
        }),
        `  totals: cannot tell ${Object.values(counts).reduce((n, c) => n + c.cannotTell, 0)}; failures by kind ${JSON.stringify(Object.fromEntries(['made twice or lost', 'not recorded, pending or deposed', 'not converged in 2 applies', 'hung', 'other'].map((k) => [k, failures.filter((f) => kindOf(f) === k).length])))}`,
        ...failures.map((f) => `  FAILED trial ${f.job.n} ${JSON.stringify(f.job)}: ${f.error}`),
      ];
      console.log(lines.join('\n'));
      expect(failures.map((f) => `trial ${f.job.n}: ${f.error}`)).toEqual([]);
      for (const t of Object.keys(counts)) expect(counts[t]!.cannotTell, `'cannot tell' outcomes for ${t}`).toBe(0);
      if (!ONLY && !CALIBRATE && TRIALS >= scenarios.length)
        for (const s of scenarios)
          expect(
            results.filter((r) => r.job.scenario === s && r.result?.killed).length,
            `kills during ${s}`,
          ).toBeGreaterThan(0);
    },
    Math.max(600_000, (TRIALS / CONCURRENCY) * 60_000),
  );

  it(
    `a torn journal tail proves the create was never sent (${TEARS} tears, file store)`,
    async () => {
      const results = await pool(tears(), runTear);
      const failures = results.filter((r) => r.error);
      console.log(
        [
          `torn tails: ${results.length} trials, ${failures.length} failed`,
          ...results.map(
            (r) =>
              `  ${r.job.mode.padEnd(4)} ${shortName(r.job.type).padEnd(29)} ${r.result ? `tore ${r.result.torn}'s record: no request sent, converged` : `FAILED ${r.error}`}`,
          ),
        ].join('\n'),
      );
      expect(failures.map((f) => `tear ${f.job.n} ${JSON.stringify(f.job)}: ${f.error}`)).toEqual([]);
    },
    Math.max(300_000, (TEARS / CONCURRENCY) * 60_000),
  );
});
