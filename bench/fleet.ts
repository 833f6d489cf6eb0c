// Fleet benchmark (converge/fleet on the real PostgreSQL, the Civo simulator at 20 ms latency, worker
// processes bundled from tests/fleet/worker-child.ts): drift checks of 1,000 stacks x 10 networks with
// 1, 2 and 4 worker processes (one run at a time each, each process warmed by ~300 checks first)
// and the scaling 4 : 1, and one worker process with 4 runs at once for reference; the connections one worker
// holds for 1,000 stacks; enqueue-to-start on an idle fleet and the queue's cost per run (runs of an
// empty stack); 4 workers applying stacks of one account limited to 600 requests a minute. Each drift
// phase also reports its CPU per check (workers, PostgreSQL and this process) and how busy the
// machine was (Linux /proc), which tells whether the CPU or the API bound the rate. Needs
// CONVERGE_TEST_PG_URL or /tmp/converge-pg-env; else empty. `npm run bench -- fleet` runs it alone.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { Fleet } from '../src/fleet/index.js';
import { startSimulator, type CivoSimulator } from '../src/providers/b/simulator/index.js';
import { pgUrl } from './pg.js';
import { bundleWorkerChild } from '../tests/fleet/helpers.js';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
const out = join(root, 'node_modules', '.cache', 'converge-bench-fleet');
const STACKS = Number(process.env.CONVERGE_BENCH_FLEET_STACKS ?? 1000);
const RESOURCES = 10;
/** Drift checks each worker process runs before the measured ones (see the drift phases). */
const WARM_CHECKS = 300;
/** Runs at once in each worker process. */
const CONCURRENCY = 4;
const BUDGET_STACKS = 8;
const BUDGET_RESOURCES = 40;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

type Ctx = { url: string; schema: string; sim: CivoSimulator; dir: string };

/** The workers' connections carry an application name of their own: the peak counts theirs, not other clients' of the database. */
const WORKER_APP = `bench-fleet-${randomBytes(4).toString('hex')}`;
function workerUrl(url: string): string {
  const u = new URL(url);
  u.searchParams.set('application_name', WORKER_APP);
  return u.toString();
}

function startWorker(cx: Ctx, env: Record<string, string> = {}): Promise<ChildProcess> {
  const child = spawn(process.execPath, [join(out, 'worker-child.mjs')], {
    cwd: root,
    env: {
      ...process.env,
      CONVERGE_TEST_PG_URL: workerUrl(cx.url),
      FLEET_SCHEMA: cx.schema,
      FLEET_SIM_URL: cx.sim.url,
      FLEET_SIM_TOKEN: cx.sim.token,
      FLEET_RESOURCES: String(RESOURCES),
      FLEET_PARALLELISM: '10',
      FLEET_CONCURRENCY: String(CONCURRENCY),
      FLEET_PRELOAD: join(out, 'stack.mjs'),
      // supervision, the sweep and heartbeats at the library's defaults (the tests run them every second)
      FLEET_DEFAULT_TIMINGS: '1',
      ...Object.fromEntries(
        Array.from({ length: BUDGET_STACKS }, (_, i) => [`FLEET_RESOURCES_b${i}`, String(BUDGET_RESOURCES)]),
      ),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    child.stdout!.once('data', () => resolve(child));
    child.once('exit', (code) => reject(new Error(`worker exited with ${code}`)));
  });
}

async function stopWorkers(children: ChildProcess[]): Promise<void> {
  await Promise.all(
    children.map(
      (c) =>
        new Promise<void>((resolve) => {
          if (c.exitCode !== null) return resolve();
          c.once('exit', () => resolve());
          c.kill('SIGTERM');
          setTimeout(() => c.kill('SIGKILL'), 15_000).unref();
        }),
    ),
  );
}

/**
 * Where a drift phase's CPU went, on Linux (/proc; elsewhere nothing): the worker processes', the
 * PostgreSQL server's (every process named postgres: the bench is its only client) and this
 * process's (the simulator, the enqueueing, the waiting), and how busy the whole machine was. Read
 * before and after a measured round; `cpuPerCheck` gives the figures per drift check.
 */
type CpuSnapshot = { workers: number; postgres: number; bench: number; busy: number; total: number };
const TICK_MS = 10; // USER_HZ is 100 on Linux
function ticksOf(pid: number | string): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(f[11]) + Number(f[12]); // utime + stime
  } catch {
    return 0;
  }
}
function cpuSnapshot(workers: readonly ChildProcess[]): CpuSnapshot | undefined {
  if (!existsSync('/proc/stat')) return undefined;
  let postgres = 0;
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      if (readFileSync(`/proc/${pid}/comm`, 'utf8').startsWith('postgres')) postgres += ticksOf(pid);
    } catch {
      // gone meanwhile
    }
  }
  const cpu = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]!.split(/\s+/).slice(1, 9).map(Number);
  const idle = cpu[3]! + cpu[4]!; // idle + iowait
  const total = cpu.reduce((a, b) => a + b, 0);
  const own = process.cpuUsage();
  return {
    workers: workers.reduce((a, w) => a + ticksOf(w.pid!), 0) * TICK_MS,
    postgres: postgres * TICK_MS,
    bench: (own.user + own.system) / 1000,
    busy: (total - idle) * TICK_MS,
    total: total * TICK_MS,
  };
}
/** ms of CPU per check between two snapshots, by side, and the machine's busy share (0-1). */
function cpuPerCheck(a: CpuSnapshot, b: CpuSnapshot, checks: number) {
  const worker = (b.workers - a.workers) / checks;
  const postgres = (b.postgres - a.postgres) / checks;
  const bench = (b.bench - a.bench) / checks;
  return { worker, postgres, all: worker + postgres + bench, busy: (b.busy - a.busy) / (b.total - a.total) };
}

