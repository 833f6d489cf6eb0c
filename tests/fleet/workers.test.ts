// converge/fleet across processes on the real PostgreSQL: three worker processes (esbuild bundles,
// as tests/integration/kill.test.ts spawns) share one queue — per-stack order and no overlap, read
// from the run history's timestamps; an account's run limit (2 at once) held across the processes,
// read the same way; a running run cancelled; a worker SIGKILLed mid-apply whose
// run another worker retries (heartbeat) and finishes by crash recovery: every network made once
// (that one only in the full run, scripts/fleet-trials.sh). Each worker imports the stack module
// before it reports ready: a cold import costs seconds of CPU on a 2-core machine, the queue does not.
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type CivoSimulator } from '../../src/providers/b/simulator/index.js';
import { Fleet, type FleetEvent } from '../../src/fleet/index.js';
import { dropSchema, pgUrl, schemaName, stackFiles, waitRun, bundleWorkerChild } from './helpers.js';

const root = join(__dirname, '..', '..');
const out = join(root, 'node_modules', '.cache', 'converge-fleet', String(process.pid));
const schema = schemaName('procs');
const FULL = process.env.CONVERGE_FLEET_FULL === '1';
const WORKERS = 3;
const ACCOUNT_STACKS = ['a1', 'a2', 'a3', 'a4', 'a5', 'a6'];
const ACCOUNT_LIMIT = 2;
let sim: CivoSimulator;
let fleet: Fleet;
let dir: string;
const children = new Set<ChildProcess>();
const events: FleetEvent[] = [];

function startWorker(): Promise<ChildProcess> {
  const child = spawn(process.execPath, [join(out, 'worker-child.mjs')], {
    cwd: root,
    env: {
      ...process.env,
      CONVERGE_TEST_PG_URL: pgUrl,
      FLEET_SCHEMA: schema,
      FLEET_SIM_URL: sim.url,
      FLEET_SIM_TOKEN: sim.token,
      FLEET_RESOURCES_slow: '12',
      FLEET_RESOURCES_kill: '12',
      FLEET_PARALLELISM: '1',
      // one run at a time per worker: the runs queued at once must spread over the processes (with
      // four slots one worker, woken first and fetching again at once, could take them all)
      FLEET_CONCURRENCY: '1',
      FLEET_RESOURCES: '4',
      FLEET_ACCOUNT_CONCURRENCY: String(ACCOUNT_LIMIT),
      FLEET_PRELOAD: join(out, 'stack.mjs'),
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.add(child);
  child.on('exit', () => children.delete(child));
  return new Promise((resolve, reject) => {
    child.stdout!.once('data', () => resolve(child));
    child.once('exit', (code) => reject(new Error(`worker exited with ${code}`)));
  });
}

beforeAll(async () => {
  await bundleWorkerChild(out);
  sim = await startSimulator({ latencyMs: 20, quota: { network_count: 10_000 } });
  process.env.FLEET_SIM_URL = sim.url; // register() loads each module once, in this process
  process.env.FLEET_SIM_TOKEN = sim.token;
  const names = ['s1', 's2', 's3', 's4', 'slow', 'kill', ...ACCOUNT_STACKS];
  dir = await stackFiles(names, join(out, 'stack.mjs'));
  fleet = await Fleet.open({ connectionString: pgUrl, schema, heartbeatSeconds: 10, superviseSeconds: 1 });
  await fleet.on((e) => events.push(e));
  for (const n of names)
    await fleet.register({
      name: n,
      module: join(dir, `${n}.mjs`),
      ...(n.startsWith('a') ? { account: 'acme' } : {}),
    });
  await Promise.all(Array.from({ length: WORKERS }, startWorker));
}, 60_000);

afterAll(async () => {
  for (const c of children) c.kill('SIGKILL');
  await fleet?.close();
  await sim?.close();
  await dropSchema(schema);
  await rm(dir, { recursive: true, force: true });
  await rm(out, { recursive: true, force: true });
});

describe(`fleet workers in ${WORKERS} processes`, () => {
  it('run each stack in queue order and never two runs of one stack at once', async () => {
    const ids: string[] = [];
    for (let round = 0; round < 3; round++)
      for (const s of ['s1', 's2', 's3', 's4']) ids.push(await fleet.enqueue(s, round === 1 ? 'plan' : 'apply'));
    await Promise.all(ids.map((id) => waitRun(fleet, id, ['succeeded'], 25_000)));
    const runs = await fleet.runs({ limit: 1000 });
    for (const s of ['s1', 's2', 's3', 's4']) {
      const mine = runs.filter((r) => r.stack === s).sort((a, b) => a.queuedAt.localeCompare(b.queuedAt));
      expect(mine).toHaveLength(3);
      for (let i = 1; i < mine.length; i++) expect(mine[i]!.startedAt! >= mine[i - 1]!.finishedAt!).toBe(true);
    }
    expect(new Set(runs.map((r) => r.worker)).size).toBeGreaterThan(1);
    expect(sim.store.networks.size).toBeGreaterThanOrEqual(4 * 3);
  }, 60_000);

  it("holds an account's runs to its limit across the worker processes", async () => {
    const ids = await Promise.all(ACCOUNT_STACKS.map((s) => fleet.enqueue(s, 'apply')));
    const runs = await Promise.all(ids.map((id) => waitRun(fleet, id, ['succeeded'], 25_000)));
    // the most runs of the account running at one moment, from the history's start and finish times
    const edges = runs.flatMap((r) => [
      { at: r.startedAt!, d: 1 },
      { at: r.finishedAt!, d: -1 },
    ]);
    edges.sort((a, b) => a.at.localeCompare(b.at) || a.d - b.d);
    let now = 0;
    let most = 0;
    for (const e of edges) most = Math.max(most, (now += e.d));
    expect(most).toBe(ACCOUNT_LIMIT);
    expect(new Set(runs.map((r) => r.worker)).size).toBeGreaterThan(1);
  });

  it('cancels a running run through the engine signal', async () => {
    const id = await fleet.enqueue('slow', 'apply');
    await waitRun(fleet, id, ['running']);
    await new Promise((r) => setTimeout(r, 300));
    expect(await fleet.cancel(id)).toBe('running');
    expect((await waitRun(fleet, id, ['cancelled', 'succeeded'])).status).toBe('cancelled');
  });

  // waits out pg-boss's 10 s minimum heartbeat: in scripts/fleet-trials.sh (CONVERGE_FLEET_FULL=1), not in npm test
  it.runIf(FULL)(
    'retries the run of a SIGKILLed worker on another, which finishes it by crash recovery',
    async () => {
      const id = await fleet.enqueue('kill', 'apply');
      const run = await waitRun(fleet, id, ['running']);
      await new Promise((r) => setTimeout(r, 400));
      const pid = Number(run.worker!.split(':')[1]);
      const victim = [...children].find((c) => c.pid === pid)!;
      expect(victim).toBeDefined();
      victim.kill('SIGKILL');
      const done = await waitRun(fleet, id, ['succeeded', 'failed'], 40_000);
      expect(done.status).toBe('succeeded');
      expect(done.attempts).toBeGreaterThanOrEqual(2);
      expect(done.worker).not.toContain(`:${pid}:`);
      const labels = [...sim.store.networks.values()].map((n) => String(n.label)).filter((l) => l.startsWith('kill-'));
      expect(labels.sort()).toEqual([...new Set(labels)].sort());
      expect(labels).toHaveLength(12);
      const check = await waitRun(fleet, await fleet.enqueue('kill', 'plan'), ['succeeded']);
      expect(check.hasSavedPlan).toBe(false);
    },
    60_000,
  );
});
