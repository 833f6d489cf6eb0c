// Fleet: many stacks, many workers, one PostgreSQL. Stacks are registered with their module and
// settings; runs are queued per stack (FIFO, one at a time, pg-boss's key_strict_fifo), carried out
// by workers in any number of processes, and kept in a run history; drift is checked on each
// stack's schedule. Every wait is an event; nothing is printed and the process is never ended.
import type pg from 'pg';
import type { PgBoss } from 'pg-boss';
import { waitingPool } from './pool.js';
import { ensureFleetSchema, fleetTables } from './schema.js';
import { EventHub } from './hub.js';
import { DRIFT_QUEUE, openQueue, type DriftJob } from './queue.js';
import type { FleetContext, FleetSettings } from './context.js';
import { enqueueRun } from './enqueue.js';
import { driftTick } from './drift.js';
import { approveRun, cancelRun, pauseStack, resumeStack } from './control.js';
import { queryRun, queryRuns, queryStatus, type FleetStatus, type RunsQuery } from './history.js';
import { runWorker, type WorkOptions } from './worker.js';
import { loadStackModule, modulePath } from './stack-module.js';
import { ScheduleError, UnknownRunError, UnknownStackError } from './errors.js';
import { RUN_KINDS, type Run, type RunKind, type RunStatus } from './run.js';
import type { FleetEventListener } from './events.js';
import { setAccountLimit, type AccountLimit } from './budget.js';

/** Options of {@link Fleet.open}. Every process of one fleet gives the same `schema` and queue settings. */
export type FleetOptions = {
  /** The database; or give `pool`. */
  readonly connectionString?: string;
  /** A pool of your own (the fleet leaves it open on close); else the fleet makes one of `poolSize` connections. */
  readonly pool?: pg.Pool;
  /**
   * Connections of the pool the fleet makes; default 10, at least 4. A worker holds two of them (its
   * events' and queue's LISTEN; its runs' locks) and its runs' statements take turns on the rest, so
   * any `concurrency` works with any size; a larger pool serves more runs at once.
   */
  readonly poolSize?: number;
  /** Schema of the fleet's tables and its stacks' state (pg-boss uses `<schema>_queue`); default 'converge_fleet'. */
  readonly schema?: string;
  /** A queued run expires after this long, in ms; default 7 days. */
  readonly queuedMaxAgeMs?: number;
  /** Finished runs are kept this long, in ms; default 90 days. */
  readonly retentionMs?: number;
  /** A running run's worker silent this long is presumed dead (its run is retried), in s; default 30, at least 10. */
  readonly heartbeatSeconds?: number;
  /** How often dead workers are looked for, in s; default 10. */
  readonly superviseSeconds?: number;
  /** Times a run is started again after its worker died or stopped; default 5. */
  readonly retryLimit?: number;
  /** Seals saved plans' and states' secrets; default CONVERGE_SECRETS_PASSPHRASE. */
  readonly secretsPassphrase?: string;
  /** Save plans holding secrets in clear when no passphrase is set (else such a plan run fails). */
  readonly allowPlaintextSecrets?: boolean;
  /** How long a run waits for its stack's state lock (held by a run outside the fleet), in ms; default 60 000. */
  readonly lockTimeoutMs?: number;
};

/** A stack's registration: its module and settings. */
export type StackRegistration = {
  readonly name: string;
  /** The stack module's path (absolute, or relative to each worker's working directory). */
  readonly module: string;
  /** A cron expression (UTC): a drift check is queued on it. None: no schedule. */
  readonly driftCron?: string;
  /** Each drift check waits a random 0..jitter seconds, so stacks of one schedule do not all start at once. */
  readonly driftJitterSeconds?: number;
  /** What a drift found does: `report` (an event, the run records it; the default), queue a `plan`, or an `apply`. */
  readonly onDrift?: 'report' | 'plan' | 'apply';
  /** The provider account the stack uses: runs of one account are limited across the fleet. */
  readonly account?: string;
  readonly paused?: boolean;
};

const DAY = 86_400_000;

export class Fleet {
  readonly #cx: FleetContext;
  readonly #ownPool: boolean;
  readonly #closing: AbortController;

  private constructor(cx: FleetContext, ownPool: boolean, closing: AbortController) {
    this.#cx = cx;
    this.#ownPool = ownPool;
    this.#closing = closing;
  }

