// Connections at scale, on the real PostgreSQL: 200 stacks run by one worker whose concurrency (50)
// is far above its pool's size (6) all succeed — each run plans under its stack's lock and reads
// its state twice — with the worker's connections never above the pool's size (sampled server-side:
// every run's lock is on one shared connection, its statements take turns on the rest); and a
// server that refuses connections for capacity (a role limited to 3 connections under a pool of 6:
// SQLSTATE 53300) makes runs of B-simulator stacks wait, connection_wait events, not fail.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { rm, writeFile } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { startSimulator, type CivoSimulator } from '../../src/providers/b/simulator/index.js';
import { Fleet, type FleetEvent } from '../../src/fleet/index.js';
import { dropSchema, pgUrl, schemaName, stackFiles } from './helpers.js';

const STACKS = 200;
const POOL = 6;
let sim: CivoSimulator;
let dir: string;
let admin: pg.Client;
const names = Array.from({ length: STACKS }, (_, i) => `s${i}`);
const simStacks = Array.from({ length: 20 }, (_, i) => `c${i}`);
const sleep = (ms: number) => new Promise((res) => setTimeout(res, ms));

const module = (n: string) => (n.startsWith('c') ? `${n}.ts` : `${n}.mjs`);

/** The URL with another application name (and user, when given): the server tells this fleet's connections apart. */
function urlAs(app: string, user?: { name: string; password: string }): string {
  const u = new URL(pgUrl!);
  u.searchParams.set('application_name', app);
  if (user) {
    u.username = user.name;
    u.password = user.password;
  }
  return u.toString();
}

/** Applies `stacks` with one worker of `concurrency` on a pool of POOL; the peak of its server connections and the events. */
async function applyAll(
  schema: string,
  url: string,
  app: string,
  stacks: readonly string[],
  concurrency: number,
): Promise<{ peak: number; events: FleetEvent[]; statuses: Record<string, number> }> {
  const fleet = await Fleet.open({ connectionString: url, schema, poolSize: POOL, superviseSeconds: 5 });
  const events: FleetEvent[] = [];
  await fleet.on((e) => events.push(e));
  let peak = 0;
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      const r = await admin.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = $1`,
        [app],
      );
      peak = Math.max(peak, r.rows[0]!.n);
      await sleep(20);
    }
  })();
  const stop = new AbortController();
  try {
    for (let i = 0; i < stacks.length; i += 25)
      await Promise.all(stacks.slice(i, i + 25).map((n) => fleet.register({ name: n, module: join(dir, module(n)) })));
    const working = fleet.work({ concurrency, stopSignal: stop.signal });
    for (let i = 0; i < stacks.length; i += 25)
      await Promise.all(stacks.slice(i, i + 25).map((n) => fleet.enqueue(n, 'apply')));
    const end = Date.now() + 30_000;
    const finished = () => events.filter((e) => e.type === 'run_finished');
    while (finished().length < stacks.length && Date.now() < end) await sleep(100);
    const statuses: Record<string, number> = {};
    for (const e of finished()) if (e.type === 'run_finished') statuses[e.status] = (statuses[e.status] ?? 0) + 1;
    stop.abort();
    await working;
    return { peak, events, statuses };
  } finally {
    sampling = false;
    await sampler;
    stop.abort();
    await fleet.close();
  }
}

beforeAll(async () => {
  sim = await startSimulator({ latencyMs: 0, quota: { network_count: 100_000 } });
  process.env.FLEET_SIM_URL = sim.url;
  process.env.FLEET_SIM_TOKEN = sim.token;
  process.env.FLEET_RESOURCES = '1';
  dir = await stackFiles(simStacks);
  // stacks with nothing in them: a run is the queue's work, a plan under the stack's lock and two state reads
  for (const n of names) await writeFile(join(dir, `${n}.mjs`), 'export default { providers: [], resources: [] };\n');
  admin = new pg.Client({ connectionString: pgUrl });
  await admin.connect();
});

afterAll(async () => {
  delete process.env.FLEET_RESOURCES;
  await admin?.end();
  await sim?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('fleet connections', () => {
  it('runs 200 stacks in one worker of concurrency 50 on a pool of 6: all succeed, never more than 6 connections', async () => {
    const schema = schemaName('conn');
    const app = `fleet-conn-${randomBytes(4).toString('hex')}`;
    try {
      const { peak, statuses, events } = await applyAll(schema, urlAs(app), app, names, 50);
      expect(statuses).toEqual({ succeeded: STACKS });
      expect(peak).toBeGreaterThan(2);
      expect(peak).toBeLessThanOrEqual(POOL);
      const runs = await admin.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM "${schema}".fleet_runs WHERE status = 'succeeded' AND attempts = 1`,
      );
      expect(runs.rows[0]!.n).toBe(STACKS);
      expect(events.filter((e) => e.type === 'connection_wait')).toEqual([]);
    } finally {
      await dropSchema(schema);
    }
  }, 120_000); // 12 s on a quiet machine; the suite runs three files at once on two cores

  it('waits while the server refuses connections for capacity (53300): connection_wait events, no failed run', async () => {
    const schema = schemaName('cap');
    const app = `fleet-cap-${randomBytes(4).toString('hex')}`;
    const role = `fleet_cap_${randomBytes(4).toString('hex')}`;
    const password = randomBytes(12).toString('hex');
    const db = (await admin.query<{ d: string }>('SELECT current_database() AS d')).rows[0]!.d;
    // the role may hold 3 connections; the fleet's pool asks for up to 6
    await admin.query(`CREATE ROLE ${role} LOGIN PASSWORD '${password}' CONNECTION LIMIT 3`);
    try {
      await admin.query(`GRANT CREATE ON DATABASE "${db}" TO ${role}`);
      for (const s of [schema, `${schema}_queue`]) {
        await admin.query(`CREATE SCHEMA "${s}"`);
        await admin.query(`GRANT ALL ON SCHEMA "${s}" TO ${role}`);
      }
      const some = names.slice(0, 30);
      const { peak, statuses, events } = await applyAll(schema, urlAs(app, { name: role, password }), app, some, 10);
      expect(
        statuses,
        JSON.stringify(events.find((e) => e.type === 'run_finished' && e.status !== 'succeeded')),
      ).toEqual({ succeeded: some.length });
      expect(peak).toBeLessThanOrEqual(3);
      const waits = events.filter((e) => e.type === 'connection_wait');
      expect(waits.length).toBeGreaterThan(0);
      expect(waits[0]).toMatchObject({ attempt: 1, delayMs: 50 });
    } finally {
      await dropSchema(schema); // the schemas are the admin's: dropping them drops the role's tables
      await admin.query(`REVOKE CREATE ON DATABASE "${db}" FROM ${role}`).catch(() => {});
      await admin.query(`DROP ROLE ${role}`);
    }
  }, 120_000);
});
