// Claiming a run for a worker: marked running in the history (attempt counted, worker named), or
// refused while its account is at its run limit, or nothing (cancelled or expired while queued).
import { RUNS_QUEUE } from './queue.js';
import type { FleetContext } from './context.js';
import type { RunKind } from './run.js';
import { prepared } from '../state/stores/postgres-schema.js';

export type Claimed = {
  stack: string;
  account: string | null;
  kind: RunKind;
  module: string;
  saved: string | null;
  attempts: number;
  expired: boolean;
  cancel_requested: boolean;
  /** The run_started event went out with the claim (its statement's NOTIFY). */
  notified?: boolean;
};

/** What a claim gives: the run, its account's limit reached, or nothing to run. */
export type Claim = Claimed | { full: { account: string; stack: string; running: number } } | undefined;

/** The claim function of worker `worker`, which runs at most `accountConcurrency` runs of an account across the fleet. */
export function claimer(
  cx: FleetContext,
  worker: string,
  accountConcurrency: number,
): (runId: string) => Promise<Claim> {
  const t = cx.tables;
  // The account's run limit, held at claim time in PostgreSQL (pg-boss's groupConcurrency only
  // thins the fetches: workers in different processes fetching at one moment each see room). Under
  // a transaction-scoped advisory lock on the account, count its runs running elsewhere whose jobs
  // are active with a live heartbeat (a dead worker's run does not hold a slot), and mark this one
  // running only below the limit. A refused run keeps its job (its stack's order is kept, no retry
  // is spent) and is tried again when a run finishes or a second passes; a retried run of a dead
  // worker goes back to queued while it waits, so it holds no slot either.
  // A run of a stack with no account (or expired while queued) is claimed in one statement, which
  // also announces it (run_started, when not expired): its NOTIFY goes out when the claim commits.
  const claimFast = async (runId: string): Promise<Claimed | undefined> => {
    const r = await cx.pool.query<Claimed>(
      prepared(
        `WITH c AS (
         UPDATE ${t.runs} r SET status = 'running', started_at = clock_timestamp(), worker = $2, attempts = attempts + 1
         FROM ${t.stacks} s WHERE r.id = $1 AND r.status IN ('queued', 'running') AND s.name = r.stack
           AND (s.account IS NULL OR (r.queued_at < clock_timestamp() - $3 * interval '1 millisecond' AND r.attempts = 0))
         RETURNING r.id, r.stack, s.account, r.kind, s.module, r.attempts, r.plan_run, r.cancel_requested,
           r.queued_at < clock_timestamp() - $3 * interval '1 millisecond' AND r.attempts = 1 AS expired)
       SELECT c.stack, c.account, c.kind, c.module, c.attempts, c.cancel_requested, c.expired,
         (SELECT p.saved_plan FROM ${t.runs} p WHERE p.id = c.plan_run) AS saved,
         CASE WHEN NOT c.expired THEN pg_notify($4, json_build_object('type', 'run_started', 'runId', c.id, 'stack', c.stack,
           'kind', c.kind, 'worker', $2::text, 'attempt', c.attempts,
           'at', to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))::text) END IS NOT NULL AS notified
       FROM c`,
        [runId, worker, cx.settings.queuedMaxAgeMs, t.channel],
      ),
    );
    return r.rows[0];
  };

  const claim = async (
    runId: string,
  ): Promise<Claimed | { full: { account: string; stack: string; running: number } } | undefined> => {
    const fast = await claimFast(runId);
    if (fast) return fast;
    const db = await cx.pool.connect();
    try {
      await db.query('BEGIN');
      const a = await db.query<{ account: string | null; stack: string; expired: boolean }>(
        `SELECT s.account, r.stack, r.queued_at < clock_timestamp() - $2 * interval '1 millisecond' AND r.attempts = 0 AS expired
         FROM ${t.runs} r JOIN ${t.stacks} s ON s.name = r.stack WHERE r.id = $1 AND r.status IN ('queued', 'running')`,
        [runId, cx.settings.queuedMaxAgeMs],
      );
      const account = a.rows[0]?.account ?? null;
      if (account !== null && !a.rows[0]!.expired) {
        await db.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`${t.schema}:account:${account}`]);
        const n = await db.query<{ running: number }>(
          `SELECT count(*)::int AS running FROM ${t.runs} r JOIN ${t.stacks} s ON s.name = r.stack
           WHERE s.account = $2 AND r.status = 'running' AND r.id <> $1
             AND (r.job_id IS NULL OR EXISTS (SELECT 1 FROM "${t.queueSchema}".job j
               WHERE j.name = $3 AND j.id = r.job_id::uuid AND j.state = 'active'
                 AND (j.heartbeat_on IS NULL OR j.heartbeat_seconds IS NULL
                   OR j.heartbeat_on >= clock_timestamp() - j.heartbeat_seconds * interval '1 second')))`,
          [runId, account, RUNS_QUEUE],
        );
        const running = n.rows[0]!.running;
        if (running >= accountConcurrency) {
          await db.query(`UPDATE ${t.runs} SET status = 'queued', worker = NULL WHERE id = $1 AND status = 'running'`, [
            runId,
          ]);
          await db.query('COMMIT');
          return { full: { account, stack: a.rows[0]!.stack, running } };
        }
      }
      const r = await db.query<Claimed>(
        `UPDATE ${t.runs} r SET status = 'running', started_at = clock_timestamp(), worker = $2, attempts = attempts + 1
         FROM ${t.stacks} s WHERE r.id = $1 AND r.status IN ('queued', 'running') AND s.name = r.stack
         RETURNING r.stack, s.account, r.kind, s.module, r.attempts, r.cancel_requested,
           (SELECT p.saved_plan FROM ${t.runs} p WHERE p.id = r.plan_run) AS saved,
           r.queued_at < clock_timestamp() - $3 * interval '1 millisecond' AND r.attempts = 1 AS expired`,
        [runId, worker, cx.settings.queuedMaxAgeMs],
      );
      await db.query('COMMIT');
      return r.rows[0];
    } catch (e) {
      await db.query('ROLLBACK').catch(() => {});
      throw e;
    } finally {
      db.release();
    }
  };

  return claim;
}
