// A provider's request budget: a token bucket every request of one provider instance passes through,
// so all the steps of a run share the vendor's rate limit instead of discovering it by failing.
// It runs at the configured rate (a little under it, so jitter on the wire does not turn the last
// request of a second into a 429), holds every request while the vendor says the allowance is spent
// (x-ratelimit-remaining 0 until x-ratelimit-reset) or asks to wait (429 with Retry-After), halves
// its rate on a 429 and wins it back gradually. Every wait is abortable by the caller's signal, and
// a wait of a second or more is told to the waiting request once (what for, how long) so it can be shown.
import { abortReason } from '../engine/abort.js';

export type RequestRate = {
  /** Sustained requests per second the vendor allows; omitted: no fixed rate, only what the vendor signals. */
  readonly requestsPerSecond?: number;
  /** Requests that may go at once after a quiet spell; default: one second's worth of the rate. */
  readonly burst?: number;
};

/** Time for the budget: real by default, injected by tests (no real sleeps). */
export type BudgetClock = {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
};

export type RequestBudgetOptions = RequestRate & {
  readonly clock?: BudgetClock;
  /** Fraction of the configured rate aimed at; default 0.95. */
  readonly headroom?: number;
  /** After a 429, the rate climbs back by this fraction of its target per second; default 0.1 (half to full in 5 s). */
  readonly recoveryPerSecond?: number;
};

const realClock: BudgetClock = {
  now: () => performance.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
};
const MIN_RATE = 0.5;
/** 429s within this long of a cut are the same congestion (requests that were already in flight). */
const CUT_SPACING_MS = 1000;

/** Why a request waits, told to it once per hold (and once when pacing alone keeps it a second or more). */
export type BudgetHold = {
  /** How long it is expected to wait, in ms. */
  readonly waitMs: number;
  /** `window`: the vendor said the allowance is spent until x-ratelimit-reset; `retry_after`: a 429 asked to wait; `pacing`: the rate was cut after a 429. */
  readonly why: 'window' | 'retry_after' | 'pacing';
  /** The rate aimed at, requests per second. */
  readonly rate: number;
};

/** A wait shorter than this is not told (ordinary pacing between requests). */
const TELL_FROM_MS = 1000;

type Waiter = {
  resolve(): void;
  reject(e: unknown): void;
  signal?: AbortSignal;
  onHold?: (hold: BudgetHold) => void;
  /** The hold it was told of (its sequence number), or -1 once told of pacing. */
  told?: number;
};

export class RequestBudget {
  readonly #clock: BudgetClock;
  readonly #target: number;
  readonly #burst: number | undefined;
  readonly #recovery: number;
  readonly #queue: Waiter[] = [];
  readonly #sent: number[] = [];
  /** One abort listener per signal, however many requests wait on it (steps may share a run's signal). */
  readonly #listeners = new Map<AbortSignal, () => void>();
  #rate: number;
  #tokens: number;
  #last: number;
  #pausedUntil = 0;
  #holdWhy: BudgetHold['why'] = 'window';
  /** Counts holds, so a waiter is told of each once. */
  #holdSeq = 0;
  #lastCut = -Infinity;
  /** What the rate climbs back to after a cut (the target, or for an uncapped budget the rate seen before the cut). */
  #ceiling: number;
  #timer: unknown;
  #throttled = 0;
  /** Requests let through and not yet answered. */
  #inFlight = 0;

  constructor(options: RequestBudgetOptions = {}) {
    const { requestsPerSecond: rps, burst } = options;
    if (rps !== undefined && !(Number.isFinite(rps) && rps > 0))
      throw new TypeError('Expected `requestsPerSecond` to be a number above 0');
    if (burst !== undefined && !(Number.isInteger(burst) && burst >= 1))
      throw new TypeError('Expected `burst` to be an integer from 1 and up');
    const headroom = options.headroom ?? 0.95;
    if (!(headroom > 0 && headroom <= 1)) throw new TypeError('Expected `headroom` to be a number above 0, at most 1');
    this.#clock = options.clock ?? realClock;
    this.#target = rps === undefined ? Infinity : rps * headroom;
    // the bucket is a little smaller than the vendor's too, so a full burst leaves it a few requests of slack
    const vendorBurst = burst ?? (rps === undefined ? undefined : Math.max(1, Math.floor(rps)));
    this.#burst = vendorBurst === undefined ? undefined : Math.max(1, Math.floor(vendorBurst * headroom));
    this.#recovery = options.recoveryPerSecond ?? 0.1;
    this.#rate = this.#target;
    this.#ceiling = this.#target;
    this.#last = this.#clock.now();
    this.#tokens = this.#capacity();
  }

