// What the fleet's parts share in one process: the pool, the tables, the queue, the event channel
// and the settings every process of one fleet must agree on.
import type pg from 'pg';
import type { PgBoss } from 'pg-boss';
import type { FleetTables } from './schema.js';
import type { EventHub } from './hub.js';
import type { QueueSettings } from './queue.js';

export type FleetSettings = QueueSettings & {
  /** Finished runs older than this are deleted from the history, in ms. */
  readonly retentionMs: number;
  readonly secretsPassphrase: string | undefined;
  readonly allowPlaintextSecrets: boolean;
  readonly lockTimeoutMs: number;
};

export type FleetContext = {
  readonly pool: pg.Pool;
  readonly tables: FleetTables;
  readonly boss: PgBoss;
  readonly hub: EventHub;
  readonly settings: FleetSettings;
};

/** Runs `fn` in a transaction on a connection of the pool. */
export async function inTx<T>(pool: pg.Pool, fn: (c: pg.PoolClient) => Promise<T>): Promise<T> {
  const c = await pool.connect();
  try {
    await c.query('BEGIN');
    const out = await fn(c);
    await c.query('COMMIT');
    return out;
  } catch (e) {
    await c.query('ROLLBACK').catch(() => {});
    throw e;
  } finally {
    c.release();
  }
}
