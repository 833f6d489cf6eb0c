// Housekeeping any worker does now and then (idempotent, so several at once do no harm): queued runs
// older than the fleet's limit expire (their jobs are cancelled); runs left "running" whose job the
// queue gave up on (their workers died more times than the retry limit) are recorded failed and hold
// their stack's queue; finished runs older than the retention are deleted.
import { RUNS_QUEUE } from './queue.js';
import type { FleetContext } from './context.js';

export async function sweep(cx: FleetContext): Promise<void> {
  const t = cx.tables;
  const expired = await cx.pool.query<{ id: string; stack: string; kind: string; job_id: string | null }>(
    `UPDATE ${t.runs} SET status = 'expired', finished_at = clock_timestamp()
     WHERE status = 'queued' AND attempts = 0 AND queued_at < clock_timestamp() - $1 * interval '1 millisecond'
     RETURNING id, stack, kind, job_id`,
    [cx.settings.queuedMaxAgeMs],
  );
  const jobs = expired.rows.flatMap((r) => (r.job_id ? [r.job_id] : []));
  if (jobs.length > 0) await cx.boss.cancel(RUNS_QUEUE, jobs);
  for (const r of expired.rows)
    await cx.hub.publish({
      type: 'run_finished',
      runId: r.id,
      stack: r.stack,
      kind: r.kind as never,
      status: 'expired',
    });
  // a run whose worker went silent long ago: ask the queue what became of its job
  const stale = await cx.pool.query<{ id: string; stack: string; kind: string; job_id: string }>(
    `SELECT id, stack, kind, job_id FROM ${t.runs} WHERE status = 'running' AND job_id IS NOT NULL
       AND started_at < clock_timestamp() - $1 * interval '1 second' LIMIT 100`,
    [cx.settings.heartbeatSeconds * 3],
  );
  for (const r of stale.rows) {
    const job = await cx.boss.getJobById(RUNS_QUEUE, r.job_id);
    if (job && (job.state === 'active' || job.state === 'retry' || job.state === 'created')) continue;
    const lost = await cx.pool.query(
      `UPDATE ${t.runs} SET status = 'failed', finished_at = clock_timestamp(), error_code = 'CONVERGE_FLEET_WORKER_LOST',
         error_message = 'its worker stopped answering more times than the retry limit allows' WHERE id = $1 AND status = 'running'`,
      [r.id],
    );
    if (lost.rowCount === 0) continue;
    await cx.pool.query(`UPDATE ${t.stacks} SET failed_run = $2 WHERE name = $1`, [r.stack, r.id]);
    await cx.hub.publish({
      type: 'run_finished',
      runId: r.id,
      stack: r.stack,
      kind: r.kind as never,
      status: 'failed',
      errorCode: 'CONVERGE_FLEET_WORKER_LOST',
    });
  }
  await cx.pool.query(`DELETE FROM ${t.runs} WHERE finished_at < clock_timestamp() - $1 * interval '1 millisecond'`, [
    cx.settings.retentionMs,
  ]);
}
