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
import { claimer, type Claimed } from './claim.js';
import { driftTick, followDrift } from './drift.js';
import { sweep } from './sweep.js';
import { accountBudget, accountLimit } from './budget.js';
import { withSharedBudget } from '../engine/provider/shared-budget.js';
import { prepared } from '../state/stores/postgres-schema.js';

/** Options of {@link Fleet.work}. */
export type WorkOptions = {
  /**
   * Runs at once in this process; default 4, at most 1,000. Independent of the pool's size: a run
   * holds no connection of its own (its stack's lock is on the worker's one lock connection), and
   * its statements take turns on the pool's connections.
   */
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

const MAX_CONCURRENCY = 1000;

export async function runWorker(cx: FleetContext, options: WorkOptions): Promise<void> {
  const concurrency = options.concurrency ?? 4;
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > MAX_CONCURRENCY)
    throw new TypeError(`Expected \`concurrency\` to be an integer from 1 to ${MAX_CONCURRENCY}`);
  const accountConcurrency = options.accountConcurrency ?? 4;
  if (!Number.isInteger(accountConcurrency) || accountConcurrency < 1)
    throw new TypeError('Expected `accountConcurrency` to be an integer from 1 and up');
  const worker = `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
  const stop = options.stopSignal ?? new AbortController().signal;
  const abort = options.signal ?? new AbortController().signal;
  const running = new Map<string, AbortController>();
  const cancelled = new Set<string>();
  /** Runs this worker finished, until their run_finished event comes back (its own loop fetches again, no idle loop is woken). */
  const finishedHere = new Set<string>();
  const cancel = (runId: string) => {
    cancelled.add(runId);
    running.get(runId)?.abort();
  };
  const wake = { idle: () => {} };
  const offControl = await cx.hub.onControl((m) => (m.control === 'cancel' ? cancel(m.runId) : wake.idle()));
  const onAbort = () => running.forEach((c) => c.abort());
  abort.addEventListener('abort', onAbort);
  const boss: PgBoss = await openQueue(cx.pool, cx.hub, cx.tables, cx.settings, 'worker', (e) =>
    cx.hub.local({ type: 'queue_error', message: e.message }),
  );
  const t = cx.tables;

  const claim = claimer(cx, worker, accountConcurrency);

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
    // run claimed again by another worker, whose outcome is the one that counts. One statement: the
    // run's row, its stack held by a failure, and the run_finished event (sent when it commits).
    const [channel, payload] = cx.hub.message({
      type: 'run_finished',
      runId,
      stack: c.stack,
      kind: c.kind,
      status: o.status,
      ...(x.errorCode ? { errorCode: x.errorCode } : {}),
    });
    finishedHere.add(runId);
    const r = await cx.pool
      .query(
        prepared(
          `WITH u AS (
         UPDATE ${t.runs} SET status = $2, finished_at = clock_timestamp(), summary = $3, plan_json = $4, saved_plan = $5,
           error_code = $6, error_message = $7, drift_found = $8, drift = $9
         WHERE id = $1 AND status = 'running' AND attempts = $10 RETURNING id),
       held AS (UPDATE ${t.stacks} SET failed_run = $1 WHERE name = $11 AND $12::boolean AND EXISTS (SELECT 1 FROM u))
       SELECT pg_notify($13, $14) FROM u`,
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
            c.stack,
            x.blocking === true,
            channel,
            payload,
          ],
        ),
      )
      .catch((e: unknown) => {
        finishedHere.delete(runId);
        throw e;
      });
    if (r.rowCount === 0) finishedHere.delete(runId);
    return r.rowCount !== 0;
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
      if (c.cancel_requested) cancel(runId);
      if (!c.notified)
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

  // One fetch loop per run slot, each its own work() so a loop knows its id: a loop that finished a
  // run fetches again at once (notified by its own handler), instead of waiting out the polling
  // interval, so a backlog drains back to back. Idle loops poll as a backstop only (NOTIFY brings new
  // jobs), less often the more loops there are: at most ~8 fetches a second while idle.
  const pollSeconds = Math.min(30, Math.max(1, Math.ceil(concurrency / 8)));
  const loops: string[] = [];
  for (let i = 0; i < concurrency; i++) {
    const self = { id: '' };
    self.id = await boss.work<RunJob>(
      RUNS_QUEUE,
      {
        localConcurrency: 1,
        batchSize: 1,
        groupConcurrency: accountConcurrency,
        perJobResults: true,
        pollingIntervalSeconds: pollSeconds,
        notifyPollingIntervalSeconds: pollSeconds,
      },
      async (jobs) => {
        try {
          return await Promise.all(jobs.map(async (j) => ({ id: j.id, status: await handle(j) })));
        } finally {
          boss.notifyWorker(self.id);
        }
      },
    );
    loops.push(self.id);
  }
  // Wakes one idle fetch loop (in turn, so a burst of events wakes different loops): for each run
  // queued anywhere (the event goes out when its transaction commits), a resume, and a run's end in
  // another process, which frees its stack's next run and an account slot (a run of this process:
  // its own loop fetches again). A wake that finds nothing (a run queued for later) costs one fetch.
  let turn = 0;
  const wakeIdle = () => {
    const idle = boss.getWipData().filter((w) => w.name === RUNS_QUEUE && w.state === 'active' && w.count === 0);
    const w = idle.length ? idle[turn++ % idle.length]!.id : loops[turn++ % loops.length]!;
    boss.notifyWorker(w);
  };
  wake.idle = wakeIdle;
  const offFinished = await cx.hub.on((e) => {
    if (e.type === 'run_queued') wakeIdle();
    if (e.type !== 'run_finished') return;
    if (!finishedHere.delete(e.runId)) setTimeout(wakeIdle, 100).unref();
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