  /** The rate currently aimed at, in requests per second (Infinity: no limit known). */
  get rate(): number {
    this.#refill();
    return this.#rate;
  }
  /** Requests waiting for the budget. */
  get pendingCount(): number {
    return this.#queue.length;
  }
  /** How many answers said the vendor refused for rate (429). */
  get throttledCount(): number {
    return this.#throttled;
  }

  /**
   * Resolves when the request may go; rejects with the signal's reason if it fires first. `onHold`
   * hears of a wait of a second or more: once per hold of the vendor's, once for pacing.
   */
  take(signal?: AbortSignal, onHold?: (hold: BudgetHold) => void): Promise<void> {
    if (signal?.aborted) return Promise.reject(abortReason(signal));
    this.#refill();
    if (this.#queue.length === 0 && this.#clock.now() >= this.#pausedUntil && this.#tokens >= 1) {
      this.#spend();
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      this.#queue.push({ resolve, reject, signal, onHold });
      if (signal && !this.#listeners.has(signal)) {
        const onAbort = () => this.#abandon(signal);
        this.#listeners.set(signal, onAbort);
        signal.addEventListener('abort', onAbort, { once: true });
      }
      this.#schedule();
    });
  }

  /** Rejects every request waiting on `signal` with its reason. */
  #abandon(signal: AbortSignal): void {
    this.#listeners.delete(signal);
    for (let i = this.#queue.length - 1; i >= 0; i--) {
      const w = this.#queue[i];
      if (w.signal !== signal) continue;
      this.#queue.splice(i, 1);
      w.reject(signal.reason);
    }
    this.#schedule();
  }

  #release(signal: AbortSignal | undefined): void {
    if (!signal || this.#queue.some((w) => w.signal === signal)) return;
    const onAbort = this.#listeners.get(signal);
    if (onAbort) signal.removeEventListener('abort', onAbort);
    this.#listeners.delete(signal);
  }

  /**
   * Learns from an answer: its status and headers (lower-cased names). Call it once per request
   * let through, with status 0 and no headers when no answer came. `shared`: the request was also
   * paced by a budget shared with other processes (a fleet account's): a 429 then holds this client
   * for the wait it asks (1 s if it names none) but does not cut its rate, which sees only its own
   * share of the account's traffic; the shared budget takes the 429 (SharedBudget.refused).
   */
  observe(status: number, headers: Readonly<Record<string, string>>, shared = false): void {
    const now = this.#clock.now();
    this.#refill();
    this.#inFlight = Math.max(0, this.#inFlight - 1);
    const remaining =
      headers['x-ratelimit-remaining'] === undefined ? undefined : Number(headers['x-ratelimit-remaining']);
    // never count on more than the vendor says is left, less what is already on its way
    if (remaining !== undefined && Number.isFinite(remaining) && Number.isFinite(this.#tokens)) {
      this.#tokens = Math.min(this.#tokens, remaining - this.#inFlight);
    }
    if (status === 429) {
      this.#throttled++;
      const asked = retryAfterMs(headers);
      // a 429 asking for no wait at all (Retry-After: 0) is not the vendor asking us to slow down
      if (asked !== 0 && !shared && now - this.#lastCut >= CUT_SPACING_MS) {
        const from = Number.isFinite(this.#rate) ? this.#rate : Math.max(MIN_RATE, this.#recentRate(now));
        if (!Number.isFinite(this.#target)) this.#ceiling = from;
        this.#rate = Math.max(MIN_RATE, from / 2);
        this.#lastCut = now;
      }
      const waitMs = asked ?? (shared ? 1000 : 1000 / this.#rate);
      this.#hold(now + waitMs, asked === undefined ? 'pacing' : 'retry_after');
    } else if (remaining !== undefined && remaining <= 0) {
      const reset = resetMs(headers['x-ratelimit-reset']);
      if (reset !== undefined) this.#hold(now + reset, 'window');
    }
    this.#schedule();
  }

  #hold(until: number, why: BudgetHold['why']): void {
    if (until > this.#pausedUntil) {
      this.#holdSeq++;
      this.#holdWhy = why;
    }
    this.#pausedUntil = Math.max(this.#pausedUntil, until);
    this.#tokens = Math.min(this.#tokens, 0);
  }

  #capacity(): number {
    if (!Number.isFinite(this.#rate)) return Infinity;
    return this.#burst ?? Math.max(1, Math.floor(this.#rate));
  }

  #refill(): void {
    const now = this.#clock.now();
    const dt = Math.max(0, now - this.#last) / 1000;
    this.#last = now;
    if (this.#rate < this.#ceiling && now >= this.#pausedUntil) {
      this.#rate = Math.min(this.#ceiling, this.#rate + this.#ceiling * this.#recovery * dt);
      // an uncapped budget that won back the rate it had is uncapped again
      if (this.#rate >= this.#ceiling && !Number.isFinite(this.#target)) {
        this.#rate = Infinity;
        this.#ceiling = Infinity;
      }
    }
    if (!Number.isFinite(this.#rate)) {
      this.#tokens = Infinity;
      return;
    }
    if (!Number.isFinite(this.#tokens)) this.#tokens = this.#capacity();
    // tokens accrue during a hold too: the vendor's allowance refills while it makes us wait
    this.#tokens = Math.min(this.#capacity(), this.#tokens + this.#rate * dt);
  }

  #spend(): void {
    this.#tokens -= 1;
    this.#inFlight++;
    if (!Number.isFinite(this.#target)) {
      const now = this.#clock.now();
      this.#sent.push(now);
      while (this.#sent.length > 0 && this.#sent[0] < now - 1000) this.#sent.shift();
    }
  }

  #recentRate(now: number): number {
    while (this.#sent.length > 0 && this.#sent[0] < now - 1000) this.#sent.shift();
    return this.#sent.length;
  }

  /** Lets waiting requests go while tokens last; sets one timer for when the next may go. */
  #schedule(): void {
    if (this.#timer !== undefined) {
      this.#clock.clearTimeout(this.#timer);
      this.#timer = undefined;
    }
    this.#refill();
    const now = this.#clock.now();
    while (this.#queue.length > 0 && now >= this.#pausedUntil && this.#tokens >= 1) {
      const w = this.#queue.shift()!;
      this.#release(w.signal);
      this.#spend();
      w.resolve();
    }
    if (this.#queue.length === 0) return;
    const untilToken = Number.isFinite(this.#rate) ? ((1 - this.#tokens) / this.#rate) * 1000 : 0;
    const wait = Math.max(this.#pausedUntil - now, untilToken, 0);
    this.#tell(now);
    this.#timer = this.#clock.setTimeout(
      () => {
        this.#timer = undefined;
        this.#schedule();
      },
      Math.max(1, Math.ceil(wait)),
    );
  }

  /** Tells each waiting request, once, of a hold or of pacing that keeps it a second or more. */
  #tell(now: number): void {
    const held = Math.max(0, this.#pausedUntil - now);
    const perRequest = Number.isFinite(this.#rate) ? 1000 / this.#rate : 0;
    this.#queue.forEach((w, i) => {
      if (!w.onHold) return;
      if (held >= TELL_FROM_MS && w.told !== this.#holdSeq) {
        w.told = this.#holdSeq;
        w.onHold({ waitMs: held, why: this.#holdWhy, rate: this.#rate });
        return;
      }
      const paced = held + Math.max(0, i + 1 - this.#tokens) * perRequest;
      if (held < TELL_FROM_MS && paced >= TELL_FROM_MS && w.told === undefined) {
        w.told = -1;
        w.onHold({ waitMs: paced, why: 'pacing', rate: this.#rate });
      }
    });
  }
}

/** Retry-After-Ms (milliseconds) or Retry-After (seconds, or an HTTP date), as milliseconds from now. */
export function retryAfterMs(headers: Readonly<Record<string, string>>): number | undefined {
  const ms = Number(headers['retry-after-ms']);
  if (headers['retry-after-ms'] !== undefined && Number.isFinite(ms) && ms >= 0) return ms;
  const v = headers['retry-after'];
  if (v === undefined || v === '') return undefined;
  const n = Number(v);
  if (Number.isFinite(n)) return Math.max(0, n * 1000);
  const date = Date.parse(v);
  return Number.isFinite(date) ? Math.max(0, date - Date.now()) : undefined;
}

/** x-ratelimit-reset as milliseconds from now: seconds to wait, or (when it is that large) a Unix time in seconds. */
function resetMs(value: string | undefined): number | undefined {
  if (value === undefined || value === '') return undefined;
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0) return undefined;
  if (n > 1e9) return Math.max(0, n * 1000 - Date.now());
  return n * 1000;
}
