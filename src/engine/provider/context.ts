// What a provider operation receives: its configuration, the step's AbortSignal (timeout combined
// with the caller's), and a way to report polls, retries and warnings as events.
import type { RetryPolicy } from './retry-policy.js';

/** Which provider operation is running. */
export type OperationKind = 'create' | 'read' | 'update' | 'delete' | 'find' | 'import' | 'lookup' | 'verify';

/** What a provider reports through `ctx.report()`; the engine turns it into a {@link PollEvent}, {@link ProgressEvent}, {@link RetryEvent}, {@link WaitEvent} or {@link WarningEvent}. */
export type Report =
  | {
      /** A poll of an object's status (`kind: 'poll'`), a progress note, a retry, or a warning. */
      readonly kind: 'poll';
      /** The poll's or retry's number, from 1. */
      readonly attempt: number;
      /** For people: what is awaited, what happened. Secrets are scrubbed before it is emitted. */
      readonly message: string;
      /** How long until the next look. */
      readonly delayMs?: number;
    }
  | {
      /** A progress note. */
      readonly kind: 'progress';
      /** For people; secrets are scrubbed. */
      readonly message: string;
    }
  | {
      /** A retry of a transient failure. */
      readonly kind: 'retry';
      /** The attempt that failed, from 1. */
      readonly attempt: number;
      /** How many more attempts the policy allows. */
      readonly retriesLeft: number;
      /** The wait before the next attempt. */
      readonly delayMs: number;
      /** The failure being retried. */
      readonly error: string;
      /** The failed attempt's HTTP status, when an answer came. */
      readonly status?: number;
    }
  | {
      /** A wait on the vendor's rate limit (the HTTP kit's request budget holds the request). */
      readonly kind: 'wait';
      /** What is awaited. */
      readonly reason: 'rate_limit';
      /** How long the wait is expected to last. */
      readonly waitMs: number;
      /** For people: what is awaited, how long and why. */
      readonly message: string;
    }
  | {
      /** A warning about the operation. */
      readonly kind: 'warning';
      /** For people; secrets are scrubbed. */
      readonly message: string;
    };

/**
 * What every provider operation receives: the provider's configuration, the step's
 * `AbortSignal` (its timeout combined with the caller's), the retry policy and `report()` for
 * poll, progress, retry and warning events.
 */
export type OperationContext<C = unknown> = {
  /** The provider's resolved configuration (clients live here). */
  readonly config: C;
  /** The provider's name. */
  readonly provider: string;
  /** The resource's address (its name), or the lookup token. */
  readonly address: string;
  /** The resource's or lookup's token. */
  readonly token: string;
  /** Which operation this is. */
  readonly operation: OperationKind;
  /** Fires on the step's timeout or the caller's abort; every wait must honour it. */
  readonly signal: AbortSignal;
  /**
   * On `create` and `find`: an id unique to this create, the same in its recovery. A provider that
   * can tag, label or describe an object at creation writes it there so `find` can be exact.
   */
  readonly operationId?: string;
  /** The step's time limit in ms, when one is set (for TimeoutError facts). */
  readonly timeoutMs?: number;
  /**
   * The step's secret values (secret inputs, secret outputs of the prior object): the HTTP kit
   * scrubs them out of every error and event text, e.g. a vendor error body echoing the request.
   */
  readonly secrets?: readonly string[];
  /** How transient failures are retried (the engine's one mechanism, see apply/retry.ts). */
  readonly retry: RetryPolicy;
  /** Emits a poll, progress, retry or warning event for this operation. */
  report(report: Report): void;
};

/** A context for code that runs outside an engine (tests, simulators' clients): no events, no timeout. */
export function standaloneContext<C>(config: C, overrides: Partial<OperationContext<C>> = {}): OperationContext<C> {
  return {
    config,
    provider: 'standalone',
    address: '(standalone)',
    token: '',
    operation: 'read',
    signal: new AbortController().signal,
    retry: { retries: 4, minTimeoutMs: 10, maxTimeoutMs: 1000 },
    report: () => {},
    ...overrides,
  };
}