/** Waits until `n` runs of `kind` queued since `since` are finished; the last one's finish time (ms since epoch). */
async function waitRuns(db: pg.Pool, schema: string, kind: string, since: Date, n: number): Promise<number> {
  for (;;) {
    const r = await db.query<{ done: string; last: Date | null }>(
      `SELECT count(*) AS done, max(finished_at) AS last FROM "${schema}".fleet_runs
       WHERE kind = $1 AND queued_at >= $2 AND status IN ('succeeded', 'failed', 'cancelled', 'expired')`,
      [kind, since],
    );
    if (Number(r.rows[0]!.done) >= n) return r.rows[0]!.last!.getTime();
    await sleep(100);
  }
}

/** Runs `fn` over `items`, `width` at once. */
async function inBatches<T>(items: readonly T[], width: number, fn: (x: T) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < items.length; i += width) await Promise.all(items.slice(i, i + width).map(fn));
}

export async function benchFleet(): Promise<Record<string, number>> {
  const url = pgUrl();
  if (!url) return {};
  // the fleet tests' worker child and stack, bundled as they bundle them
  await bundleWorkerChild(out);
  const sim = await startSimulator({ latencyMs: 0, quota: { network_count: 1_000_000 } });
  // the account's advertised limit (x-ratelimit-*, 600 a minute by default), which each run's provider
  // honours, raised until the budget phase: the drift phases measure the fleet against the API's
  // latency, not this limit (at 600 a minute, 10 one-listing drift checks a second whatever the workers)
  sim.store.rateLimitPerMinute = 1_000_000;
  process.env.FLEET_SIM_URL = sim.url;
  process.env.FLEET_SIM_TOKEN = sim.token;
  const schema = `bench_fleet_${randomBytes(4).toString('hex')}`;
  const dir = await mkdtemp(join(tmpdir(), 'converge-bench-fleet-'));
  const cx: Ctx = { url, schema, sim, dir };
  const db = new pg.Pool({ connectionString: url, max: 4 });
  const fleet = await Fleet.open({ connectionString: url, schema, poolSize: 12 });
  const results: Record<string, number> = {};
  let workers: ChildProcess[] = [];
  try {
    const stack = join(out, 'stack.mjs');
    const names = Array.from({ length: STACKS }, (_, i) => `s${i}`);
    const budget = Array.from({ length: BUDGET_STACKS }, (_, i) => `b${i}`);
    const noop = Array.from({ length: 100 }, (_, i) => `n${i}`);
    for (const n of [...names, ...budget])
      await writeFile(
        join(dir, `${n}.mjs`),
        `import { makeStack } from ${JSON.stringify(stack)};\nexport default makeStack(${JSON.stringify(n)}, ${JSON.stringify(dir)});\n`,
      );
    for (const n of noop) await writeFile(join(dir, `${n}.mjs`), 'export default { providers: [], resources: [] };\n');
    await inBatches([...names, ...noop], 20, (n) => fleet.register({ name: n, module: join(dir, `${n}.mjs`) }));
    for (const n of budget) await fleet.register({ name: n, module: join(dir, `${n}.mjs`), account: 'acme' });

    /**
     * Starts a run of `kind` for each of `stacks` (`width` at once) and waits for them all: when the
     * round began (as the database and as this process count) and when its last run finished.
     */
    const round = async (
      stacks: readonly string[],
      kind: string,
      start: (n: string) => Promise<unknown>,
      width = 50,
    ) => {
      const since = new Date();
      const t0 = Date.now();
      await inBatches(stacks, width, start);
      return { since, t0, last: await waitRuns(db, schema, kind, since, stacks.length) };
    };
    const drift = (n: string) => fleet.checkDrift(n);

    // the stacks made once (not measured), at no latency
    workers = await Promise.all([1, 2, 3, 4].map(() => startWorker(cx)));
    await round(names, 'apply', (n) => fleet.enqueue(n, 'apply'));
    await stopWorkers(workers);

    // drift checks: every stack once, with 1, 2 and 4 worker processes taking one run at a time each
    // (as an HCP Terraform agent or a Spacelift worker does), at 20 ms; then one worker process taking
    // 4 runs at once, for reference: the machine's 2 cores, not the API, bound that one
    sim.setLatency(20);
    for (const [w, runs] of [
      [1, 1],
      [2, 1],
      [4, 1],
      [1, CONCURRENCY],
    ] as const) {
      workers = await Promise.all(
        Array.from({ length: w }, () => startWorker(cx, { FLEET_CONCURRENCY: String(runs) })),
      );
      // Each worker process is warmed up before the measured checks, by about WARM_CHECKS drift checks
      // of its own: a fleet's workers run for days, and a fresh process runs its first hundreds of
      // checks at a fraction of its speed (V8 has not compiled its hot paths yet; new connections
      // plan their statements). Unwarmed, four fresh processes doing 250 checks each measured that
      // start-up, not the fleet: 36-52 checks/s against 58 warmed (400 stacks, this machine). After
      // 100 checks V8 was still optimizing 10-17 functions a second in each process (its code log),
      // a fifth of the workers' CPU in the measured round (perf): and a process of the 4-worker
      // phase, with 250 measured checks, spent more of them warming up than the 1-worker phase's
      // one process with 1,000. Every process now gets the same warm-up.
      for (let done = 0; done < WARM_CHECKS * w;) {
        const batch = names.slice(0, Math.min(STACKS, WARM_CHECKS * w - done));
        await round(batch, 'refresh-only', drift);
        done += batch.length;
      }
      let peak = 0;
      const sampling = setInterval(() => {
        void db
          .query(`SELECT count(*) AS n FROM pg_stat_activity WHERE application_name = $1`, [WORKER_APP])
          .then((r) => (peak = Math.max(peak, Number(r.rows[0].n) / w)))
          .catch(() => {});
      }, 250);
      const before = cpuSnapshot(workers);
      const { t0, last } = await round(names, 'refresh-only', drift);
      const after = cpuSnapshot(workers);
      clearInterval(sampling);
      const phase = `${w}w${runs > 1 ? `_${runs}_runs_each` : ''}`;
      results[`fleet_drift_1k_stacks_per_s_${phase}`] = STACKS / ((last - t0) / 1000);
      // what each check cost the machine, and whether the machine was the bound (busy near 1)
      if (before && after) {
        const c = cpuPerCheck(before, after, STACKS);
        results[`fleet_drift_cpu_ms_per_check_${phase}`] = c.all;
        results[`fleet_drift_machine_busy_${phase}`] = c.busy;
        if (runs === 1 && w !== 2) {
          results[`fleet_drift_worker_cpu_ms_per_check_${phase}`] = c.worker;
          results[`fleet_drift_postgres_cpu_ms_per_check_${phase}`] = c.postgres;
        }
      }
      if (w === 1 && runs > 1) results.fleet_1k_stacks_1w_connections_peak = peak;
      await stopWorkers(workers);
    }
    results.fleet_scaling_4_to_1 = results.fleet_drift_1k_stacks_per_s_4w! / results.fleet_drift_1k_stacks_per_s_1w!;
    const failed = await db.query(`SELECT count(*) AS n FROM "${schema}".fleet_runs WHERE status = 'failed'`);
    results.fleet_1k_stacks_failed_runs = Number(failed.rows[0].n);

    // an idle fleet: enqueue to start, one run at a time; then the queue's cost per run of an empty stack
    workers = [await startWorker(cx)];
    await sleep(1000);
    const starts: number[] = [];
    for (const n of noop.slice(0, 30)) {
      const id = await fleet.enqueue(n, 'plan');
      for (;;) {
        const r = await db.query<{ ms: number | null; done: boolean }>(
          `SELECT EXTRACT(EPOCH FROM started_at - queued_at) * 1000 AS ms, finished_at IS NOT NULL AS done
           FROM "${schema}".fleet_runs WHERE id = $1`,
          [id],
        );
        if (r.rows[0]!.done) {
          starts.push(Number(r.rows[0]!.ms));
          break;
        }
        await sleep(5);
      }
      await sleep(50);
    }
    results.fleet_enqueue_to_start_ms = median(starts);
    // the queue's cost per run on a running worker (warmed by WARM_CHECKS of the same runs, as the
    // drift phases warm theirs): enqueue 100 empty runs at once, until the last one finishes; the
    // median of three such rounds (one round of 100 varied by a fifth from one to the next)
    const empty = (n: string) => fleet.enqueue(n, 'plan');
    for (let done = 0; done < WARM_CHECKS; done += noop.length) await round(noop, 'plan', empty, noop.length);
    const costs: number[] = [];
    for (let r = 0; r < 3; r++) {
      const { t0, last } = await round(noop, 'plan', empty, noop.length);
      costs.push((last - t0) / noop.length);
    }
    results.fleet_queue_cost_ms_per_run = median(costs);
    await stopWorkers(workers);

    // one account limited to 600 requests a minute, 4 workers applying its stacks
    await fleet.limitAccount('acme', { requestsPerMinute: 600, provider: 'provb' });
    sim.store.rateLimitPerMinute = 600;
    sim.setRateLimit({ requestsPerSecond: 10, burst: 10 });
    workers = await Promise.all([1, 2, 3, 4].map(() => startWorker(cx)));
    sim.clearLog();
    const { since } = await round(budget, 'apply', (n) => fleet.enqueue(n, 'apply'), budget.length);
    const served = sim.requests.filter((r) => !r.throttled);
    const seconds = (served.at(-1)!.at - served[0]!.at) / 1000;
    const bad = await db.query<{ n: string }>(
      `SELECT count(*) AS n FROM "${schema}".fleet_runs WHERE queued_at >= $1 AND status <> 'succeeded'`,
      [since],
    );
    results.fleet_account_budget_failed_steps = Number(bad.rows[0]!.n);
    if (results.fleet_account_budget_failed_steps > 0) {
      // what failed, for whoever reads the run's output (the schema is dropped at the end)
      const why = await db.query<{ stack: string; status: string; error_message: string | null }>(
        `SELECT stack, status, error_message FROM "${schema}".fleet_runs WHERE queued_at >= $1 AND status <> 'succeeded'`,
        [since],
      );
      for (const r of why.rows)
        process.stderr.write(`budget run of ${r.stack} ${r.status}: ${r.error_message ?? ''}\n`);
    }
    results.fleet_account_budget_ratio = served.length / seconds / 10;
    results.fleet_account_budget_429s = sim.requests.length - served.length;
    await stopWorkers(workers);
    workers = [];
    return results;
  } finally {
    await stopWorkers(workers);
    await fleet.close();
    await db.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).catch(() => {});
    await db.query(`DROP SCHEMA IF EXISTS "${schema}_queue" CASCADE`).catch(() => {});
    await db.end();
    await sim.close();
    await rm(dir, { recursive: true, force: true });
  }
}
