// The Event union: everything apply, refresh, plan and lookups report while they run. Events carry
// no secret values: messages from providers pass through redaction before they are emitted.
import type { Action } from './action.js';

/** Fields every event has. */
type Base = {
  /** When it happened, in milliseconds since the epoch (the engine's clock). */
  readonly at: number;
};

/** Fields every step event has. */
type StepBase = Base & {
  /** The resource's address (its name in the stack). */
  readonly address: string;
  /** What the step does to it. */
  readonly action: Action;
  /** The resource's type token, e.g. `provb:index/instance:Instance`. */
  readonly resourceType: string;
};

/** A step began: the provider is about to be called. */
export type StepStartEvent = StepBase & {
  /** Tells the events apart: always `'step_start'`. */
  readonly type: 'step_start';
};

/** A step finished and its result is in the state. */
export type StepFinishEvent = StepBase & {
  /** Tells the events apart: always `'step_finish'`. */
  readonly type: 'step_finish';
  /** How long the step took, retries and polls included. */
  readonly elapsedMs: number;
  /** The object's id after the step (absent for a delete or forget). */
  readonly id?: string;
};

/** A step failed; the resources that depend on it are skipped. */
export type StepFailEvent = StepBase & {
  /** Tells the events apart: always `'step_fail'`. */
  readonly type: 'step_fail';
  /** How long the step ran before it failed. */
  readonly elapsedMs: number;
  /** The first line of the error's message, with secrets redacted. */
  readonly error: string;
  /** The error's `code` when it is a {@link ConvergeError} (e.g. `CONVERGE_PROVIDER`, `CONVERGE_TIMEOUT`). */
  readonly code?: string;
};

/** Why a step did not run: a step it depends on failed, or the apply was stopped before it started. */
export type SkipReason =
  | {
      /** A step it waited for failed (or was itself skipped because of a failure). */
      readonly kind: 'dependency-failed';
      /** The address of the failed step. */
      readonly address: string;
    }
  | {
      /** The apply's stop signal fired before the step started. */
      readonly kind: 'stopped';
    };

/** A step was not run because a step it depends on failed (or the apply was stopped). */
export type StepSkipEvent = StepBase & {
  /** Tells the events apart: always `'step_skip'`. */
  readonly type: 'step_skip';
  /** Why: the failed step it waited for, or the stop. */
  readonly because: SkipReason;
};

/** A provider call failed with a transient error (429, 5xx, connection reset) and will be tried again. */
export type RetryEvent = Base & {
  /** Tells the events apart: always `'retry'`. */
  readonly type: 'retry';
  /** The resource's address; absent for a call of the provider as a whole (its credential check). */
  readonly address?: string;
  /** The provider operation being retried: `create`, `read`, `update`, `delete`, `find`, a lookup. */
  readonly operation: string;
  /** The attempt that failed, from 1. */
  readonly attempt: number;
  /** How many more attempts the retry policy allows. */
  readonly retriesLeft: number;
  /** How long the engine waits before the next attempt (Retry-After when the vendor sent one). */
  readonly delayMs: number;
  /** The failure's message, first line, secrets redacted. */
  readonly error: string;
  /** The HTTP status of the failed attempt, when an answer came (503, 429); absent for a refused connection. */
  readonly status?: number;
  /** Time since the operation began. */
  readonly elapsedMs: number;
};

/** A provider is waiting for an object to reach a state (building → active), one event per poll. */
export type PollEvent = Base & {
  /** Tells the events apart: always `'poll'`. */
  readonly type: 'poll';
  /** The resource's address. */
  readonly address: string;
  /** The provider operation that polls. */
  readonly operation: string;
  /** The poll's number, from 1. */
  readonly attempt: number;
  /** What the provider is waiting for and what it saw, secrets redacted. */
  readonly message: string;
  /** How long until the next look, when the poller says (the kit's `poll()` does). */
  readonly delayMs?: number;
  /** Time since the operation began. */
  readonly elapsedMs: number;
};

/**
 * The run waits for something other than the provider's own work: the vendor's rate limit (its
 * allowance is spent until the window resets, or a 429 asked to wait), or the state lock another
 * run holds. Retries and polls have their own events ({@link RetryEvent}, {@link PollEvent}).
 */
