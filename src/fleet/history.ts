// Reading the fleet: runs from the history (by stack, status, time) and each stack's status (its
// settings, last run, last drift check, queue length, paused or failed).
import type { FleetContext } from './context.js';
import { RUN_COLUMNS, runOf, type Run, type RunRow, type RunStatus } from './run.js';

/** Filters of {@link Fleet.runs}; newest first. */
export type RunsQuery = {
  readonly stack?: string;
  readonly status?: RunStatus | readonly RunStatus[];
  /** Runs queued at or after this time. */
  readonly since?: Date | string;
  /** At most this many; default 100. */
  readonly limit?: number;
};

/** One stack as {@link Fleet.status} reports it. */
export type StackStatus = {
  readonly name: string;
  readonly module: string;
  readonly account: string | null;
  readonly driftCron: string | null;
  readonly onDrift: 'report' | 'plan' | 'apply';
  /** Paused by itself (the fleet's pause is `FleetStatus.paused`). */
  readonly paused: boolean;
  /** The failed run that holds the stack's queue until resume, if any. */
  readonly failedRunId: string | null;
  readonly running: boolean;
  /** Runs waiting (queued, not yet started). */
  readonly queueLength: number;
  readonly lastRun: Run | null;
  /** The last finished drift check: when, and whether it found drift. */
  readonly drift: { readonly runId: string; readonly checkedAt: string; readonly found: boolean } | null;
  /** The last drift check the schedule skipped: when, and why (busy, paused or failed). */
  readonly driftSkipped: { readonly at: string; readonly reason: 'busy' | 'paused' | 'failed' } | null;
};

export type FleetStatus = { readonly paused: boolean; readonly stacks: readonly StackStatus[] };

export async function queryRuns(cx: FleetContext, q: RunsQuery = {}): Promise<Run[]> {
  const where: string[] = [];
  const args: unknown[] = [];
  if (q.stack !== undefined) where.push(`stack = $${args.push(q.stack)}`);
  if (q.status !== undefined)
    where.push(`status = ANY($${args.push(typeof q.status === 'string' ? [q.status] : [...q.status])})`);
  if (q.since !== undefined) where.push(`queued_at >= $${args.push(new Date(q.since))}`);
  const limit = q.limit ?? 100;
  const r = await cx.pool.query<RunRow>(
    `SELECT ${RUN_COLUMNS} FROM ${cx.tables.runs} ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
     ORDER BY queued_at DESC, id LIMIT $${args.push(limit)}`,
    args,
  );
  return r.rows.map(runOf);
}

export async function queryRun(cx: FleetContext, runId: string): Promise<Run | undefined> {
  if (!/^[0-9a-f-]{36}$/i.test(runId)) return undefined;
  const r = await cx.pool.query<RunRow>(`SELECT ${RUN_COLUMNS} FROM ${cx.tables.runs} WHERE id = $1`, [runId]);
  return r.rows[0] ? runOf(r.rows[0]) : undefined;
}

type StatusRow = {
  name: string;
  module: string;
  account: string | null;
  drift_cron: string | null;
  on_drift: 'report' | 'plan' | 'apply';
  paused: boolean;
  failed_run: string | null;
  queued: string;
  running: string;
  last_id: string | null;
  drift_id: string | null;
  drift_at: Date | null;
  drift_found: boolean | null;
  drift_skipped_at: Date | null;
  drift_skipped: 'busy' | 'paused' | 'failed' | null;
};

export async function queryStatus(cx: FleetContext): Promise<FleetStatus> {
  const t = cx.tables;
  const r = await cx.pool.query<StatusRow>(
    `SELECT s.name, s.module, s.account, s.drift_cron, s.on_drift, s.paused, s.failed_run, s.drift_skipped_at, s.drift_skipped,
       (SELECT count(*) FROM ${t.runs} r WHERE r.stack = s.name AND r.status = 'queued') AS queued,
       (SELECT count(*) FROM ${t.runs} r WHERE r.stack = s.name AND r.status = 'running') AS running,
       (SELECT id FROM ${t.runs} r WHERE r.stack = s.name ORDER BY queued_at DESC LIMIT 1) AS last_id,
       d.id AS drift_id, d.finished_at AS drift_at, d.drift_found
     FROM ${t.stacks} s LEFT JOIN LATERAL (SELECT id, finished_at, drift_found FROM ${t.runs} r
       WHERE r.stack = s.name AND r.kind = 'refresh-only' AND r.status = 'succeeded' ORDER BY finished_at DESC LIMIT 1) d ON true
     ORDER BY s.name`,
  );
  const ids = r.rows.flatMap((x) => (x.last_id ? [x.last_id] : []));
  const last = new Map<string, Run>();
  if (ids.length > 0) {
    const runs = await cx.pool.query<RunRow>(`SELECT ${RUN_COLUMNS} FROM ${t.runs} WHERE id = ANY($1)`, [ids]);
    for (const x of runs.rows) last.set(x.id, runOf(x));
  }
  const flag = await cx.pool.query<{ value: boolean }>(`SELECT value FROM ${t.flags} WHERE name = 'paused'`);
  return {
    paused: flag.rows[0]?.value === true,
    stacks: r.rows.map((x) => ({
      name: x.name,
      module: x.module,
      account: x.account,
      driftCron: x.drift_cron,
      onDrift: x.on_drift,
      paused: x.paused,
      failedRunId: x.failed_run,
      running: Number(x.running) > 0,
      queueLength: Number(x.queued),
      lastRun: (x.last_id && last.get(x.last_id)) || null,
      drift:
        x.drift_id && x.drift_at
          ? { runId: x.drift_id, checkedAt: x.drift_at.toISOString(), found: x.drift_found === true }
          : null,
      driftSkipped:
        x.drift_skipped_at && x.drift_skipped
          ? { at: x.drift_skipped_at.toISOString(), reason: x.drift_skipped }
          : null,
    })),
  };
}
