// What a provider operation receives: its configuration, the step's AbortSignal (timeout combined
// with the caller's), and a way to report polls, retries and warnings as events.
import type { RetryPolicy } from './retry-policy.js';

export type OperationKind = 'create' | 'read' | 'update' | 'delete' | 'find' | 'import' | 'lookup';

export type Report =
  | { readonly kind: 'poll'; readonly attempt: number; readonly message: string }
  | { readonly kind: 'progress'; readonly message: string }
  | { readonly kind: 'retry'; readonly attempt: number; readonly retriesLeft: number; readonly delayMs: number; readonly error: string }
  | { readonly kind: 'warning'; readonly message: string };

export type OperationContext<C = unknown> = {
  /** The provider's resolved configuration (clients live here). */
  readonly config: C;
  readonly provider: string;
  /** The resource's address (its name), or the lookup token. */
  readonly address: string;
  readonly token: string;
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
