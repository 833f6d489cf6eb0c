// The PostgreSQL store's lock: pg_try_advisory_lock on a key derived from schema and stack, held on
// a dedicated connection, and a row in converge_locks naming the holder and its operation. The
// advisory lock vanishes with its holder's session; the row does not, so the next holder that finds
// a row it did not write knows the last one ended without releasing (killed, or its connection
// lost) and warns, as the file store does for a lock file left by a dead process. Stores sharing a
// pool may instead share one session for their locks: postgres-lock-session.ts.
import pg from 'pg';
import { createHash } from 'node:crypto';
import type { Lock, LockInfo, LockRequest } from '../store.js';
import { lockInfo, waitForLock } from '../lock.js';
import { LockHolderAliveError, StateLockedError } from '../errors.js';
import { prepared, type Tables } from './postgres-schema.js';

export type PgLockTarget = {
  readonly connectionString?: string;
  /** A shared pool: the lock's connection is taken from it (and given back, or dropped when unsure). */
  readonly pool?: pg.Pool;
  readonly tables: Tables;
  readonly stack: string;
  /** For messages: 'postgres:stack'. */
  readonly location: string;
};

/**
 * Takes the stack's lock on a connection of its own, used one query at a time and ended on release.
 * The lock is in `held` until released (the store's close() releases what is left there).
 */
export async function acquirePgLock(target: PgLockTarget, request: LockRequest, held: Set<Lock>): Promise<Lock> {
  const info = lockInfo(request.operation);
  const key = advisoryKey(target.tables.schema, target.stack);
  const locks = target.tables.locks;
  const { client, end } = await connectionOf(
    target,
    `converge:${info.operation}:${info.pid}@${info.host}`.slice(0, 63),
  );
  const warnings: string[] = [];
  let holder: LockInfo | undefined;
  try {
    const got = await waitForLock(
      request,
      async () => {
        const r = await tryTake(client, target, key, info);
        if (r.ok) {
          if (r.warning) warnings.push(r.warning);
          return true;
        }
        holder = (await holderOf(client, target, key)).info;
        return undefined;
      },
      20,
      () => holder,
    );
    if (!got)
      throw new StateLockedError(
        holder ?? { id: 'unknown', pid: 0, host: 'unknown', operation: 'unknown', since: 'unknown' },
        target.location,
      );
  } catch (e) {
    await end(true);
    throw e;
  }
  return heldLock(info, warnings, held, async () => {
    try {
      await release(client, locks, target.stack, key, info.id);
      await end(false);
    } catch (e) {
      await end(true);
      throw e;
    }
  });
}

/** Drops a lock's holder row: $1 the stack, $2 the holder's id. */
export const DROP_ROW = (locks: string) => `DELETE FROM ${locks} WHERE stack = $1 AND info->>'id' = $2`;

/**
 * Tries the stack's advisory lock and, when it is taken, writes our holder row, in one prepared
 * statement (one round trip, parsed once per connection). The row goes in only where none is: the
 * conflict check sees the latest committed rows, so the row of an earlier holder that released
 * (deleted, then unlocked) is never in the way, while a row left by a holder that ended without
 * releasing is: then, and only then, it is read for the warning (`warning`) and replaced. The holder
 * rows are facts for people (who holds it, who left it), not the lock, which is the session's:
 * their writes need not wait for the disk (synchronous_commit off for this transaction only). A
 * statement that fails may have taken the lock: the caller unlocks (or ends the session).
 */
export async function tryTake(
  client: pg.Client | pg.PoolClient,
  target: PgLockTarget,
  key: string,
  info: LockInfo,
): Promise<{ ok: boolean; warning?: string }> {
  const { stack } = target;
  const locks = target.tables.locks;
  const r = await client.query<{ ok: boolean; inserted: boolean }>(
    prepared(
      `WITH l AS (SELECT pg_try_advisory_lock($3::bigint) AS ok, set_config('synchronous_commit', 'off', true)),
       ins AS (INSERT INTO ${locks} (stack, info) SELECT $1, $2 FROM l WHERE l.ok ON CONFLICT (stack) DO NOTHING RETURNING 1)
     SELECT l.ok, EXISTS (SELECT 1 FROM ins) AS inserted FROM l`,
      [stack, JSON.stringify(info), key],
    ),
  );
  const row = r.rows[0]!;
  if (!row.ok || row.inserted) return { ok: row.ok };
  // a row left by a holder that never released (killed, or its connection lost): ours replaces it
  const left = await client.query<{ info: LockInfo | null }>(TAKE_ROW(locks), [stack, JSON.stringify(info)]);
  const dead = left.rows[0]?.info;
  return dead ? { ok: true, warning: deadHolderWarning(target.location, dead) } : { ok: true };
}

/** The row of the new holder over the one a dead holder left, in one statement: that row, then ours. */
const TAKE_ROW = (locks: string) =>
  `WITH left_row AS (SELECT info FROM ${locks} WHERE stack = $1),
     ours AS (INSERT INTO ${locks} (stack, info) VALUES ($1, $2) ON CONFLICT (stack) DO UPDATE SET info = excluded.info)
   SELECT (SELECT info FROM left_row) AS info`;

/**
 * Drops our holder row and unlocks, in one prepared statement. The unlock comes before the delete
 * commits, which is safe: a holder that takes the lock at once finds the row being deleted, and its
 * insert waits for the delete to commit, then goes in (tryTake).
 */
