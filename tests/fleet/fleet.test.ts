// converge/fleet in one process on the real PostgreSQL: registration and bad input, plan + approve
// (and a stale plan refused), per-stack order, pause and resume of a stack and of the fleet, cancel
// of a queued run, a failed run holding its stack's queue until resume, expiry of queued runs after
// the configured age, drift found (onDrift 'plan': recorded, an event, a plan queued and stored), the
// drift schedule skipping a busy stack (recorded) and never queuing twice, an account's budget, and
// its run limit held at claim time (a run over it waits, an event).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { writeFile, rm } from 'node:fs/promises';
import pg from 'pg';
import { startSimulator, type CivoSimulator } from '../../src/providers/b/simulator/index.js';
import {
  Fleet,
  NotApprovableError,
  ScheduleError,
  StackModuleError,
  UnknownRunError,
  UnknownStackError,
  type FleetEvent,
} from '../../src/fleet/index.js';
import { dropSchema, pgUrl, schemaName, stackFiles, waitRun } from './helpers.js';

const schema = schemaName('unit');
let sim: CivoSimulator;
let fleet: Fleet;
let dir: string;
const stop = new AbortController();
let working: Promise<void>;
const events: FleetEvent[] = [];
const MAX_AGE_MS = 60_000;
const sleep = (ms: number) => new Promise((res) => setTimeout(res, ms));
/** Waits until `pred` holds for some event (or fails after `limitMs`). */
async function waitEvent(pred: (e: FleetEvent) => boolean, limitMs = 10_000): Promise<FleetEvent> {
  const end = Date.now() + limitMs;
  for (;;) {
    const e = events.find(pred);
    if (e) return e;
    if (Date.now() > end) throw new Error('no such event');
    await sleep(25);
  }
}

beforeAll(async () => {
  sim = await startSimulator({ latencyMs: 5, quota: { network_count: 10_000 } });
  process.env.FLEET_SIM_URL = sim.url;
  process.env.FLEET_SIM_TOKEN = sim.token;
  const names = ['a', 'b', 'c', 'bad', 'd', 'e', 'h', 'p1', 'p2', 'acct1', 'acct2'];
  dir = await stackFiles(names);
  fleet = await Fleet.open({
    connectionString: pgUrl,
    schema,
    superviseSeconds: 1,
    heartbeatSeconds: 10,
    poolSize: 12,
    queuedMaxAgeMs: MAX_AGE_MS,
  });
  await fleet.on((e) => events.push(e));
  for (const n of names)
    await fleet.register({
      name: n,
      module: join(dir, `${n}.ts`),
      ...(n === 'd' ? { onDrift: 'plan' as const } : {}),
      ...(n.startsWith('acct') ? { account: 'civo-test' } : {}),
    });
  working = fleet.work({ concurrency: 4, stopSignal: stop.signal, sweepIntervalMs: 500 });
});

afterAll(async () => {
  stop.abort();
  await working?.catch(() => {});
  await fleet?.close();
  await sim?.close();
  await dropSchema(schema);
  await rm(dir, { recursive: true, force: true });
});