  /** Connects, makes the fleet's tables and the queue's on first use. @throws TypeError for bad options. */
  static async open(options: FleetOptions): Promise<Fleet> {
    if (!options?.pool && !options?.connectionString) throw new TypeError('Expected `connectionString` or `pool`');
    const tables = fleetTables(options.schema ?? 'converge_fleet');
    const poolSize = options.poolSize ?? 10;
    if (!Number.isInteger(poolSize) || poolSize < 4)
      throw new TypeError('Expected `poolSize` to be an integer from 4 and up');
    const heartbeatSeconds = options.heartbeatSeconds ?? 30;
    if (!Number.isInteger(heartbeatSeconds) || heartbeatSeconds < 10)
      throw new TypeError('Expected `heartbeatSeconds` to be an integer from 10 and up');
    const settings: FleetSettings = {
      heartbeatSeconds,
      retryLimit: options.retryLimit ?? 5,
      superviseSeconds: options.superviseSeconds ?? 10,
      queuedMaxAgeMs: options.queuedMaxAgeMs ?? 7 * DAY,
      retentionMs: options.retentionMs ?? 90 * DAY,
      secretsPassphrase: options.secretsPassphrase ?? process.env.CONVERGE_SECRETS_PASSPHRASE,
      allowPlaintextSecrets: options.allowPlaintextSecrets === true,
      lockTimeoutMs: options.lockTimeoutMs ?? 60_000,
    };
    const closing = new AbortController();
    const hub: { current?: EventHub } = {};
    const pool =
      options.pool ??
      waitingPool(
        { connectionString: options.connectionString, max: poolSize, application_name: 'converge-fleet' },
        (attempt, delayMs) => hub.current?.local({ type: 'connection_wait', attempt, delayMs }),
        closing.signal,
      );
    const h = (hub.current = new EventHub(pool, tables.channel));
    try {
      await ensureFleetSchema(pool, tables);
      const boss: PgBoss = await openQueue(pool, h, tables, settings, 'client', (e) =>
        h.local({ type: 'queue_error', message: e.message }),
      );
      return new Fleet({ pool, tables, boss, hub: h, settings }, !options.pool, closing);
    } catch (e) {
      if (!options.pool) await pool.end().catch(() => {});
      throw e;
    }
  }

