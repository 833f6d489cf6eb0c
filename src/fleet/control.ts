// An operator's hands on the queue: pause and resume a stack or the whole fleet (a paused stack's
// jobs are deferred in place, so they keep their order, and come forward on resume; resume also
// clears a failed run that held the stack's queue), cancel a queued or running run, approve a plan run.
import { inTransaction } from './pool.js';
import { PAUSED_UNTIL, RUNS_QUEUE } from './queue.js';
import { inTx, type FleetContext } from './context.js';
import { lockStack, queueLocked } from './enqueue.js';
import { NotApprovableError, UnknownRunError } from './errors.js';
import type { RunStatus } from './run.js';

async function stackNames(cx: FleetContext): Promise<string[]> {
  return (await cx.pool.query<{ name: string }>(`SELECT name FROM ${cx.tables.stacks} ORDER BY name`)).rows.map(
    (r) => r.name,
  );
}

/** Moves a stack's waiting jobs to `until` (pause), or to now (resume). */
async function defer(
  cx: FleetContext,
  c: Parameters<typeof inTransaction>[0],
  stack: string,
  until: Date,
): Promise<void> {
  await cx.boss.update(RUNS_QUEUE, undefined, {
    singletonKey: stack,
    match: 'all',
    startAfter: until,
    db: inTransaction(c),
  });
}

export async function pauseStack(cx: FleetContext, stack: string | undefined): Promise<void> {
  const t = cx.tables;
  if (stack === undefined) {
    await cx.pool.query(
      `INSERT INTO ${t.flags} (name, value) VALUES ('paused', 'true') ON CONFLICT (name) DO UPDATE SET value = 'true'`,
    );
    for (const name of await stackNames(cx))
      await inTx(cx.pool, async (c) => defer(cx, c, (await lockStack(cx, c, name)).name, PAUSED_UNTIL));
    return;
  }
  await inTx(cx.pool, async (c) => {
    await lockStack(cx, c, stack);
    await c.query(`UPDATE ${t.stacks} SET paused = true, updated_at = now() WHERE name = $1`, [stack]);
    await defer(cx, c, stack, PAUSED_UNTIL);
  });
}

export async function resumeStack(cx: FleetContext, stack: string | undefined): Promise<void> {
  const t = cx.tables;
  if (stack === undefined) {
    await cx.pool.query(`DELETE FROM ${t.flags} WHERE name = 'paused'`);
    for (const name of await stackNames(cx))
      await inTx(cx.pool, async (c) => {
        const s = await lockStack(cx, c, name);
        if (!s.paused) await defer(cx, c, name, new Date());
      });
    await cx.hub.publish({ control: 'wake' });
    return;
  }
  await inTx(cx.pool, async (c) => {
    const s = await lockStack(cx, c, stack);
    await c.query(`UPDATE ${t.stacks} SET paused = false, failed_run = NULL, updated_at = now() WHERE name = $1`, [
      stack,
    ]);
    // a failed job holds its key's successors: delete it (its run stays failed in the history)
    const failed = (await cx.boss.findJobs(RUNS_QUEUE, { key: stack, db: inTransaction(c) })).filter(
      (j) => j.state === 'failed',
    );
    if (failed.length > 0)
      await cx.boss.deleteJob(
        RUNS_QUEUE,
        failed.map((j) => j.id),
        { db: inTransaction(c) },
      );
    if (!s.fleet_paused) await defer(cx, c, stack, new Date());
    await cx.hub.publish({ control: 'wake' }, c);
  });
}

/** Cancels a queued run at once; asks a running one's worker to abort it. The run's status after the call. */
export async function cancelRun(cx: FleetContext, runId: string): Promise<RunStatus> {
  const t = cx.tables;
  if (!/^[0-9a-f-]{36}$/i.test(runId)) throw new UnknownRunError(runId);
  return inTx(cx.pool, async (c) => {
    const r = await c.query<{ status: RunStatus; job_id: string | null; stack: string; kind: string }>(
      `SELECT status, job_id, stack, kind FROM ${t.runs} WHERE id = $1 FOR UPDATE`,
      [runId],
    );
    const run = r.rows[0];
    if (!run) throw new UnknownRunError(runId);
    if (run.status === 'queued') {
      await c.query(`UPDATE ${t.runs} SET status = 'cancelled', finished_at = clock_timestamp() WHERE id = $1`, [
        runId,
      ]);
      if (run.job_id) await cx.boss.cancel(RUNS_QUEUE, run.job_id, { db: inTransaction(c) });
      await cx.hub.publish(
        { type: 'run_finished', runId, stack: run.stack, kind: run.kind as never, status: 'cancelled' },
        c,
      );
      return 'cancelled';
    }
    if (run.status === 'running') {
      await c.query(`UPDATE ${t.runs} SET cancel_requested = true WHERE id = $1`, [runId]);
      await cx.hub.publish({ control: 'cancel', runId }, c);
    }
    return run.status;
  });
}

/** Queues an apply of exactly the plan a succeeded plan run saved. */
export async function approveRun(cx: FleetContext, runId: string): Promise<string> {
  const t = cx.tables;
  if (!/^[0-9a-f-]{36}$/i.test(runId)) throw new UnknownRunError(runId);
  const r = await cx.pool.query<{ stack: string; kind: string; status: string; saved: boolean }>(
    `SELECT stack, kind, status, saved_plan IS NOT NULL AS saved FROM ${t.runs} WHERE id = $1`,
    [runId],
  );
  const run = r.rows[0];
  if (!run) throw new UnknownRunError(runId);
  if (run.kind !== 'plan') throw new NotApprovableError(runId, 'not_a_plan', run.kind, run.status);
  if (run.status !== 'succeeded') throw new NotApprovableError(runId, 'not_succeeded', run.kind, run.status);
  if (!run.saved) throw new NotApprovableError(runId, 'no_saved_plan', run.kind, run.status);
  return inTx(cx.pool, async (c) => {
    const s = await lockStack(cx, c, run.stack);
    return queueLocked(cx, c, s, 'apply', { origin: 'approve', planRunId: runId });
  });
}
