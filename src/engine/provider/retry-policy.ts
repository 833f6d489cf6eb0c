// How transient wire failures are retried: the policy the HTTP kit applies (see apply/retry.ts for
// the mechanism). A leaf: imports nothing, so providers, kit and engine all depend on it downward.

/** How transient failures (HTTP 429 and 5xx, connection resets) are retried: exponential back-off between two bounds. */
export type RetryPolicy = {
  /** How many times a transient failure is retried (not counting the first attempt). */
  readonly retries: number;
  /** The first back-off; each later one doubles it. */
  readonly minTimeoutMs: number;
  /** The longest back-off. */
  readonly maxTimeoutMs: number;
  /** Cap on a vendor's Retry-After, so a bad header cannot stall an apply. */
  readonly maxRetryAfterMs?: number;
};

export const defaultRetryPolicy: RetryPolicy = Object.freeze({
  retries: 5,
  minTimeoutMs: 250,
  maxTimeoutMs: 8000,
  maxRetryAfterMs: 60_000,
});
