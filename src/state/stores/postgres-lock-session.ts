// The PostgreSQL store's lock on a session shared by the stores of one pool (a fleet worker's runs):
// N stacks locked at once hold one connection, not N, so runs beyond the pool's size never starve
// it. The same advisory key and holder row as postgres-lock.ts, so a store on a connection of its
// own (another process, the `converge` command) and a shared session keep each other out.
import type pg from 'pg';
import type { Lock, LockInfo, LockRequest } from '../store.js';
import { lockInfo, waitForLock } from '../lock.js';
import { StateLockedError } from '../errors.js';
import { DROP_ROW, advisoryKey, heldLock, holderOf, release, tryTake, type PgLockTarget } from './postgres-lock.js';

/** Takes the stack's lock on the shared session of `pool`. The lock is in `held` until released. */
export function acquireSharedPgLock(
  pool: pg.Pool,
  target: PgLockTarget,
  request: LockRequest,
  held: Set<Lock>,
): Promise<Lock> {
  return sessionOf(pool).acquire(target, request, held);
}

/**
 * One connection of a pool holding the advisory locks of every store on that pool that shares it
 * (a fleet worker's runs): taken from the pool while any lock is held or wanted, given back when none
 * is. Session advisory locks nest within a session, so the stacks held here are also kept apart in
 * the process: a stack held by one store of this process is held for the others. A session whose
 * connection is lost holds nothing more (the server freed its locks); the next lock takes a new one.
 */
class LockSession {
  readonly #pool: pg.Pool;
  /** Advisory key -> the holder in this process (also while its try is on the wire). */
  readonly #held = new Map<string, LockInfo>();
  #users = 0;
  #client: Promise<pg.PoolClient> | undefined;
  #live: pg.PoolClient | undefined;
  #lost: (() => void) | undefined;
  #queue: Promise<void> = Promise.resolve();

  constructor(pool: pg.Pool) {
    this.#pool = pool;
  }

  async acquire(target: PgLockTarget, request: LockRequest, held: Set<Lock>): Promise<Lock> {
    const info = lockInfo(request.operation);
    const key = advisoryKey(target.tables.schema, target.stack);
    const locks = target.tables.locks;
    const warnings: string[] = [];
    let holder: LockInfo | undefined;
    let client: pg.PoolClient;
    this.#users++;
    try {
      client = await this.#connect();
      const got = await waitForLock(
        request,
        async () => {
          const mine = this.#held.get(key);
          if (mine) {
            holder = mine;
            return undefined;
          }
          this.#held.set(key, info);
          return this.#turn(async () => {
            try {
              const r = await tryTake(client, target, key, info);
              if (r.ok) {
                if (r.warning) warnings.push(r.warning);
                return true;
              }
            } catch (e) {
              // the statement may have taken the lock before it failed
              await client.query('SELECT pg_advisory_unlock($1::bigint)', [key]).catch(() => {});
              this.#held.delete(key);
              throw e;
            }
            this.#held.delete(key);
            holder = (await holderOf(client as unknown as pg.Client, target, key)).info;
            return undefined;
          });
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
      this.#unuse();
      throw e;
    }
    return heldLock(info, warnings, held, async () => {
      try {
        if (this.#live === client) {
          await this.#turn(() => release(client, locks, target.stack, key, info.id));
        } else {
          // the session was lost (its locks with it): only the row is left to drop
          await this.#pool.query(DROP_ROW(locks), [target.stack, info.id]);
        }
      } finally {
        this.#held.delete(key);
        this.#unuse();
      }
    });
  }

  /** Runs `fn` when the statements before it on the session are done: one statement on the wire at a time. */
  #turn<T>(fn: () => Promise<T>): Promise<T> {
    const out = this.#queue.then(fn);
    this.#queue = out.then(
      () => {},
      () => {},
    );
    return out;
  }

  #connect(): Promise<pg.PoolClient> {
    this.#client ??= (async () => {
      const c = await this.#pool.connect();
      const lost = () => {
        if (this.#live === c) {
          this.#live = undefined;
          this.#client = undefined;
          c.release(true);
        }
      };
      c.on('error', lost);
      this.#lost = lost;
      this.#live = c;
      return c;
    })();
    const p = this.#client;
    p.catch(() => {
      if (this.#client === p) this.#client = undefined;
    });
    return p;
  }

  /** One user fewer; with none left the connection goes back to the pool (it holds no lock then). */
  #unuse(): void {
    if (--this.#users > 0) return;
    const c = this.#live;
    this.#client = undefined;
    this.#live = undefined;
    if (c) {
      if (this.#lost) c.off('error', this.#lost);
      c.release();
    }
  }
}

const sessions = new WeakMap<pg.Pool, LockSession>();
const sessionOf = (pool: pg.Pool): LockSession => {
  let s = sessions.get(pool);
  if (!s) sessions.set(pool, (s = new LockSession(pool)));
  return s;
};
