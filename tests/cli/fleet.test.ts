// `converge fleet` in-process on the real PostgreSQL and the Civo simulator: register, enqueue,
// a worker (the command's, stopped through its signal), runs and status as tables and JSON,
// approve, pause/resume of a stack and of the fleet, cancel of a queued run, and bad input
// (unknown stack, bad kind, bad cron, unknown run) failing with exit code 1 and nothing queued.
import { join } from 'node:path';
import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { fleetWorker } from '../../src/cli/fleet.js';
import type { Io } from '../../src/cli/io.js';
import type { Run } from '../../src/fleet/index.js';
import { startSimulator, type CivoSimulator } from '../../src/providers/b/simulator/index.js';
import { dropSchema, pgUrl, schemaName, stackFiles } from '../fleet/helpers.js';

const schema = schemaName('cli');
let sim: CivoSimulator;
let dir: string;
const stop = new AbortController();
let worker: Promise<number> | undefined;
let workerIo: ReturnType<typeof capture>;

function capture(): Io & { lines: string[]; errs: string[] } {
  const lines: string[] = [];
  const errs: string[] = [];
  return {
    out: (t) => lines.push(t),
    err: (t) => errs.push(t),
    isTTY: false,
    color: false,
    stdout: process.stdout,
    lines,
    errs,
  };
}

async function cli(...args: string[]) {
  const io = capture();
  const code = await main(['fleet', '--database', pgUrl!, '--schema', schema, ...args], io);
  return { code, out: io.lines.join('\n'), err: io.errs.join('\n') };
}

async function runOf(id: string): Promise<Run> {
  const r = await cli('runs', '--json', '--limit', '1000');
  return (JSON.parse(r.out) as Run[]).find((x) => x.id === id)!;
}

async function until(id: string, status: string): Promise<Run> {
  for (const end = Date.now() + 20_000; ;) {
    const r = await runOf(id);
    if (r?.status === status) return r;
    if (Date.now() > end || (r && r.status !== status && ['failed', 'cancelled', 'expired'].includes(r.status)))
      throw new Error(`run ${id} is ${r?.status} (${r?.errorCode ?? ''} ${r?.errorMessage ?? ''}), not ${status}`);
    await new Promise((res) => setTimeout(res, 100));
  }
}

beforeAll(async () => {
  sim = await startSimulator({ latencyMs: 0 });
  process.env.FLEET_SIM_URL = sim.url;
  process.env.FLEET_SIM_TOKEN = sim.token;
  dir = await stackFiles(['web', 'db']);
  workerIo = capture();
});

afterAll(async () => {
  stop.abort();
  await worker;
  await sim?.close();
  await dropSchema(schema);
  await rm(dir, { recursive: true, force: true });
});

describe('converge fleet', () => {
  it('registers, queues, works, approves, lists, pauses, resumes and cancels', async () => {
    const reg = await cli('register', 'web', join(dir, 'web.ts'), '--drift-cron', '0 3 * * *', '--on-drift', 'plan');
    expect(reg).toMatchObject({ code: 0, out: `Registered stack web (${join(dir, 'web.ts')})` });
    expect((await cli('register', 'db', join(dir, 'db.ts'), '--account', 'civo-1', '--json')).code).toBe(0);

    const q = await cli('enqueue', 'web', 'plan', '--json');
    expect(q.code).toBe(0);
    const planId = (JSON.parse(q.out) as { runId: string }).runId;
    const status = await cli('status');
    expect(status.out.split('\n')[0]).toMatch(/^STACK\s+STATE\s+QUEUED\s+LAST RUN\s+DRIFT\s+SCHEDULE$/);
    expect(status.out).toMatch(/^web\s+idle\s+1\s+plan queued .*0 3 \* \* \* \(plan\)$/m);

    worker = fleetWorker(
      workerIo,
      { database: pgUrl, schema, concurrency: '2' },
      { stop: stop.signal, abort: new AbortController().signal },
    );
    const plan = await until(planId, 'succeeded');
    expect(plan.hasSavedPlan).toBe(true);

    expect(workerIo.lines.join('\n')).toMatch(/ started {3}web plan \(run [0-9a-f]{8}, attempt 1, /);
    const ap = await cli('approve', planId);
    expect(ap.code).toBe(0);
    const applyId = /run ([0-9a-f-]{36}) applies/.exec(ap.out)![1]!;
    await until(applyId, 'succeeded');
    expect([...sim.store.networks.values()].filter((n) => String(n.label).startsWith('web-'))).toHaveLength(3);

    const runs = await cli('runs', '--stack', 'web');
    expect(runs.out.split('\n')[0]).toMatch(/^RUN\s+STACK\s+KIND\s+STATUS\s+QUEUED\s+FINISHED\s+RESULT$/);
    expect(runs.out).toMatch(new RegExp(`^${applyId}\\s+web\\s+apply\\s+succeeded\\s.*3 to create$`, 'm'));
    expect(runs.out).toMatch(new RegExp(`^${planId}\\s+web\\s+plan\\s+succeeded\\s.*3 to create$`, 'm'));
    const ok = await cli('runs', '--status', 'succeeded', '--since', '2000-01-01', '--json');
    expect((JSON.parse(ok.out) as Run[]).map((r) => r.id).sort()).toEqual([applyId, planId].sort());

    // a paused stack's run waits; cancelled while queued, it never runs
    expect(JSON.parse((await cli('pause', 'db', '--json')).out)).toEqual({ stack: 'db', paused: true });
    const held = JSON.parse((await cli('enqueue', 'db', 'apply', '--json')).out) as { runId: string };
    expect((await cli('status', '--json')).out).toContain('"paused": true');
    expect(await cli('cancel', held.runId)).toMatchObject({ code: 0, out: `Run ${held.runId} is cancelled` });
    expect((await cli('resume', 'db')).out).toBe('Stack db is resumed');
    expect((await runOf(held.runId)).status).toBe('cancelled');

    // the whole fleet
    expect((await cli('pause')).out).toBe('The fleet is paused');
    expect((await cli('status')).out).toMatch(/^The fleet is paused/);
    expect((await cli('resume', '--json')).out).toBe('{"stack":null,"paused":false}');
    stop.abort();
    expect(await worker).toBe(0);
  }, 60_000);

  it('fails bad input with exit code 1 and queues nothing', async () => {
    const before = (await cli('runs', '--json', '--limit', '1000')).out;
    const unknown = await cli('enqueue', 'nope', 'plan');
    expect(unknown.code).toBe(1);
    expect(unknown.err).toContain('nope');
    expect((await cli('enqueue', 'web', 'deploy')).err).toContain("not 'deploy'");
    expect((await cli('approve', '00000000-0000-0000-0000-000000000000')).code).toBe(1);
    const cron = await cli('register', 'bad', join(dir, 'web.ts'), '--drift-cron', 'every day');
    expect(cron.code).toBe(1);
    expect(cron.err).toContain('every day');
    expect((await cli('runs', '--status', 'done')).code).toBe(1);
    expect((await cli('runs', '--json', '--limit', '1000')).out).toBe(before);
    const nodb = capture();
    expect(await main(['fleet', 'status'], nodb)).toBe(1);
    expect(nodb.errs.join('')).toContain('CONVERGE_FLEET_DATABASE_URL');
  });
});
