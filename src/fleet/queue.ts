// The fleet's job queue: pg-boss over the fleet's pool. One queue of runs with the key_strict_fifo
// policy and the stack's name as key (one active run per stack, in the order queued; a run that is
// active, retrying or failed holds its successors back), heartbeats (a dead worker's run is retried
// elsewhere), group concurrency per account (it thins fetches only: the limit is held at claim time,
// see worker.ts), and one queue of drift ticks fed by cron schedules. Runs are announced by the
// fleet's own events (run_queued), not pg-boss's NOTIFY: a worker wakes one idle fetch loop for each.
import type { PgBoss } from 'pg-boss';
import type pg from 'pg';
import { bossDatabase } from './pool.js';
import type { FleetTables } from './schema.js';
import type { EventHub } from './hub.js';

export const RUNS_QUEUE = 'converge-runs';
export const DRIFT_QUEUE = 'converge-drift';
/** A paused stack's jobs wait until this (then resume moves them to now): their order is kept. */
export const PAUSED_UNTIL = new Date('9999-01-01T00:00:00Z');

/** How the queue treats runs; the same in every process of one fleet. */
export type QueueSettings = {
  /** A running run's worker beats this often (x 0.5); one silent for this long is presumed dead and its run retried. */
  readonly heartbeatSeconds: number;
  /** How many times a run whose worker died (or stopped) is started again. */
  readonly retryLimit: number;
  /** How often the queue's supervisor looks for dead workers' runs and expired jobs, in seconds. */
  readonly superviseSeconds: number;
  /** How long a queued run may wait before it expires, in ms. */
  readonly queuedMaxAgeMs: number;
};

/** Job data: the run to do. */
export type RunJob = { readonly runId: string };
export type DriftJob = { readonly stack: string };

/** Starts pg-boss over `pool`: a worker supervises and runs schedules; a client only sends and edits jobs. */
export async function openQueue(
  pool: pg.Pool,
  hub: EventHub,
  tables: FleetTables,
  settings: QueueSettings,
  role: 'client' | 'worker',
  onError: (e: Error) => void,
): Promise<PgBoss> {
  const worker = role === 'worker';
  // Loaded here, when a fleet opens: pg-boss is about 100 ms of module loading that every
  // `converge` command (which can open a fleet) and every library user would pay otherwise.
  const { PgBoss } = await import('pg-boss');
  const boss = new PgBoss({
    db: bossDatabase(pool, hub),
    schema: tables.queueSchema,
    useListenNotify: worker,
    supervise: worker,
    schedule: worker,
    superviseIntervalSeconds: settings.superviseSeconds,
    monitorIntervalSeconds: settings.superviseSeconds,
    cronWorkerIntervalSeconds: Math.max(1, Math.min(30, settings.superviseSeconds)),
    registerInstance: worker,
    openTelemetry: { enabled: false },
  });
  boss.on('error', onError);
  await boss.start();
  const keep = Math.ceil(settings.queuedMaxAgeMs / 1000) + 86_400;
  await boss.createQueue(RUNS_QUEUE, {
    policy: 'key_strict_fifo',
    heartbeatSeconds: settings.heartbeatSeconds,
    retryLimit: settings.retryLimit,
    retryDelay: 0,
    expireInSeconds: 24 * 3600, // a run's whole time; the heartbeat says sooner when its worker is gone
    retentionSeconds: keep,
    deleteAfterSeconds: 7 * 86_400,
    // no NOTIFY per job: it wakes every fetch loop of every worker at once (a worker of concurrency 50
    // made 50 fetches per queued run); workers wake one idle loop per run_queued event instead (worker.ts)
    notify: false,
  });
  if (worker) await boss.updateQueue(RUNS_QUEUE, { notify: false }); // a fleet made by an older version
  await boss.createQueue(DRIFT_QUEUE, { policy: 'standard', retryLimit: 1, notify: true, deleteAfterSeconds: 3600 });
  return boss;
}
