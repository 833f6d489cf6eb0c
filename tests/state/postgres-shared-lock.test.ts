// PostgresStateStore's shared lock session (shareLockSession, what a fleet worker's runs use): the
// locks of many stacks on one connection of the pool, a stack held by one store of the process held
// for the others (session advisory locks nest within a session, so this is kept in the process), and
// held against a store of another pool (another process) as before; the connection goes back to the
// pool once no lock is held.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { pgTestUrl } from '../helpers/pg-env.js';
import { PostgresStateStore } from '../../src/state/stores/postgres.js';
import { StateLockedError } from '../../src/engine/errors.js';

const url = pgTestUrl();
const schema = `shared_lock_${randomBytes(4).toString('hex')}`;
let pool: pg.Pool;
const stores: PostgresStateStore[] = [];
const open = (stack: string, p: pg.Pool | undefined = pool) => {
  const s = p
    ? new PostgresStateStore({ pool: p, shareLockSession: true, schema, stack })
    : new PostgresStateStore({ connectionString: url!, schema, stack });
  stores.push(s);
  return s;
};

describe.skipIf(!url)('PostgresStateStore shared lock session', () => {
  beforeAll(() => {
    pool = new pg.Pool({ connectionString: url!, max: 3 });
  });
  afterAll(async () => {
    for (const s of stores) await s.close().catch(() => {});
    await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await pool.end();
  });

  it('holds 20 stacks on one connection, keeps one stack to one holder in the process and across, and gives the connection back', async () => {
    await open('warm').read(); // the tables made
    const locks = await Promise.all(Array.from({ length: 20 }, (_, i) => open(`s${i}`).lock({ operation: 'apply' })));
    expect(pool.totalCount).toBeLessThanOrEqual(2); // the lock session and at most one idle statement connection
    expect(pool.totalCount - pool.idleCount).toBe(1); // one checked out: the locks' session
    // the same stack from another store of this process: held
    await expect(open('s3').lock({ operation: 'plan' })).rejects.toBeInstanceOf(StateLockedError);
    // and from another process's store (its own connection): held, naming this holder
    const other = open('s4', undefined);
    const refused = await other.lock({ operation: 'plan' }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(StateLockedError);
    expect((refused as StateLockedError).pid).toBe(process.pid);
    expect((refused as StateLockedError).operation).toBe('apply');
    // a waiter gets it once the holder releases
    const waiting = open('s5').lock({ operation: 'plan', timeoutMs: 5000 });
    await locks[5]!.release();
    const got = await waiting;
    expect(got.warnings).toEqual([]);
    await got.release();
    for (const [i, l] of locks.entries()) if (i !== 5) await l.release();
    for (let i = 0; i < 100 && pool.totalCount - pool.idleCount > 0; i++) await new Promise((r) => setTimeout(r, 10));
    expect(pool.totalCount - pool.idleCount).toBe(0); // no lock held: the session went back to the pool
    // free again everywhere, and no lock row left behind
    const again = await other.lock({ operation: 'plan' });
    expect(again.warnings).toEqual([]);
    await again.release();
    const rows = await pool.query(`SELECT count(*)::int AS n FROM "${schema}".converge_locks`);
    expect(rows.rows[0].n).toBe(0);
  });

  it('hands a stack from holder to holder back to back with no dead-holder warning, and leaves no session setting on the pool', async () => {
    // the take (try + row) and the release (row + unlock) are one statement each: a holder that takes
    // the lock the moment the last one unlocked must not see the last one's row as left behind
    const shared = open('handoff');
    const own = open('handoff', undefined);
    await shared.read();
    const warnings: string[] = [];
    let held = await shared.lock({ operation: 'apply' });
    for (let i = 0; i < 20; i++) {
      const next = (i % 2 ? shared : own).lock({ operation: 'apply', timeoutMs: 5000 });
      await new Promise((r) => setTimeout(r, 2));
      await held.release();
      held = await next;
      warnings.push(...held.warnings);
    }
    await held.release();
    expect(warnings).toEqual([]);
    const rows = await pool.query(`SELECT count(*)::int AS n FROM "${schema}".converge_locks`);
    expect(rows.rows[0].n).toBe(0);
    // the holder rows are written without waiting for the disk, for their own transaction only
    const c = await pool.connect();
    try {
      for (let i = 0; i < 3; i++) {
        const r = await c.query<{ sc: string }>(`SELECT current_setting('synchronous_commit') AS sc`);
        expect(r.rows[0]!.sc).toBe('on');
      }
    } finally {
      c.release();
    }
  });
});
