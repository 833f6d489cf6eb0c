// The fleet's tables in its schema (made on first use under a transaction-scoped advisory lock, so
// two processes opening one fleet at once do not race on CREATE TABLE; once made, no DDL runs again): the registered stacks and
// their settings, the run history, the fleet-wide flags (paused) and the accounts' token buckets. pg-boss keeps its own tables
// in `<schema>_queue`; each stack's state lives in the same schema as PostgresStateStore's tables.
import type pg from 'pg';

export type FleetTables = {
  readonly schema: string;
  readonly stacks: string;
  readonly runs: string;
  readonly flags: string;
  /** Each limited account's token bucket. */
  readonly accounts: string;
  /** pg-boss's schema. */
  readonly queueSchema: string;
  /** The LISTEN/NOTIFY channel of the fleet's events. */
  readonly channel: string;
};

const SCHEMA_LOCK_KEY = '7311964027583621120';

export function fleetTables(schema: string): FleetTables {
  if (!/^[A-Za-z_][A-Za-z0-9_]{0,50}$/.test(schema))
    throw new TypeError(
      'Expected `schema` to be an SQL identifier of at most 50 characters: letters, digits and underscores, not starting with a digit',
    );
  const q = (t: string) => `"${schema}"."${t}"`;
  return {
    schema,
    stacks: q('fleet_stacks'),
    runs: q('fleet_runs'),
    flags: q('fleet_flags'),
    accounts: q('fleet_accounts'),
    queueSchema: `${schema}_queue`,
    channel: `${schema}_fleet_events`,
  };
}

/**
 * Whether the fleet's tables are all there as this version makes them: then no DDL runs. A CREATE
 * INDEX or ALTER TABLE ... IF NOT EXISTS still takes its lock on the table when there is nothing to
 * do, and every process that opens the fleet (each `converge fleet` command) would take it beside the
 * workers' run updates: a deadlock was seen between a worker recording a run's end and a command's
 * CREATE INDEX IF NOT EXISTS.
 */
async function fleetSchemaReady(pool: pg.Pool, t: FleetTables): Promise<boolean> {
  const r = await pool.query<{ ready: boolean }>(
    `SELECT to_regclass($1) IS NOT NULL AND to_regclass($2) IS NOT NULL AND to_regclass($3) IS NOT NULL
        AND EXISTS (SELECT 1 FROM information_schema.columns
                    WHERE table_schema = $4 AND table_name = 'fleet_stacks' AND column_name = 'drift_skipped') AS ready`,
    [t.accounts, t.flags, `"${t.schema}"."fleet_runs_open"`, t.schema],
  );
  return r.rows[0]?.ready === true;
}

export async function ensureFleetSchema(pool: pg.Pool, t: FleetTables): Promise<void> {
  if (await fleetSchemaReady(pool, t)) return;
  const c = await pool.connect();
  try {
    await c.query('BEGIN');
    await c.query(`SELECT pg_advisory_xact_lock(${SCHEMA_LOCK_KEY})`);
    await c.query(`CREATE SCHEMA IF NOT EXISTS "${t.schema}"`);
    await c.query(`CREATE TABLE IF NOT EXISTS ${t.stacks} (
      name text PRIMARY KEY,
      module text NOT NULL,
      drift_cron text,
      drift_jitter_s integer NOT NULL DEFAULT 0,
      on_drift text NOT NULL DEFAULT 'report',
      account text,
      paused boolean NOT NULL DEFAULT false,
      failed_run uuid,
      registered_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now())`);
    await c.query(`CREATE TABLE IF NOT EXISTS ${t.runs} (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      stack text NOT NULL,
      kind text NOT NULL,
      status text NOT NULL DEFAULT 'queued',
      origin text NOT NULL DEFAULT 'enqueue',
      queued_at timestamptz NOT NULL DEFAULT clock_timestamp(),
      started_at timestamptz,
      finished_at timestamptz,
      worker text,
      attempts integer NOT NULL DEFAULT 0,
      plan_run uuid,
      options jsonb,
      summary jsonb,
      plan_json jsonb,
      saved_plan text,
      error_code text,
      error_message text,
      drift_found boolean,
      drift jsonb,
      cancel_requested boolean NOT NULL DEFAULT false,
      job_id text)`);
    await c.query(`ALTER TABLE ${t.stacks} ADD COLUMN IF NOT EXISTS drift_skipped_at timestamptz,
      ADD COLUMN IF NOT EXISTS drift_skipped text`);
    await c.query(`CREATE INDEX IF NOT EXISTS fleet_runs_stack ON ${t.runs} (stack, queued_at)`);
    await c.query(
      `CREATE INDEX IF NOT EXISTS fleet_runs_open ON ${t.runs} (status) WHERE status IN ('queued', 'running')`,
    );
    await c.query(`CREATE TABLE IF NOT EXISTS ${t.flags} (name text PRIMARY KEY, value jsonb NOT NULL)`);
    await c.query(`CREATE TABLE IF NOT EXISTS ${t.accounts} (
      account text PRIMARY KEY,
      provider text,
      per_minute double precision NOT NULL,
      per_second double precision NOT NULL,
      burst double precision NOT NULL,
      tokens double precision NOT NULL,
      at timestamptz NOT NULL DEFAULT clock_timestamp())`);
    await c.query('COMMIT');
  } catch (e) {
    await c.query('ROLLBACK').catch(() => {});
    throw e;
  } finally {
    c.release();
  }
}