describe('fleet', () => {
  it('refuses an unknown stack, a module that does not load, a bad cron, an unknown run, and queues nothing', async () => {
    await expect(fleet.enqueue('nope', 'plan')).rejects.toBeInstanceOf(UnknownStackError);
    await expect(fleet.checkDrift('nope')).rejects.toBeInstanceOf(UnknownStackError);
    await expect(fleet.register({ name: 'x', module: join(dir, 'missing.ts') })).rejects.toBeInstanceOf(
      StackModuleError,
    );
    const e = await fleet
      .register({ name: 'a', module: join(dir, 'a.ts'), driftCron: 'every tuesday' })
      .catch((x) => x);
    expect(e).toBeInstanceOf(ScheduleError);
    expect(e.code).toBe('CONVERGE_FLEET_SCHEDULE');
    await expect(fleet.run('00000000-0000-0000-0000-000000000000')).rejects.toBeInstanceOf(UnknownRunError);
    await expect(fleet.approve('not-a-run')).rejects.toBeInstanceOf(UnknownRunError);
    await expect(fleet.limitAccount('civo-test', { requestsPerMinute: 0 })).rejects.toThrow(/requestsPerMinute/);
    expect((await fleet.status()).stacks.map((s) => s.name)).toEqual([
      'a',
      'acct1',
      'acct2',
      'b',
      'bad',
      'c',
      'd',
      'e',
      'h',
      'p1',
      'p2',
    ]);
    expect(await fleet.runs()).toEqual([]);
  });

  it('plans, approves exactly that plan, and refuses a plan whose state moved on as stale', async () => {
    const p1 = await fleet.enqueue('a', 'plan');
    const plan = await waitRun(fleet, p1, ['succeeded']);
    expect(plan.summary).toMatchObject({ create: 3 });
    expect(plan.hasSavedPlan).toBe(true);
    const p2 = await fleet.enqueue('a', 'plan');
    await waitRun(fleet, p2, ['succeeded']);
    const apply = await waitRun(fleet, await fleet.approve(p1), ['succeeded', 'failed']);
    expect(apply.status).toBe('succeeded');
    expect(apply.planRunId).toBe(p1);
    const stale = await waitRun(fleet, await fleet.approve(p2), ['failed']);
    expect(stale.errorCode).toBe('CONVERGE_STALE_PLAN');
    await expect(fleet.approve(apply.id)).rejects.toMatchObject({ reason: 'not_a_plan' });
    await expect(fleet.approve(apply.id)).rejects.toBeInstanceOf(NotApprovableError);
    // a stale plan changed nothing: it does not hold the queue
    const after = await waitRun(fleet, await fleet.enqueue('a', 'apply'), ['succeeded']);
    expect(after.summary).toMatchObject({ create: 0 });
  });

  it('runs one stack in queue order, never two at once', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) ids.push(await fleet.enqueue('b', i % 2 ? 'plan' : 'apply'));
    const runs = await Promise.all(ids.map((id) => waitRun(fleet, id, ['succeeded'])));
    for (let i = 1; i < runs.length; i++) expect(runs[i]!.startedAt! >= runs[i - 1]!.finishedAt!).toBe(true);
  });

  it('holds a paused stack runs, in order, until resumed; expires none younger than the limit', async () => {
    await fleet.pause('c');
    const r1 = await fleet.enqueue('c', 'plan');
    const r2 = await fleet.enqueue('c', 'apply');
    await sleep(600);
    expect((await fleet.run(r1)).status).toBe('queued');
    expect((await fleet.status()).stacks.find((s) => s.name === 'c')).toMatchObject({ paused: true, queueLength: 2 });
    const r3 = await fleet.enqueue('c', 'plan');
    expect(await fleet.cancel(r3)).toBe('cancelled');
    await fleet.resume('c');
    const [a, b] = [await waitRun(fleet, r1, ['succeeded']), await waitRun(fleet, r2, ['succeeded'])];
    expect(b.startedAt! >= a.finishedAt!).toBe(true);
    expect((await fleet.run(r3)).status).toBe('cancelled');
  });

  it('stops a stack queue after a failed run until it is resumed', async () => {
    await writeFile(join(dir, 'bad.fail'), '');
    const f = await waitRun(fleet, await fleet.enqueue('bad', 'plan'), ['failed']);
    expect(f.errorCode).toBe('CONVERGE_FLEET_STACK_MODULE');
    const next = await fleet.enqueue('bad', 'plan');
    await sleep(600);
    expect((await fleet.run(next)).status).toBe('queued');
    expect((await fleet.status()).stacks.find((s) => s.name === 'bad')?.failedRunId).toBe(f.id);
    await rm(join(dir, 'bad.fail'));
    await fleet.resume('bad');
    expect((await waitRun(fleet, next, ['succeeded'])).status).toBe('succeeded');
  });

  it('expires queued runs older than the configured age, and only those', async () => {
    await fleet.pause('e');
    const old = await fleet.enqueue('e', 'plan');
    const young = await fleet.enqueue('e', 'plan');
    const db = new pg.Client({ connectionString: pgUrl });
    await db.connect();
    try {
      const back = (id: string, ms: number) =>
        db.query(
          `UPDATE "${schema}".fleet_runs SET queued_at = queued_at - $2 * interval '1 millisecond' WHERE id = $1`,
          [id, ms],
        );
      await back(old, MAX_AGE_MS + 1000);
      await back(young, MAX_AGE_MS - 10_000);
    } finally {
      await db.end();
    }
    const expired = await waitRun(fleet, old, ['expired'], 5000);
    expect(expired.startedAt).toBeNull();
    await waitEvent((e) => e.type === 'run_finished' && e.runId === old && e.status === 'expired');
    expect((await fleet.run(young)).status).toBe('queued');
    await fleet.resume('e');
    expect((await waitRun(fleet, young, ['succeeded'])).status).toBe('succeeded');
    expect((await fleet.run(old)).status).toBe('expired');
  });

  it('pauses and resumes the whole fleet; a stack paused on its own stays paused', async () => {
    await fleet.pause();
    expect((await fleet.status()).paused).toBe(true);
    const r1 = await fleet.enqueue('p1', 'plan');
    const r2 = await fleet.enqueue('p2', 'plan');
    await fleet.pause('p2');
    await sleep(600);
    expect([(await fleet.run(r1)).status, (await fleet.run(r2)).status]).toEqual(['queued', 'queued']);
    await fleet.resume('p1'); // the fleet's pause wins over a stack's resume
    await sleep(400);
    expect((await fleet.run(r1)).status).toBe('queued');
    await fleet.resume();
    expect((await fleet.status()).paused).toBe(false);
    expect((await waitRun(fleet, r1, ['succeeded'])).status).toBe('succeeded');
    expect((await fleet.run(r2)).status).toBe('queued');
    await fleet.resume('p2');
    expect((await waitRun(fleet, r2, ['succeeded'])).status).toBe('succeeded');
  });

  it('records a drift found with its drift section, tells it, and queues the plan onDrift asks for', async () => {
    await waitRun(fleet, await fleet.enqueue('d', 'apply'), ['succeeded']);
    const net = [...sim.store.networks.values()].find((n) => n.label === 'd-net1')!;
    net.label = 'changed-outside';
    await fleet.checkDrift('d');
    // the check is in the history when checkDrift resolves (the tick is taken by the caller)
    expect((await fleet.runs({ stack: 'd' })).filter((r) => r.kind === 'refresh-only')).toHaveLength(1);
    const found = (await waitEvent((e) => e.type === 'drift_found' && e.stack === 'd')) as Extract<
      FleetEvent,
      { type: 'drift_found' }
    >;
    expect(found.addresses).toEqual(['net1']);
    expect(found.then).toBe('plan');
    const check = await fleet.run(found.runId);
    expect(check).toMatchObject({ kind: 'refresh-only', status: 'succeeded', driftFound: true, origin: 'drift' });
    expect(JSON.stringify(check.drift)).toContain('net1');
    const plan = await waitRun(fleet, found.followUpRunId!, ['succeeded']);
    expect(plan).toMatchObject({ kind: 'plan', origin: 'drift-followup', hasSavedPlan: true });
    expect(plan.summary).toMatchObject({ update: 1 });
    expect((await fleet.status()).stacks.find((s) => s.name === 'd')?.drift).toMatchObject({
      runId: found.runId,
      found: true,
    });
  });

  it('skips a drift check while the stack is busy (recorded), and never queues two at once', async () => {
    await writeFile(join(dir, 'h.hold'), '');
    const busy = await fleet.enqueue('h', 'apply');
    await waitRun(fleet, busy, ['running']);
    await fleet.checkDrift('h');
    await fleet.checkDrift('h');
    const skipped = () => events.filter((e) => e.type === 'drift_skipped' && e.stack === 'h');
    await waitEvent(() => skipped().length >= 2);
    expect(skipped().map((e) => (e as { reason: string }).reason)).toEqual(['busy', 'busy']);
    expect((await fleet.status()).stacks.find((s) => s.name === 'h')?.driftSkipped?.reason).toBe('busy');
    expect((await fleet.runs({ stack: 'h' })).map((r) => r.kind)).toEqual(['apply']);
    await rm(join(dir, 'h.hold'));
    await waitRun(fleet, busy, ['succeeded']);
    // idle: two ticks at once queue one check; the second finds it queued or running
    await writeFile(join(dir, 'h.hold'), '');
    await Promise.all([fleet.checkDrift('h'), fleet.checkDrift('h')]);
    await waitEvent(() => skipped().length >= 3);
    await rm(join(dir, 'h.hold'));
    const checks = (await fleet.runs({ stack: 'h' })).filter((r) => r.kind === 'refresh-only');
    expect(checks).toHaveLength(1);
    expect((await waitRun(fleet, checks[0]!.id, ['succeeded'])).driftFound).toBe(false);
  });

  it("keeps an account's runs inside its fleet-wide request budget, each wait an event", async () => {
    await fleet.limitAccount('civo-test', { requestsPerMinute: 600, burst: 2, provider: 'provb' });
    sim.setRateLimit({ requestsPerSecond: 10, burst: 5 }); // some slack for requests bunched by a loaded machine
    sim.clearLog();
    try {
      const ids = [await fleet.enqueue('acct1', 'apply'), await fleet.enqueue('acct2', 'apply')];
      for (const id of ids) expect((await waitRun(fleet, id, ['succeeded', 'failed'])).status).toBe('succeeded');
      expect(sim.requests.filter((r) => r.throttled)).toEqual([]);
      expect(sim.requests.length).toBeGreaterThan(10);
      const waits = events.filter((e) => e.type === 'budget_wait');
      expect(waits.length).toBeGreaterThan(0);
      expect(waits.every((e) => e.type === 'budget_wait' && e.account === 'civo-test' && e.waitMs > 0)).toBe(true);
    } finally {
      sim.setRateLimit(undefined);
      await fleet.limitAccount('civo-test', null);
    }
  });
  it("starts no run over its account's run limit counted in PostgreSQL at claim time; the held run waits, an event, and starts once a slot frees", async () => {
    // four runs of the account running elsewhere (another process's, as the history shows them): the
    // worker's accountConcurrency (4) is reached though pg-boss's own group count sees none of them
    const db = new pg.Client({ connectionString: pgUrl });
    await db.connect();
    try {
      const busy = await db.query<{ id: string }>(
        `INSERT INTO "${schema}".fleet_runs (stack, kind, status, started_at, attempts)
         SELECT 'acct1', 'apply', 'running', clock_timestamp(), 1 FROM generate_series(1, 4) RETURNING id`,
      );
      const id = await fleet.enqueue('acct2', 'apply');
      const wait = await waitEvent((e) => e.type === 'account_wait' && e.runId === id);
      expect(wait).toMatchObject({ account: 'civo-test', stack: 'acct2', running: 4, limit: 4 });
      await sleep(300);
      expect((await fleet.run(id)).status).toBe('queued');
      await db.query(
        `UPDATE "${schema}".fleet_runs SET status = 'succeeded', finished_at = clock_timestamp() WHERE id = ANY($1)`,
        [busy.rows.map((r) => r.id)],
      );
      const freed = new Date().toISOString();
      const done = await waitRun(fleet, id, ['succeeded', 'failed']);
      expect(done.status).toBe('succeeded');
      expect(done.attempts).toBe(1);
      expect(done.startedAt! >= freed).toBe(true);
      expect(events.filter((e) => e.type === 'account_wait' && e.runId === id)).toHaveLength(1);
    } finally {
      await db.end();
    }
  });
});
