// What a fleet tells listeners: runs queued, started and finished, drift found or a drift check
// skipped, and waits (a database refusing connections for capacity, a request held by its account's
// fleet-wide budget, a run held by its account's run limit). Run and drift events travel through
// PostgreSQL LISTEN/NOTIFY, so a listener in any process sees every worker's; waits and queue errors
// are this process's own.
import type { RunKind, RunStatus } from './run.js';

type Base = { readonly at: string };

/** A run was queued (enqueue, approve, a drift check, or a drift's follow-up). */
export type RunQueuedEvent = Base & {
  readonly type: 'run_queued';
  readonly runId: string;
  readonly stack: string;
  readonly kind: RunKind;
};
/** A worker started a run (`attempt` > 1: it is retried after its worker died or stopped). */
export type RunStartedEvent = Base & {
  readonly type: 'run_started';
  readonly runId: string;
  readonly stack: string;
  readonly kind: RunKind;
  readonly worker: string;
  readonly attempt: number;
};
/** A run ended: succeeded, failed (with the error's code), cancelled or expired. */
export type RunFinishedEvent = Base & {
  readonly type: 'run_finished';
  readonly runId: string;
  readonly stack: string;
  readonly kind: RunKind;
  readonly status: RunStatus;
  readonly errorCode?: string;
};
/** A refresh-only run found objects changed outside converge; `addresses` names them, `then` what the stack's onDrift did. */
export type DriftFoundEvent = Base & {
  readonly type: 'drift_found';
  readonly runId: string;
  readonly stack: string;
  readonly addresses: readonly string[];
  readonly then: 'report' | 'plan' | 'apply';
  readonly followUpRunId?: string;
};
/** A scheduled drift check was not queued: the stack is busy (a run queued or running), paused, or failed. */
export type DriftSkippedEvent = Base & {
  readonly type: 'drift_skipped';
  readonly stack: string;
  readonly reason: 'busy' | 'paused' | 'failed';
};
/** The database refused a connection for capacity (SQLSTATE 53300, too many clients): this process waits `delayMs` and asks again. */
export type ConnectionWaitEvent = Base & {
  readonly type: 'connection_wait';
  readonly attempt: number;
  readonly delayMs: number;
};
/** A request of a run waited `waitMs` for its account's fleet-wide budget (this process's runs only). */
export type BudgetWaitEvent = Base & {
  readonly type: 'budget_wait';
  readonly account: string;
  readonly stack: string;
  readonly runId: string;
  readonly waitMs: number;
};
/** A run was not started because `running` runs of its account were running across the fleet (its `limit`, the worker's `accountConcurrency`): it keeps its place and starts when one finishes (this process's runs only). */
export type AccountWaitEvent = Base & {
  readonly type: 'account_wait';
  readonly account: string;
  readonly stack: string;
  readonly runId: string;
  readonly running: number;
  readonly limit: number;
};
/** The job queue reported an error (a lost connection it will retry, a failed maintenance pass). */
export type QueueErrorEvent = Base & { readonly type: 'queue_error'; readonly message: string };

export type FleetEvent =
  | RunQueuedEvent
  | RunStartedEvent
  | RunFinishedEvent
  | DriftFoundEvent
  | DriftSkippedEvent
  | ConnectionWaitEvent
  | BudgetWaitEvent
  | AccountWaitEvent
  | QueueErrorEvent;
export type FleetEventListener = (event: FleetEvent) => void;

/** Omits a union member's `at`, keeping the union. */
export type EventInput = FleetEvent extends infer E ? (E extends FleetEvent ? Omit<E, 'at'> : never) : never;
