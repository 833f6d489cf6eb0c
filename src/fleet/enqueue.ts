// Queuing a run: its row in the history and its job in the queue, in one transaction holding the
// stack's row (so a pause, a drift check or another enqueue of the stack waits for it). A paused
// stack's (or paused fleet's) job is deferred to PAUSED_UNTIL: it keeps its place, and resume brings it forward.
import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { inTransaction } from './pool.js';
import { prepared } from '../state/stores/postgres-schema.js';
import { PAUSED_UNTIL, RUNS_QUEUE, type RunJob } from './queue.js';
import { inTx, type FleetContext } from './context.js';
import { UnknownStackError } from './errors.js';
import type { RunKind } from './run.js';

/** The stack's row as a transaction holds it. */
export type LockedStack = {
  name: string;
  account: string | null;
  paused: boolean;
  fleet_paused: boolean;
  failed_run: string | null;
  on_drift: 'report' | 'plan' | 'apply';
  /** Up to how many seconds a drift check waits before it starts (spreads a schedule's checks). */
  drift_jitter_s: number;
};

export type QueueOptions = {
  readonly origin: string;
  readonly planRunId?: string;
  /** Start no sooner than this many ms from now (drift jitter). */
  readonly delayMs?: number;
};

/** Locks the stack's row for the transaction. @throws UnknownStackError */
export async function lockStack(cx: FleetContext, c: pg.PoolClient, stack: string): Promise<LockedStack> {
  const t = cx.tables;
  const r = await c.query<LockedStack>(
    prepared(
      `SELECT name, account, paused, failed_run, on_drift, drift_jitter_s,
       COALESCE((SELECT value = 'true'::jsonb FROM ${t.flags} WHERE name = 'paused'), false) AS fleet_paused
     FROM ${t.stacks} WHERE name = $1 FOR UPDATE`,
      [stack],
    ),
  );
  if (!r.rows[0]) throw new UnknownStackError(stack);
  return r.rows[0];
}

/** The queue group of a stack: its account (limited across the fleet), else the stack alone. */
export const groupOf = (s: { name: string; account: string | null }) => s.account ?? `stack:${s.name}`;

/** Queues a run of a stack whose row `c`'s transaction holds. */
export async function queueLocked(
  cx: FleetContext,
  c: pg.PoolClient,
  s: LockedStack,
  kind: RunKind,
  options: QueueOptions,
): Promise<string> {
  const t = cx.tables;
  // The ids are made here, so the run's row, its job's id and the run_queued event (sent when the
  // transaction commits) are one statement, and the job one more: two round trips, not four.
  const runId = randomUUID();
  const jobId = randomUUID();
  const [channel, payload] = cx.hub.message({ type: 'run_queued', runId, stack: s.name, kind });
  await c.query(
    prepared(
      `WITH r AS (INSERT INTO ${t.runs} (id, stack, kind, origin, plan_run, job_id) VALUES ($1, $2, $3, $4, $5, $6) RETURNING id)
     SELECT pg_notify($7, $8) FROM r`,
      [runId, s.name, kind, options.origin, options.planRunId ?? null, jobId, channel, payload],
    ),
  );
  const deferred = s.paused || s.fleet_paused;
  const startAfter = deferred ? PAUSED_UNTIL : options.delayMs ? new Date(Date.now() + options.delayMs) : undefined;
  const sent = await cx.boss.send(RUNS_QUEUE, { runId } satisfies RunJob, {
    id: jobId,
    singletonKey: s.name,
    group: { id: groupOf(s) },
    ...(startAfter ? { startAfter } : {}),
    db: inTransaction(c),
  });
  // pg-boss made no job (it answers null): the row says so, as it did when it took the answer's id
  if (sent !== jobId) await c.query(`UPDATE ${t.runs} SET job_id = $2 WHERE id = $1`, [runId, sent]);
  return runId;
}

/** Queues a run in a transaction of its own. @throws UnknownStackError */
export function enqueueRun(cx: FleetContext, stack: string, kind: RunKind, options: QueueOptions): Promise<string> {
  return inTx(cx.pool, async (c) => queueLocked(cx, c, await lockStack(cx, c, stack), kind, options));
}
