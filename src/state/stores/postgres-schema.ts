// The PostgreSQL store's tables, created on first use (under a transaction-scoped advisory lock, so
// two processes starting at once do not race on CREATE TABLE): a stack row, a row per resource and
// per pending operation and per deposed object, and a row naming the holder of the stack's lock; and
// a stack's rows read back as stored. A stack's outputs have a table of their own and a view,
// converge_stack_outputs, that joins them to the stack's lineage, serial and encryption header: a
// role granted SELECT on that view alone reads every stack's outputs (sealed when secret) and
// nothing else of any state.
import type pg from 'pg';
import { createHash } from 'node:crypto';
import type { EncryptionHeader, SecretCodec } from '../crypto.js';
import type { DeposedObject, PendingOperation, ResourceState, StackOutput } from '../model.js';
import type { OutputsSnapshot } from '../store.js';
import { setOwn } from '../keys.js';

export type Tables = {
  readonly schema: string;
  readonly stacks: string;
  readonly resources: string;
  readonly pending: string;
  readonly deposed: string;
  readonly outputs: string;
  /** The view another stack reads outputs through (lineage, serial, encryption header, one row per output). */
  readonly outputsView: string;
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
    outputs: q('converge_outputs'),
    outputsView: q('converge_stack_outputs'),
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
    await c.query(`CREATE TABLE IF NOT EXISTS ${t.outputs} (
      stack text NOT NULL REFERENCES ${t.stacks} (stack) ON DELETE CASCADE, name text NOT NULL, data jsonb NOT NULL,
      PRIMARY KEY (stack, name))`);
    // Made once (a later CREATE OR REPLACE by another role would need to own it); grants on it are the operator's.
    const view = await c.query<{ v: string | null }>(`SELECT to_regclass($1) AS v`, [t.outputsView]);
    if (!view.rows[0]?.v)
      await c.query(`CREATE VIEW ${t.outputsView} AS
        SELECT s.stack, s.lineage, s.serial, s.encryption, o.name, o.data
        FROM ${t.stacks} s LEFT JOIN ${t.outputs} o ON o.stack = s.stack`);
    await c.query('COMMIT');
  } catch (e) {
    await c.query('ROLLBACK').catch(() => {});
    throw e;
  } finally {
    c.release();
  }
}

/** The schemas made ready on each shared pool: the stores of a fleet worker's runs make their tables once, not once each. */
const readyOnPool = new WeakMap<pg.Pool, Map<string, Promise<void>>>();

/** ensureSchema once per pool and schema (a failure is tried again by the next caller). */
export function ensureSchemaOnPool(pool: pg.Pool, tables: Tables): Promise<void> {
  let m = readyOnPool.get(pool);
  if (!m) readyOnPool.set(pool, (m = new Map()));
  const ready = m;
  let p = ready.get(tables.schema);
  if (!p) {
    p = ensureSchema(pool, tables);
    ready.set(tables.schema, p);
    p.catch(() => ready.delete(tables.schema));
  }
  return p;
}

/**
 * A statement run on every state read and on every fleet run, as a named (prepared) statement: each
 * connection parses and plans it once, then only binds and executes it (the planning of these
 * CTEs was most of PostgreSQL's CPU for a short run). The name is a digest of the text, which holds
 * the schema, so two schemas' statements never share a name. Converge's locks already need a
 * session of their own per connection (advisory locks), so a pooler must pool sessions, and a
 * session keeps its prepared statements.
 */
export function prepared(text: string, values: unknown[]): pg.QueryConfig {
  let name = statementNames.get(text);
  if (name === undefined) {
    name = `converge_${createHash('sha256').update(text).digest('hex').slice(0, 24)}`;
    statementNames.set(text, name);
  }
  return { name, text, values };
}
const statementNames = new Map<string, string>();

/**
 * A stack's rows as stored (sealed), in one statement (so one snapshot, and one round trip, with no
 * transaction): the stack row first, then its resources, pending operations, deposed objects and
 * outputs; undefined when the stack has no row yet.
 */
