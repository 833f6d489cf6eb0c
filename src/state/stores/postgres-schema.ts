// The PostgreSQL store's tables, created on first use (under a transaction-scoped advisory lock, so
// two processes starting at once do not race on CREATE TABLE): a stack row, a row per resource and
// per pending operation and per deposed object, and a row naming the holder of the stack's lock; and
// a stack's rows read back as stored.
import type pg from 'pg';
import type { EncryptionHeader } from '../crypto.js';
import type { DeposedObject, PendingOperation, ResourceState } from '../model.js';

export type Tables = {
  readonly schema: string;
  readonly stacks: string;
  readonly resources: string;
  readonly pending: string;
  readonly deposed: string;
  readonly locks: string;
};

const SCHEMA_LOCK_KEY = '7311964027583621119';

export function tablesOf(schema: string): Tables {
  if (!/^[A-Za-z_][A-Za-z0-9_]{0,62}$/.test(schema)) {
    throw new TypeError(
      'Expected `schema` to be an SQL identifier: letters, digits and underscores, not starting with a digit',
    );
  }
  const q = (t: string) => `"${schema}"."${t}"`;
  return {
    schema,
    stacks: q('converge_stacks'),
    resources: q('converge_resources'),
    pending: q('converge_pending'),
    deposed: q('converge_deposed'),
    locks: q('converge_locks'),
  };
}

export async function ensureSchema(pool: pg.Pool, t: Tables): Promise<void> {
  const c = await pool.connect();
  try {
    await c.query('BEGIN');
    await c.query('SELECT pg_advisory_xact_lock($1::bigint)', [SCHEMA_LOCK_KEY]);
    if (t.schema !== 'public') await c.query(`CREATE SCHEMA IF NOT EXISTS "${t.schema}"`);
    await c.query(`CREATE TABLE IF NOT EXISTS ${t.stacks} (
      stack text PRIMARY KEY, lineage text NOT NULL, serial bigint NOT NULL, version integer NOT NULL,
      encryption jsonb, updated_at timestamptz NOT NULL DEFAULT now())`);
    await c.query(`CREATE TABLE IF NOT EXISTS ${t.resources} (
      stack text NOT NULL REFERENCES ${t.stacks} (stack) ON DELETE CASCADE, name text NOT NULL, data jsonb NOT NULL,
      PRIMARY KEY (stack, name))`);
    await c.query(`CREATE TABLE IF NOT EXISTS ${t.pending} (
      stack text NOT NULL REFERENCES ${t.stacks} (stack) ON DELETE CASCADE, id text NOT NULL, data jsonb NOT NULL,
      PRIMARY KEY (stack, id))`);
    await c.query(`CREATE TABLE IF NOT EXISTS ${t.deposed} (
      stack text NOT NULL REFERENCES ${t.stacks} (stack) ON DELETE CASCADE, id text NOT NULL, data jsonb NOT NULL,
      PRIMARY KEY (stack, id))`);
    await c.query(`CREATE TABLE IF NOT EXISTS ${t.locks} (stack text PRIMARY KEY, info jsonb NOT NULL)`);
    await c.query('COMMIT');
  } catch (e) {
    await c.query('ROLLBACK').catch(() => {});
    throw e;
  } finally {
    c.release();
  }
}

/** A stack's rows as stored (sealed), read inside the caller's transaction; undefined when the stack has no row yet. */
export async function readStackRows(c: pg.PoolClient, t: Tables, stack: string) {
  const s = await c.query<{ lineage: string; serial: string; version: number; encryption: EncryptionHeader | null }>(
    `SELECT lineage, serial, version, encryption FROM ${t.stacks} WHERE stack = $1`,
    [stack],
  );
  if (!s.rows[0]) return undefined;
  const res = await c.query<{ name: string; data: ResourceState }>(
    `SELECT name, data FROM ${t.resources} WHERE stack = $1`,
    [stack],
  );
  const pen = await c.query<{ id: string; data: PendingOperation }>(
    `SELECT id, data FROM ${t.pending} WHERE stack = $1`,
    [stack],
  );
  const dep = await c.query<{ id: string; data: DeposedObject }>(`SELECT id, data FROM ${t.deposed} WHERE stack = $1`, [
    stack,
  ]);
  return { stack: s.rows[0], resources: res.rows, pending: pen.rows, deposed: dep.rows };
}