export type WaitEvent = Base & {
  /** Tells the events apart: always `'wait'`. */
  readonly type: 'wait';
  /** The resource whose request waits; absent when the run as a whole waits (the state lock). */
  readonly address?: string;
  /** The operation that waits: a provider operation, or the run's (`plan`, `apply`) for the lock. */
  readonly operation: string;
  /** What is awaited: `'rate_limit'` (the vendor's request allowance) or `'lock'` (the state lock). */
  readonly reason: 'rate_limit' | 'lock';
  /** How long the wait is expected to last (until the window resets, until the next try of the lock). */
  readonly waitMs: number;
  /** For people: what is awaited, for how long and why ("waiting for Civo's rate limit: 38s until the window resets"). */
  readonly message: string;
  /** Time since the operation began. */
  readonly elapsedMs: number;
};

/** A provider's own progress note during a long operation (`ctx.report({ kind: 'progress' })`). */
export type ProgressEvent = Base & {
  /** Tells the events apart: always `'progress'`. */
  readonly type: 'progress';
  /** The resource's address. */
  readonly address: string;
  /** The provider operation that reports. */
  readonly operation: string;
  /** The provider's message, secrets redacted. */
  readonly message: string;
  /** Time since the operation began. */
  readonly elapsedMs: number;
};

/** Something worth a person's attention that does not fail the run (a stale lock cleared, a deprecated input). */
export type WarningEvent = Base & {
  /** Tells the events apart: always `'warning'`. */
  readonly type: 'warning';
  /** The resource it concerns; absent for the run as a whole. */
  readonly address?: string;
  /** The warning, secrets redacted. */
  readonly message: string;
};

/** An apply began. */
export type ApplyStartEvent = Base & {
  /** Tells the events apart: always `'apply_start'`. */
  readonly type: 'apply_start';
  /** How many steps will run: the plan's steps but its no-ops (a move or refreshed outputs is recorded without a step line). */
  readonly steps: number;
  /** True when the plan is a destroy plan (the summary then says "Destroy complete!"). */
  readonly destroy?: boolean;
};

/** An apply ended, successfully or not; the counts match its {@link ApplyResult}, but for its no-ops (not counted). */
export type ApplyFinishEvent = Base & {
  /** Tells the events apart: always `'apply_finish'`. */
  readonly type: 'apply_finish';
  /** Steps that completed, no-ops not counted (as {@link ApplyStartEvent}'s `steps` does not count them). */
  readonly succeeded: number;
  /** Steps that failed. */
  readonly failed: number;
  /** Steps not run because something they depend on failed. */
  readonly skipped: number;
  /** How long the apply took. */
  readonly elapsedMs: number;
};

/** Refresh read one resource. */
export type RefreshEvent = Base & {
  /** Tells the events apart: always `'refresh'`. */
  readonly type: 'refresh';
  /** The resource's address. */
  readonly address: string;
  /** Whether it matched the state, had changed outside converge, or no longer exists. */
  readonly outcome: 'unchanged' | 'drifted' | 'gone';
  /** How long the read took. */
  readonly elapsedMs: number;
};

/**
 * Everything `plan`, `apply`, `refresh`, `destroy` and lookups report while they run, for progress
 * displays and logs; narrow on `type`. Events never carry secret values.
 *
 * @example
 * ```ts
 * import type { Event } from 'converge';
 * const log: string[] = [];
 * const onEvent = (e: Event) => {
 *   if (e.type === 'step_fail') log.push(`${e.address}: ${e.error} [${e.code ?? ''}]`);
 *   else if (e.type === 'retry') log.push(`${e.address}: retry ${e.attempt} in ${e.delayMs} ms`);
 * };
 * ```
 */
export type Event =
  | StepStartEvent
  | StepFinishEvent
  | StepFailEvent
  | StepSkipEvent
  | RetryEvent
  | PollEvent
  | WaitEvent
  | ProgressEvent
  | WarningEvent
  | ApplyStartEvent
  | ApplyFinishEvent
  | RefreshEvent;

/** The `type` of an {@link Event}: `'step_start'`, `'retry'`, `'apply_finish'`, … */
export type EventType = Event['type'];

/** A function that receives events (`ApplyOptions.onEvent`, `PlanOptions.onEvent`). It should return quickly. */
export type EventListener = (event: Event) => void;
