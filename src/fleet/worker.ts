// A worker: takes runs from the queue (pg-boss work() with batch 1, `concurrency` at once), claims
// each in the history (at most `accountConcurrency` runs of one account running across the fleet,
// counted under an advisory lock on the account at claim time; a run over it waits), carries it
// out and records the outcome. A failed run fails its job terminally, which holds its stack's queue
// (key_strict_fifo) until resume. Cancel messages abort a running run; stopSignal stops taking runs
// and sends the ones in flight back to the queue once their current steps finish; signal aborts them.
import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import type { Job, JobResult, PgBoss } from 'pg-boss';
import type { FleetContext } from './context.js';
import { DRIFT_QUEUE, RUNS_QUEUE, openQueue, type DriftJob, type RunJob } from './queue.js';
import { executeRun, type RunOutcome } from './execute.js';
import { driftTick, followDrift } from './drift.js';
import { sweep } from './sweep.js';
import type { RunKind } from './run.js';
import { accountBudget, accountLimit } from './budget.js';
import { withSharedBudget } from '../engine/provider/shared-budget.js';

/** Options of {@link Fleet.work}. */
export type WorkOptions = {
  /** Runs at once in this process; default 4. Each holds one pooled connection for its stack's lock. */
  readonly concurrency?: number;
  /** Runs of one account at once across the whole fleet (every worker); default 4. */
  readonly accountConcurrency?: number;
  /** Stops taking runs; runs in flight finish their current steps and go back to the queue. */
  readonly stopSignal?: AbortSignal;
  /** Aborts runs in flight (their pending records are resolved by the next run's recovery). */
  readonly signal?: AbortSignal;
  /** How often this worker expires old queued runs and trims the history, in ms; default 60 000. */
  readonly sweepIntervalMs?: number;
};

type Claimed = {
  stack: string;
  account: string | null;
  kind: RunKind;
  module: string;
  saved: string | null;
  attempts: number;
  expired: boolean;
};