export async function release(
  client: pg.Client | pg.PoolClient,
  locks: string,
  stack: string,
  key: string,
  lockId: string,
): Promise<void> {
  await client.query(
    prepared(
      `WITH d AS (DELETE FROM ${locks} WHERE stack = $1 AND info->>'id' = $2 RETURNING 1)
     SELECT pg_advisory_unlock($3::bigint), set_config('synchronous_commit', 'off', true), (SELECT count(*) FROM d)`,
      [stack, lockId, key],
    ),
  );
}

/**
 * The Lock a store hands out, counted in `held` until released: `release` runs `drop` once, however
 * often it is called (both lock kinds, a connection of its own and the shared session, use it).
 */
export function heldLock(info: LockInfo, warnings: string[], held: Set<Lock>, drop: () => Promise<void>): Lock {
  let released = false;
  const lock: Lock = {
    info,
    warnings,
    release: async () => {
      if (released) return;
      released = true;
      held.delete(lock);
      await drop();
    },
  };
  held.add(lock);
  return lock;
}

type Session = { readonly backendPid: number; readonly applicationName: string; readonly since: string };

/**
 * Who holds the advisory lock: its row, else what pg_stat_activity says of the session holding it;
 * and that session, while one holds it (none: the holder's connection is gone).
 */
export async function holderOf(
  client: pg.Client,
  target: PgLockTarget,
  key: string,
): Promise<{ info: LockInfo | undefined; session: Session | undefined }> {
  const k = BigInt.asUintN(64, BigInt(key));
  const act = await client.query<{ application_name: string; pid: number; backend_start: Date }>(
    `SELECT a.application_name, a.pid, a.backend_start FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
      WHERE l.locktype = 'advisory' AND l.granted AND l.classid = $1 AND l.objid = $2 AND l.objsubid = 1`,
    [String(k >> 32n), String(k & 0xffffffffn)],
  );
  const a = act.rows[0];
  const m = /^converge:([^:]*):(\d+)@(.*)$/.exec(a?.application_name ?? '');
  const row = await client.query<{ info: LockInfo }>(`SELECT info FROM ${target.tables.locks} WHERE stack = $1`, [
    target.stack,
  ]);
  const info = row.rows[0]?.info;
  const session = a
    ? { backendPid: a.pid, applicationName: a.application_name, since: a.backend_start.toISOString() }
    : undefined;
  // the row may still be a dead holder's while the live one has not written its own yet
  if (info && (!m || Number(m[2]) === info.pid)) return { info, session };
  if (!a) return { info, session };
  const fromSession = {
    id: `backend-${a.pid}`,
    pid: m ? Number(m[2]) : 0,
    host: m ? m[3] : 'unknown',
    operation: m ? m[1] : 'unknown',
    since: a.backend_start.toISOString(),
  };
  return { info: fromSession, session };
}

const deadHolderWarning = (location: string, dead: LockInfo) =>
  `The lock on ${location} held by pid ${dead.pid} on ${dead.host} for ${dead.operation} since ${dead.since} ` +
  'was left by a process that no longer runs (or lost its database session); it was taken over. Check that its operation left nothing half done.';

/** A signed 64-bit advisory lock key (as a decimal string) derived from schema and stack name. */
export function advisoryKey(schema: string, stack: string): string {
  const h = createHash('sha256').update(`converge\0${schema}\0${stack}`).digest();
  return BigInt.asIntN(64, h.readBigUInt64BE(0)).toString();
}

/**
 * Drops the row of lock `lockId`; false when it is not the holder. A holder whose session still
 * holds the advisory lock is alive: only with `force` is that session ended (which frees it).
 */
export async function forcePgUnlock(target: PgLockTarget, lockId: string, force = false): Promise<boolean> {
  const key = advisoryKey(target.tables.schema, target.stack);
  const { client, end } = await connectionOf(target, 'converge');
  try {
    const { info: holder, session } = await holderOf(client, target, key);
    if (holder?.id !== lockId) return false;
    if (session && !force) {
      const evidence = `its database session still holds the stack's advisory lock (backend pid ${session.backendPid}, application '${session.applicationName}', connected since ${session.since})`;
      throw new LockHolderAliveError(holder, target.location, 'alive', evidence, session);
    }
    const k = BigInt.asUintN(64, BigInt(key));
    await client.query(
      `SELECT pg_terminate_backend(l.pid) FROM pg_locks l WHERE l.locktype = 'advisory' AND l.granted AND l.classid = $1 AND l.objid = $2 AND l.objsubid = 1`,
      [String(k >> 32n), String(k & 0xffffffffn)],
    );
    await client.query(`DELETE FROM ${target.tables.locks} WHERE stack = $1 AND info->>'id' = $2`, [
      target.stack,
      lockId,
    ]);
    return true;
  } finally {
    await end(true);
  }
}

/**
 * A connection for one lock (or force-unlock), used one query at a time: a new client, or one taken
 * from the shared pool under the holder's application name. `end(dirty)` ends the client; a pooled
 * one goes back to the pool when its advisory lock was freed, else it is dropped with its session.
 */
async function connectionOf(
  target: PgLockTarget,
  applicationName: string,
): Promise<{ client: pg.Client; end: (dirty: boolean) => Promise<void> }> {
  if (target.pool) {
    const c = await target.pool.connect();
    try {
      await c.query(`SELECT set_config('application_name', $1, false)`, [applicationName]);
    } catch (e) {
      c.release(true);
      throw e;
    }
    const end = async (dirty: boolean) => {
      if (!dirty) await c.query(`SELECT set_config('application_name', 'converge', false)`).catch(() => (dirty = true));
      c.release(dirty);
    };
    return { client: c as unknown as pg.Client, end };
  }
  const client = new pg.Client({ connectionString: target.connectionString, application_name: applicationName });
  client.on('error', () => {});
  await client.connect();
  return { client, end: () => client.end().catch(() => {}) };
}
