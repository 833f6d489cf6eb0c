// The one retry mechanism (the only caller of p-retry). It classifies failures as transient (HTTP 429
// and 5xx, connection resets, errors flagged retryable), waits with exponential back-off and jitter,
// honours Retry-After, wakes on abort, and reports each retry.
import pRetry, { AbortError } from 'p-retry';
import { ProviderError } from '../errors.js';
import { abortReason } from '../abort.js';

export { defaultRetryPolicy } from '../provider/retry-policy.js';
import { type RetryPolicy } from '../provider/retry-policy.js';

export type RetryInfo = {
  readonly attempt: number;
  readonly retriesLeft: number;
  readonly delayMs: number;
  readonly error: Error;
};

const NETWORK_CODES = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'EPIPE',
  'ETIMEDOUT',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'UND_ERR_CLOSED',
  'EAI_AGAIN',
]);

/** True for failures worth another attempt. */
export function isTransient(error: unknown): boolean {
  if (error instanceof ProviderError) return error.retryable;
  const code = (error as { code?: string } | null)?.code;
  if (code && NETWORK_CODES.has(code)) return true;
  const cause = (error as { cause?: { code?: string } } | null)?.cause;
  return !!cause?.code && NETWORK_CODES.has(cause.code);
}

/**
 * Runs `fn` until it succeeds, fails with a non-transient error, the retries run out, or `signal`
 * fires. `shouldRetry` can veto a retry (a create whose outcome is unknown, for example). The first
 * attempt runs directly; p-retry takes over only after a transient failure, so the common path
 * costs one call.
 */
export async function withRetry<T>(
  fn: (attempt: number) => Promise<T>,
  options: {
    readonly policy: RetryPolicy;
    readonly signal?: AbortSignal;
    readonly onRetry?: (info: RetryInfo) => void;
    readonly shouldRetry?: (error: Error) => boolean | Promise<boolean>;
  },
): Promise<T> {
  const { policy, signal } = options;
  let retryAfterMs: number | undefined;
  /** Throws an AbortError (stop, rethrow the original) unless the error deserves another attempt. */
  const classify = async (error: unknown): Promise<never> => {
    if (!isTransient(error)) throw new AbortError(error as Error);
    if (options.shouldRetry && !(await options.shouldRetry(error as Error))) throw new AbortError(error as Error);
    if (error instanceof ProviderError && error.retryAfterSeconds !== undefined) {
      retryAfterMs = Math.min(error.retryAfterSeconds * 1000, policy.maxRetryAfterMs ?? 60_000);
    }
    throw error;
  };
  let firstError: unknown;
  try {
    return await fn(1);
  } catch (error) {
    if (policy.retries <= 0 || signal?.aborted) throw error;
    try {
      await classify(error);
    } catch (e) {
      if (e instanceof AbortError) throw error;
      firstError = e;
    }
  }
  return pRetry(
    async (attempt) => {
      if (attempt === 1) throw firstError; // the first attempt already ran and was classified
      if (retryAfterMs !== undefined) {
        // p-retry has already waited its own back-off; wait the rest of what the vendor asked for.
        const extra = retryAfterMs - backoffFor(policy, attempt - 1);
        retryAfterMs = undefined;
        if (extra > 0) await sleep(extra, signal);
      }
      try {
        return await fn(attempt);
      } catch (error) {
        return classify(error);
      }
    },
    {
      retries: policy.retries,
      minTimeout: policy.minTimeoutMs,
      maxTimeout: policy.maxTimeoutMs,
      factor: 2,
      randomize: true,
      signal,
      onFailedAttempt: (err) => {
        if (err.retriesLeft <= 0) return; // the last attempt failed: no retry follows, so none is reported
        options.onRetry?.({
          attempt: err.attemptNumber,
          retriesLeft: err.retriesLeft,
          delayMs: Math.max(retryAfterMs ?? 0, backoffFor(policy, err.attemptNumber)),
          error: err,
        });
      },
    },
  );
}

/** The back-off before retry `attempt` (1-based): doubling from minTimeoutMs, capped at maxTimeoutMs. */
export function backoffFor(policy: RetryPolicy, attempt: number): number {
  return Math.min(policy.minTimeoutMs * 2 ** Math.max(0, attempt - 1), policy.maxTimeoutMs);
}

/** An abortable sleep; the one place in the engine that waits on a timer. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortReason(signal));
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortReason(signal!));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
