// Drift watch: each stack's cron schedule sends a tick to the drift queue, which a worker takes
// (Fleet.checkDrift takes one itself, at once); a tick queues a refresh-only run unless the stack
// is paused, failed or busy (a run queued or running), all
// decided under the stack's row lock, so a stack never has two drift checks at once; a skipped
// check is recorded on the stack (when, why) and is an event. After a
// refresh-only run found drift, the stack's onDrift decides: report only, queue a plan, or queue an apply.
import { inTx, type FleetContext } from './context.js';
import { lockStack, queueLocked, enqueueRun } from './enqueue.js';
import type { DriftSkippedEvent } from './events.js';
import { UnknownStackError } from './errors.js';
import { prepared } from '../state/stores/postgres-schema.js';

/** Handles one tick: the run queued, or why none was. */
export async function driftTick(
  cx: FleetContext,
  stack: string,
): Promise<{ readonly runId: string } | { readonly skipped: DriftSkippedEvent['reason'] | 'gone' }> {
  const t = cx.tables;
  const out = await inTx(cx.pool, async (c) => {
    let s;
    try {
      s = await lockStack(cx, c, stack);
    } catch (e) {
      if (e instanceof UnknownStackError) return 'gone' as const;
      throw e;
    }
    if (s.paused || s.fleet_paused) return 'paused' as const;
    if (s.failed_run) return 'failed' as const;
    const open = await c.query(
      prepared(`SELECT 1 FROM ${t.runs} WHERE stack = $1 AND status IN ('queued', 'running') LIMIT 1`, [stack]),
    );
    if (open.rows.length > 0) return 'busy' as const;
    const delayMs = Math.floor(Math.random() * s.drift_jitter_s * 1000);
    return { runId: await queueLocked(cx, c, s, 'refresh-only', { origin: 'drift', delayMs }) };
  });
  if (typeof out === 'object') return out;
  if (out !== 'gone') {
    await cx.pool.query(
      `UPDATE ${t.stacks} SET drift_skipped_at = clock_timestamp(), drift_skipped = $2 WHERE name = $1`,
      [stack, out],
    );
    await cx.hub.publish({ type: 'drift_skipped', stack, reason: out });
  }
  return { skipped: out };
}

/** After a refresh-only run found drift: records nothing itself; queues the follow-up the stack asks for. */
export async function followDrift(
  cx: FleetContext,
  stack: string,
  runId: string,
  addresses: readonly string[],
): Promise<void> {
  const r = await cx.pool.query<{ on_drift: 'report' | 'plan' | 'apply' }>(
    `SELECT on_drift FROM ${cx.tables.stacks} WHERE name = $1`,
    [stack],
  );
  const then = r.rows[0]?.on_drift ?? 'report';
  const followUpRunId = then === 'report' ? undefined : await enqueueRun(cx, stack, then, { origin: 'drift-followup' });
  await cx.hub.publish({
    type: 'drift_found',
    runId,
    stack,
    addresses,
    then,
    ...(followUpRunId ? { followUpRunId } : {}),
  });
}