export async function runWorker(cx: FleetContext, options: WorkOptions, poolSize: number): Promise<void> {
  const concurrency = options.concurrency ?? 4;
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > poolSize - 3)
    throw new TypeError(
      `Expected \`concurrency\` to be an integer from 1 to ${poolSize - 3} (the fleet's poolSize less 3)`,
    );
  const accountConcurrency = options.accountConcurrency ?? 4;
  if (!Number.isInteger(accountConcurrency) || accountConcurrency < 1)
    throw new TypeError('Expected `accountConcurrency` to be an integer from 1 and up');
  const worker = `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
  const stop = options.stopSignal ?? new AbortController().signal;
  const abort = options.signal ?? new AbortController().signal;
  const running = new Map<string, AbortController>();
  const cancelled = new Set<string>();
  const cancel = (runId: string) => {
    cancelled.add(runId);
    running.get(runId)?.abort();
  };
  const offControl = await cx.hub.onControl((m) => cancel(m.runId));
  const onAbort = () => running.forEach((c) => c.abort());
  abort.addEventListener('abort', onAbort);
  const boss: PgBoss = await openQueue(cx.pool, cx.tables, cx.settings, 'worker', (e) =>
    cx.hub.local({ type: 'queue_error', message: e.message }),
  );
  const t = cx.tables;

  // The account's run limit, held at claim time in PostgreSQL (pg-boss's groupConcurrency only
  // thins the fetches: workers in different processes fetching at one moment each see room). Under
  // a transaction-scoped advisory lock on the account, count its runs running elsewhere whose jobs
  // are active with a live heartbeat (a dead worker's run does not hold a slot), and mark this one
  // running only below the limit. A refused run keeps its job (its stack's order is kept, no retry
  // is spent) and is tried again when a run finishes or a second passes; a retried run of a dead
  // worker goes back to queued while it waits, so it holds no slot either.
  const claim = async (
    runId: string,
  ): Promise<Claimed | { full: { account: string; stack: string; running: number } } | undefined> => {
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
         RETURNING r.stack, s.account, r.kind, s.module, r.attempts,
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

  // a run of any stack finished (in any process): the runs waiting for their account's slot look again
  const slotWaiters = new Set<() => void>();
  const waitSlot = (job: Job<RunJob>): Promise<void> =>
    new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        slotWaiters.delete(done);
        for (const s of signals) s.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, 1000);
      const signals = [stop, abort, job.signal];
      slotWaiters.add(done);
      for (const s of signals) s.addEventListener('abort', done, { once: true });
    });

  /** Claims the run once its account has a free slot; undefined when there is nothing to run, 'stopped' when the wait was given up. */
  const claimInTurn = async (job: Job<RunJob>): Promise<Claimed | 'stopped' | undefined> => {
    const runId = job.data.runId;
    for (let waited = false; ; waited = true) {
      const c = await claim(runId);
      if (!c || !('full' in c)) return c;
      if (!waited)
        cx.hub.local({
          type: 'account_wait',
          account: c.full.account,
          stack: c.full.stack,
          runId,
          running: c.full.running,
          limit: accountConcurrency,
        });
      if (stop.aborted || abort.aborted || job.signal.aborted) return 'stopped';
      await waitSlot(job);
      if (stop.aborted || abort.aborted || job.signal.aborted) return 'stopped';
    }
  };

  const finish = async (
    runId: string,
    c: Claimed,
    o: (RunOutcome & { status: 'succeeded' | 'failed' | 'cancelled' }) | { status: 'expired' },
  ): Promise<boolean> => {
    const x = o as Partial<RunOutcome>;
    // only this attempt's outcome: a worker whose heartbeat lapsed (a stalled process) may find its
    // run claimed again by another worker, whose outcome is the one that counts
    const r = await cx.pool.query(
      `UPDATE ${t.runs} SET status = $2, finished_at = clock_timestamp(), summary = $3, plan_json = $4, saved_plan = $5,
         error_code = $6, error_message = $7, drift_found = $8, drift = $9
       WHERE id = $1 AND status = 'running' AND attempts = $10`,
      [
        runId,
        o.status,
        x.summary ? JSON.stringify(x.summary) : null,
        x.planJson === undefined ? null : JSON.stringify(x.planJson),
        x.savedPlan ?? null,
        x.errorCode ?? null,
        x.errorMessage ?? null,
        c.kind === 'refresh-only' && o.status === 'succeeded' ? (x.drift?.length ?? 0) > 0 : null,
        x.drift?.length ? JSON.stringify(x.drift) : null,
        c.attempts,
      ],
    );
    if (r.rowCount === 0) return false;
    if (x.blocking) await cx.pool.query(`UPDATE ${t.stacks} SET failed_run = $2 WHERE name = $1`, [c.stack, runId]);
    await cx.hub.publish({
      type: 'run_finished',
      runId,
      stack: c.stack,
      kind: c.kind,
      status: o.status,
      ...(x.errorCode ? { errorCode: x.errorCode } : {}),
    });
    return true;
  };

  const handle = async (job: Job<RunJob>): Promise<JobResult['status']> => {
    const runId = job.data.runId;
    const c = await claimInTurn(job);
    if (!c) return 'completed'; // cancelled or expired while queued, or unregistered
    if (c === 'stopped') return 'failed'; // the worker stops while the run waited for its account: back to the queue
    if (c.expired) {
      return (await finish(runId, c, { status: 'expired' })) ? 'completed' : 'failed';
    }
    const ctl = new AbortController();
    running.set(runId, ctl);
    if (abort.aborted) ctl.abort();
    try {
      const asked = await cx.pool.query<{ cancel_requested: boolean }>(
        `SELECT cancel_requested FROM ${t.runs} WHERE id = $1`,
        [runId],
      );
      if (asked.rows[0]?.cancel_requested) cancel(runId);
      await cx.hub.publish({ type: 'run_started', runId, stack: c.stack, kind: c.kind, worker, attempt: c.attempts });
      const limit = c.account === null ? undefined : await accountLimit(cx.pool, t, c.account);
      const budget =
        c.account !== null && limit
          ? accountBudget(cx.pool, t, c.account, limit, (waitMs) =>
              cx.hub.local({ type: 'budget_wait', account: c.account!, stack: c.stack, runId, waitMs }),
            )
          : undefined;
      const execute = (): ReturnType<typeof executeRun> =>
        executeRun({
          pool: cx.pool,
          schema: t.schema,
          stack: c.stack,
          module: c.module,
          kind: c.kind,
          savedPlan: c.saved,
          secretsPassphrase: cx.settings.secretsPassphrase,
          allowPlaintextSecrets: cx.settings.allowPlaintextSecrets,
          lockTimeoutMs: cx.settings.lockTimeoutMs,
          signal: AbortSignal.any([ctl.signal, job.signal]),
          stopSignal: stop,
        });
      const o = budget ? await withSharedBudget(budget, execute) : await execute();
      // stopped, or aborted by this worker's signal rather than cancelled: back to the queue, retried by another worker
      if (o.status === 'stopped' || (o.status === 'cancelled' && !cancelled.has(runId))) {
        await cx.pool.query(
          `UPDATE ${t.runs} SET status = 'queued', worker = NULL WHERE id = $1 AND status = 'running' AND attempts = $2`,
          [runId, c.attempts],
        );
        return 'failed';
      }
      // superseded: another worker claimed the run since; its job goes back to the queue's hands
      if (!(await finish(runId, c, o as RunOutcome & { status: 'succeeded' | 'failed' | 'cancelled' })))
        return 'failed';
      if (c.kind === 'refresh-only' && o.drift?.length)
        await followDrift(
          cx,
          c.stack,
          runId,
          o.drift.map((d) => d.address),
        );
      return o.blocking ? 'deadletter' : 'completed';
    } finally {
      running.delete(runId);
      cancelled.delete(runId);
    }
  };

  const runWorkerId = await boss.work<RunJob>(
    RUNS_QUEUE,
    {
      localConcurrency: concurrency,
      batchSize: 1,
      groupConcurrency: accountConcurrency,
      perJobResults: true,
      pollingIntervalSeconds: 1,
      notifyPollingIntervalSeconds: 1,
    },
    async (jobs) => Promise.all(jobs.map(async (j) => ({ id: j.id, status: await handle(j) }))),
  );
  // a run's end frees its stack's next run (and an account slot), which pg-boss's NOTIFY (sent for new
  // jobs only) does not announce: once the queue has settled the finished job, wake one idle fetch loop
  // of this process (work() returns only the first loop's id, which may be busy with a run)
  const wakeIdle = () => {
    const idle = boss.getWipData().find((w) => w.name === RUNS_QUEUE && w.state === 'active' && w.count === 0);
    boss.notifyWorker(idle?.id ?? runWorkerId);
  };
  const offFinished = await cx.hub.on((e) => {
    if (e.type !== 'run_finished') return;
    setTimeout(wakeIdle, 100).unref();
    for (const w of [...slotWaiters]) w();
  });
  // drift ticks in batches, fetched back to back while full: with one per fetch, pg-boss waits its
  // notify polling interval (30 s) between fetches, and a schedule firing for 1,000 stacks at once
  // would take hours to turn into runs
  await boss.work<DriftJob>(
    DRIFT_QUEUE,
    {
      localConcurrency: 1,
      batchSize: 25,
      burstWhenBatchFull: true,
      pollingIntervalSeconds: 2,
      notifyPollingIntervalSeconds: 2,
    },
    async (jobs) => {
      for (const j of jobs)
        await driftTick(cx, j.data.stack).catch((e: Error) =>
          cx.hub.local({ type: 'queue_error', message: e.message }),
        );
    },
  );
  const sweepEvery = options.sweepIntervalMs ?? 60_000;
  const sweeping = setInterval(
    () => void sweep(cx).catch((e: Error) => cx.hub.local({ type: 'queue_error', message: e.message })),
    sweepEvery,
  );
  await sweep(cx).catch(() => {});
  try {
    await new Promise<void>((resolve) => {
      if (stop.aborted || abort.aborted) resolve();
      stop.addEventListener('abort', () => resolve(), { once: true });
      abort.addEventListener('abort', () => resolve(), { once: true });
    });
    await boss.offWork(RUNS_QUEUE, { wait: true });
    await boss.offWork(DRIFT_QUEUE, { wait: true });
  } finally {
    clearInterval(sweeping);
    abort.removeEventListener('abort', onAbort);
    offControl();
    offFinished();
    await boss.stop({ graceful: true, close: false, timeout: 10_000 }).catch(() => {});
  }
}
