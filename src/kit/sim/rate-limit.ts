// A simulator's rate limit: a token bucket (requests per second, burst) over every request of the
// account, as an API gateway keeps it. Each request either takes a token or is refused; either way
// the router hands the facts to the vendor's hooks, which turn them into the vendor's headers and
// 429 body.

export type RateLimitOptions = {
  /** Sustained requests per second. */
  readonly requestsPerSecond: number;
  /** Requests allowed at once after a quiet spell; default: one second's worth. */
  readonly burst?: number;
};

/** What the limiter decided for one request. */
export type RateLimitFacts = {
  readonly allowed: boolean;
  /** The bucket's size. */
  readonly limit: number;
  /** Whole requests left right after this one. */
  readonly remaining: number;
  /** Seconds until the bucket is full again (rounded up). */
  readonly resetSeconds: number;
  /** Seconds until the next request would be allowed (rounded up; 0 when one would be now). */
  readonly retryAfterSeconds: number;
};

export class RateLimiter {
  readonly #rate: number;
  readonly #burst: number;
  readonly #now: () => number;
  #tokens: number;
  #last: number;

  constructor(options: RateLimitOptions, now: () => number = () => performance.now()) {
    if (!(Number.isFinite(options.requestsPerSecond) && options.requestsPerSecond > 0)) {
      throw new TypeError('Expected `rateLimit.requestsPerSecond` to be a number above 0');
    }
    const burst = options.burst ?? Math.max(1, Math.floor(options.requestsPerSecond));
    if (!(Number.isInteger(burst) && burst >= 1))
      throw new TypeError('Expected `rateLimit.burst` to be an integer from 1 and up');
    this.#rate = options.requestsPerSecond;
    this.#burst = burst;
    this.#now = now;
    this.#tokens = burst;
    this.#last = now();
  }

  /** Takes a token for one request if there is one. */
  take(): RateLimitFacts {
    const now = this.#now();
    this.#tokens = Math.min(this.#burst, this.#tokens + (this.#rate * Math.max(0, now - this.#last)) / 1000);
    this.#last = now;
    const allowed = this.#tokens >= 1;
    if (allowed) this.#tokens -= 1;
    return {
      allowed,
      limit: this.#burst,
      remaining: Math.floor(this.#tokens),
      resetSeconds: Math.ceil((this.#burst - this.#tokens) / this.#rate),
      retryAfterSeconds: this.#tokens >= 1 ? 0 : Math.ceil((1 - this.#tokens) / this.#rate),
    };
  }
}
