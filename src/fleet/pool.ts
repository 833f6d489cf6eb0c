// The one connection pool of a fleet process, of a stated size, shared by the fleet's tables, every
// stack's PostgresStateStore and the job queue. A connection the server refuses for capacity
// (SQLSTATE 53300, "too many clients") is a transient: the pool waits (an event, with back-off) and
// asks again instead of failing the run. Also: pg-boss's database adapter over this pool.
import pg from 'pg';
import type { Db as IDatabase } from 'pg-boss';
import type { EventHub } from './hub.js';
import { prepared } from '../state/stores/postgres-schema.js';

type ListenHandle = Awaited<ReturnType<NonNullable<IDatabase['listen']>>>;

type Connect = (callback?: (err: Error | undefined, client?: pg.PoolClient, done?: () => void) => void) => unknown;

/** Whether a connection error is the server refusing it for capacity. */
export const isCapacityError = (e: unknown): boolean =>
  (e as { code?: string } | undefined)?.code === '53300' ||
  /too many clients|remaining connection slots/i.test(String((e as Error)?.message));

/**
 * A pg.Pool whose connect() (and so every query) waits while the server refuses connections for
 * capacity: 50 ms doubling to 2 s, `onWait` told before each wait, until `signal` fires.
 */
export function waitingPool(
  config: pg.PoolConfig,
  onWait: (attempt: number, delayMs: number) => void,
  signal: AbortSignal,
): pg.Pool {
  const pool = new pg.Pool(config);
  pool.on('error', () => {}); // an idle connection dropped by the server: the next query reconnects
  const connect = pool.connect.bind(pool) as unknown as () => Promise<pg.PoolClient>;
  const patient = async (): Promise<pg.PoolClient> => {
    for (let attempt = 1; ; attempt++) {
      try {
        return await connect();
      } catch (e) {
        if (!isCapacityError(e) || signal.aborted) throw e;
        const delayMs = Math.min(2000, 50 * 2 ** (attempt - 1));
        onWait(attempt, delayMs);
        await sleep(delayMs, signal);
      }
    }
  };
  const wrapped: Connect = (callback) => {
    const p = patient();
    if (!callback) return p;
    p.then(
      (client) => callback(undefined, client, () => client.release()),
      (err: Error) => callback(err),
    );
    return undefined;
  };
  (pool as unknown as { connect: Connect }).connect = wrapped;
  return pool;
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(t);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const t = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}

/**
 * pg-boss's statements with parameters run as named (prepared) statements: its fetch, send and
 * complete are long CTEs over its partitioned job table, and PostgreSQL planned each one afresh on
 * every call (2.1, 0.6 and 0.5 ms of planning a run, more than their execution). A statement with
 * parameters already goes by the extended protocol (one command only), so naming it changes nothing
 * else. At most `MAX_NAMED` texts are named per process (a text that embedded values would make a
 * new statement per call): later ones run unnamed, as before.
 */
function bossQuery(c: Pick<pg.Pool | pg.PoolClient, 'query'>, text: string, values?: unknown[]) {
  if (!values?.length || (!named.has(text) && named.size >= MAX_NAMED)) return c.query(text, values);
  named.add(text);
  return c.query(prepared(text, values));
}
const MAX_NAMED = 200;
const named = new Set<string>();

/** pg-boss's database over the shared pool: statements, and LISTEN on the fleet's event connection (one held connection for both). */
export function bossDatabase(pool: pg.Pool, hub: EventHub): IDatabase {
  return {
    executeSql: (text: string, values?: unknown[]) => bossQuery(pool, text, values),
    listen: async (
      channel: string,
      onNotification: (payload: string) => void,
      onReconnect: () => void,
    ): Promise<ListenHandle> => {
      const stop = await hub.listenTo(channel, onNotification, onReconnect);
      return { close: stop };
    },
  };
}

/** A transaction's client as pg-boss's `db` option: pg-boss statements join the transaction. */
export const inTransaction = (c: pg.PoolClient): IDatabase => ({
  executeSql: (text: string, values?: unknown[]) => bossQuery(c, text, values),
});