export async function readStackRows(c: Pick<pg.Pool | pg.PoolClient, 'query'>, t: Tables, stack: string) {
  const r = await c.query<{ k: number; name: string | null; data: unknown }>(
    prepared(
      `SELECT 0 AS k, NULL::text AS name,
        jsonb_build_object('lineage', lineage, 'serial', serial::text, 'version', version, 'encryption', encryption) AS data
       FROM ${t.stacks} WHERE stack = $1
     UNION ALL SELECT 1, name, data FROM ${t.resources} WHERE stack = $1
     UNION ALL SELECT 2, id, data FROM ${t.pending} WHERE stack = $1
     UNION ALL SELECT 3, id, data FROM ${t.deposed} WHERE stack = $1
     UNION ALL SELECT 4, name, data FROM ${t.outputs} WHERE stack = $1`,
      [stack],
    ),
  );
  const head = r.rows.find((x) => x.k === 0);
  if (!head) return undefined;
  const resources: { name: string; data: ResourceState }[] = [];
  const pending: { id: string; data: PendingOperation }[] = [];
  const deposed: { id: string; data: DeposedObject }[] = [];
  const outputs: { name: string; data: StackOutput }[] = [];
  for (const x of r.rows) {
    if (x.k === 1) resources.push({ name: x.name!, data: x.data as ResourceState });
    else if (x.k === 2) pending.push({ id: x.name!, data: x.data as PendingOperation });
    else if (x.k === 3) deposed.push({ id: x.name!, data: x.data as DeposedObject });
    else if (x.k === 4) outputs.push({ name: x.name!, data: x.data as StackOutput });
  }
  const row = head.data as { lineage: string; serial: string; version: number; encryption: EncryptionHeader | null };
  return { stack: row, resources, pending, deposed, outputs };
}

/** A stack's rows as a raw state, every sealed value opened. */
export function openRows(rows: NonNullable<Awaited<ReturnType<typeof readStackRows>>>, codec: SecretCodec) {
  const resources: Record<string, ResourceState> = {};
  for (const r of rows.resources) setOwn(resources, r.name, codec.openResource(r.data));
  const pending: Record<string, PendingOperation> = {};
  for (const x of rows.pending) setOwn(pending, x.id, codec.openResource(x.data));
  const deposed: Record<string, DeposedObject> = {};
  for (const d of rows.deposed) setOwn(deposed, d.id, codec.openResource(d.data));
  const outputs: Record<string, StackOutput> = {};
  for (const o of rows.outputs) setOwn(outputs, o.name, codec.openResource(o.data));
  const row = rows.stack;
  return {
    version: row.version,
    lineage: row.lineage,
    serial: Number(row.serial),
    resources,
    pending,
    deposed,
    outputs,
  };
}

/**
 * A stack's outputs through the outputs view (see readOutputRows), secret values opened by the
 * codec for the stack's header; a stack never written has none.
 */
export async function readOutputs(
  pool: pg.Pool,
  t: Tables,
  stack: string,
  codecFor: (header: EncryptionHeader | null) => Promise<SecretCodec>,
  emptyLineage: () => string,
): Promise<OutputsSnapshot> {
  const rows = await readOutputRows(pool, t, stack);
  if (!rows) return { exists: false, lineage: emptyLineage(), serial: 0, outputs: {} };
  const codec = await codecFor(rows.encryption);
  const outputs: Record<string, StackOutput> = {};
  for (const o of rows.outputs) setOwn(outputs, o.name, codec.openResource(o.data));
  return { exists: true, lineage: rows.lineage, serial: rows.serial, outputs };
}

/**
 * A stack's outputs through the outputs view: one statement, so one snapshot (lineage, serial and
 * outputs of the same committed state). Needs SELECT on the view only, and creates nothing;
 * undefined when the stack (or the view) does not exist.
 */
async function readOutputRows(
  c: pg.Pool | pg.PoolClient,
  t: Tables,
  stack: string,
): Promise<
  | {
      lineage: string;
      serial: number;
      encryption: EncryptionHeader | null;
      outputs: { name: string; data: StackOutput }[];
    }
  | undefined
> {
  let r;
  try {
    // The stack's lineage, serial and encryption header once (the view repeats them on every
    // output's row: for 1,000 outputs, a thousand headers for the client to decode), then a row
    // per output; both parts of one statement see one snapshot.
    r = await c.query<{
      lineage: string | null;
      serial: string | null;
      encryption: EncryptionHeader | null;
      name: string | null;
      data: StackOutput | null;
    }>(
      `(SELECT lineage, serial::text AS serial, encryption, NULL::text AS name, NULL::jsonb AS data
          FROM ${t.outputsView} WHERE stack = $1 LIMIT 1)
       UNION ALL SELECT NULL, NULL, NULL, name, data FROM ${t.outputsView} WHERE stack = $1 AND name IS NOT NULL`,
      [stack],
    );
  } catch (e) {
    if ((e as { code?: string }).code === '42P01') return undefined; // no view yet: no stack was ever written
    throw e;
  }
  const head = r.rows.find((row) => row.lineage !== null);
  if (!head) return undefined;
  const outputs: { name: string; data: StackOutput }[] = [];
  for (const row of r.rows)
    if (row.name !== null && row.data !== null) outputs.push({ name: row.name, data: row.data });
  return { lineage: head.lineage!, serial: Number(head.serial), encryption: head.encryption, outputs };
}