  /**
   * Registers a stack, or updates its settings: the module is loaded once to check it, the drift
   * schedule checked and (re)made. @throws StackModuleError, ScheduleError; nothing is changed then.
   */
  async register(stack: StackRegistration): Promise<void> {
    if (typeof stack?.name !== 'string' || !/^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/.test(stack.name))
      throw new TypeError('Expected `name` to be 1-100 letters, digits, dots, dashes or underscores');
    const onDrift = stack.onDrift ?? 'report';
    if (!['report', 'plan', 'apply'].includes(onDrift))
      throw new TypeError("Expected `onDrift` to be 'report', 'plan' or 'apply'");
    const jitter = stack.driftJitterSeconds ?? 0;
    if (!Number.isInteger(jitter) || jitter < 0)
      throw new TypeError('Expected `driftJitterSeconds` to be an integer from 0 and up');
    if (stack.driftCron !== undefined) {
      try {
        this.#cx.boss.previewSchedule(stack.driftCron, { count: 1 });
      } catch (e) {
        throw new ScheduleError(stack.name, stack.driftCron, String((e as Error)?.message ?? e));
      }
    }
    await loadStackModule(stack.module);
    const t = this.#cx.tables;
    await this.#cx.pool.query(
      `INSERT INTO ${t.stacks} (name, module, drift_cron, drift_jitter_s, on_drift, account, paused) VALUES ($1, $2, $3, $4, $5, $6, $7)
       ON CONFLICT (name) DO UPDATE SET module = $2, drift_cron = $3, drift_jitter_s = $4, on_drift = $5, account = $6, updated_at = now()`,
      [
        stack.name,
        modulePath(stack.module),
        stack.driftCron ?? null,
        jitter,
        onDrift,
        stack.account ?? null,
        stack.paused === true,
      ],
    );
    if (stack.driftCron !== undefined)
      await this.#cx.boss.schedule(DRIFT_QUEUE, stack.driftCron, { stack: stack.name } satisfies DriftJob, {
        key: stack.name,
      });
    else await this.#cx.boss.unschedule(DRIFT_QUEUE, stack.name);
    if (stack.paused) await pauseStack(this.#cx, stack.name);
  }

  /**
   * Sets (or with `null` removes) an account's request limit across the fleet: every request of the
   * runs of its stacks, in every worker, draws from one token bucket in PostgreSQL, so N workers
   * together stay inside the vendor's limit; each wait is an event. The account's run concurrency
   * is the workers' `accountConcurrency`.
   */
  limitAccount(account: string, limit: AccountLimit | null): Promise<void> {
    return setAccountLimit(this.#cx.pool, this.#cx.tables, account, limit);
  }

  /** Removes a stack's registration and schedule (its state and run history stay). @throws UnknownStackError */
  async unregister(name: string): Promise<void> {
    const r = await this.#cx.pool.query(`DELETE FROM ${this.#cx.tables.stacks} WHERE name = $1`, [name]);
    if (r.rowCount === 0) throw new UnknownStackError(name);
    await this.#cx.boss.unschedule(DRIFT_QUEUE, name);
  }

  /** Queues a run; its plan is made when it starts. The run's id. @throws UnknownStackError */
  async enqueue(stack: string, kind: RunKind, options: { readonly origin?: string } = {}): Promise<string> {
    if (!RUN_KINDS.includes(kind)) throw new TypeError(`Expected \`kind\` to be one of ${RUN_KINDS.join(', ')}`);
    return enqueueRun(this.#cx, stack, kind, { origin: options.origin ?? 'enqueue' });
  }

  /** Queues an apply of exactly the plan run `runId` saved; a state that moved on since fails it with StalePlanError. The apply's run id. */
  approve(runId: string): Promise<string> {
    return approveRun(this.#cx, runId);
  }

  /** Cancels a queued run, or aborts a running one (through the engine's signal). The status after the call. @throws UnknownRunError */
  cancel(runId: string): Promise<RunStatus> {
    return cancelRun(this.#cx, runId);
  }

  /** Pauses one stack (its runs wait, in order), or the whole fleet when no name is given. */
  pause(stack?: string): Promise<void> {
    return pauseStack(this.#cx, stack);
  }

  /** Resumes one stack (also after a failed run held its queue), or the fleet. */
  resume(stack?: string): Promise<void> {
    return resumeStack(this.#cx, stack);
  }

  /**
   * Runs a stack's drift check now, as its schedule would (skipped when busy, paused or failed):
   * when this resolves, the refresh-only run is queued for the workers, or the skip is recorded and
   * told. The schedule's ticks go through the drift queue to a worker; this one is the same tick
   * taken here, without that queue's job and its round trips.
   */
  async checkDrift(stack: string): Promise<void> {
    const r = await driftTick(this.#cx, stack);
    if ('skipped' in r && r.skipped === 'gone') throw new UnknownStackError(stack);
  }

  /** Runs from the history, newest first. */
  runs(query?: RunsQuery): Promise<Run[]> {
    return queryRuns(this.#cx, query);
  }

  /** One run. @throws UnknownRunError */
  async run(runId: string): Promise<Run> {
    const r = await queryRun(this.#cx, runId);
    if (!r) throw new UnknownRunError(runId);
    return r;
  }

  /** Every stack: settings, last run, last drift check, queue length, paused, failed. */
  status(): Promise<FleetStatus> {
    return queryStatus(this.#cx);
  }

  /** Follows the fleet's events (every process's runs and drift, this process's waits). Returns the unsubscribe function. */
  on(listener: FleetEventListener): Promise<() => void> {
    return this.#cx.hub.on(listener);
  }

  /** Works runs until `stopSignal` (or `signal`) fires, then resolves once the runs in flight are done or back in the queue. */
  work(options: WorkOptions = {}): Promise<void> {
    return runWorker(this.#cx, options);
  }

  /** Stops listening and the queue client; ends the pool if the fleet made it. */
  async close(): Promise<void> {
    this.#closing.abort();
    await this.#cx.hub.close();
    await this.#cx.boss.stop({ graceful: false, close: false }).catch(() => {});
    if (this.#ownPool) await this.#cx.pool.end();
  }
}
