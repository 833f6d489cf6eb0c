// src/engine/apply/retry.ts (the one retry mechanism) and src/engine/provider/retry-policy.ts.
import { afterEach, describe, expect, it, vi } from 'vitest';
import fc from 'fast-check';
import { getEventListeners } from 'node:events';
import {
  backoffFor,
  defaultRetryPolicy,
  isTransient,
  sleep,
  withRetry,
  type RetryInfo,
} from '../../src/engine/run/retry.js';
import type { RetryPolicy } from '../../src/engine/provider/retry-policy.js';
import { ProviderError } from '../../src/engine/errors.js';

const instant: RetryPolicy = { retries: 3, minTimeoutMs: 0, maxTimeoutMs: 0 };
const providerError = (retryable: boolean, extra: Partial<ConstructorParameters<typeof ProviderError>[0]> = {}) =>
  new ProviderError({ provider: 'p', operation: 'op', retryable, detail: 'd', ...extra });
const netError = (code: string) => Object.assign(new Error('socket'), { code });

/** fn failing with `errors` in turn, then answering 'ok'; counts its calls. */
function failing(...errors: unknown[]) {
  const calls: number[] = [];
  const fn = async (attempt: number) => {
    calls.push(attempt);
    if (calls.length <= errors.length) throw errors[calls.length - 1];
    return 'ok';
  };
  return { fn, calls };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('isTransient', () => {
  it("follows a ProviderError's retryable flag", () => {
    expect(isTransient(providerError(true))).toBe(true);
    expect(isTransient(providerError(false))).toBe(false);
  });

  it.each(['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT', 'UND_ERR_SOCKET', 'EAI_AGAIN'])(
    'counts network code %s as transient, on the error or its cause',
    (code) => {
      expect(isTransient(netError(code))).toBe(true);
      expect(isTransient(new Error('wrapped', { cause: netError(code) }))).toBe(true);
    },
  );

  it('counts programming errors and other values as not transient', () => {
    expect(isTransient(new TypeError('x'))).toBe(false);
    expect(isTransient(netError('ENOENT'))).toBe(false);
    expect(isTransient(null)).toBe(false);
    expect(isTransient(undefined)).toBe(false);
    expect(isTransient('ECONNRESET')).toBe(false);
  });
});

describe('withRetry', () => {
  it("answers the first attempt's value without retrying", async () => {
    const { fn, calls } = failing();
    const onRetry = vi.fn();
    expect(await withRetry(fn, { policy: instant, onRetry })).toBe('ok');
    expect(calls).toEqual([1]);
    expect(onRetry).not.toHaveBeenCalled();
  });

  it('retries transient failures and reports each retry', async () => {
    const { fn, calls } = failing(providerError(true), netError('ECONNRESET'));
    const infos: RetryInfo[] = [];
    expect(await withRetry(fn, { policy: instant, onRetry: (i) => infos.push(i) })).toBe('ok');
    expect(calls).toEqual([1, 2, 3]);
    expect(infos.map((i) => [i.attempt, i.retriesLeft])).toEqual([
      [1, 3],
      [2, 2],
    ]);
    expect(infos[0]!.error).toBeInstanceOf(ProviderError);
  });

  it('rethrows a non-transient failure at once, the original error', async () => {
    const original = providerError(false, { status: 400 });
    const { fn, calls } = failing(original);
    await expect(withRetry(fn, { policy: instant })).rejects.toBe(original);
    expect(calls).toEqual([1]);
  });

  it('rethrows a non-transient failure met on a later attempt, the original error', async () => {
    const original = new TypeError('bug');
    const { fn, calls } = failing(providerError(true), original);
    await expect(withRetry(fn, { policy: instant })).rejects.toBe(original);
    expect(calls).toEqual([1, 2]);
  });

  it('gives up after `retries` retries with the last error', async () => {
    const last = providerError(true, { status: 503 });
    const { fn, calls } = failing(providerError(true), providerError(true), providerError(true), last);
    const error = await withRetry(fn, { policy: instant }).catch((e: unknown) => e);
    expect(error).toBe(last);
    expect((error as ProviderError).code).toBe('CONVERGE_PROVIDER');
    expect(calls).toEqual([1, 2, 3, 4]);
  });

  it('reports no retry after the last attempt fails', async () => {
    const { fn } = failing(providerError(true), providerError(true), providerError(true));
    const infos: RetryInfo[] = [];
    await withRetry(fn, { policy: { ...instant, retries: 2 }, onRetry: (i) => infos.push(i) }).catch(() => {});
    expect(infos.map((i) => i.retriesLeft)).toEqual([2, 1]);
  });

  it('makes one attempt when retries is 0', async () => {
    const first = providerError(true);
    const { fn, calls } = failing(first);
    await expect(withRetry(fn, { policy: { ...instant, retries: 0 } })).rejects.toBe(first);
    expect(calls).toEqual([1]);
  });

  it('lets shouldRetry veto a retry, rethrowing the original error', async () => {
    const unknownOutcome = providerError(true, { outcomeUnknown: true });
    const { fn, calls } = failing(unknownOutcome);
    await expect(
      withRetry(fn, { policy: instant, shouldRetry: (e) => !(e as ProviderError).outcomeUnknown }),
    ).rejects.toBe(unknownOutcome);
    expect(calls).toEqual([1]);
  });

  it('does not retry when the signal has fired', async () => {
    const stop = new AbortController();
    stop.abort(new Error('stop'));
    const first = providerError(true);
    const { fn, calls } = failing(first);
    await expect(withRetry(fn, { policy: instant, signal: stop.signal })).rejects.toBe(first);
    expect(calls).toEqual([1]);
  });

  it('stops waiting when the signal fires during the back-off', async () => {
    vi.useFakeTimers();
    const stop = new AbortController();
    const { fn, calls } = failing(providerError(true), providerError(true));
    const p = withRetry(fn, {
      policy: { retries: 3, minTimeoutMs: 60_000, maxTimeoutMs: 60_000 },
      signal: stop.signal,
    }).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(10);
    const reason = new Error('stopped');
    stop.abort(reason);
    await vi.advanceTimersByTimeAsync(10);
    expect(await p).toBe(reason);
    expect(calls).toEqual([1]);
  });

  it('waits at least what Retry-After asks before the next attempt', async () => {
    vi.useFakeTimers();
    const { fn, calls } = failing(providerError(true, { status: 429, retryAfterSeconds: 30 }));
    const infos: RetryInfo[] = [];
    const p = withRetry(fn, {
      policy: { retries: 2, minTimeoutMs: 1, maxTimeoutMs: 1 },
      onRetry: (i) => infos.push(i),
    });
    await vi.advanceTimersByTimeAsync(29_000);
    expect(calls).toEqual([1]);
    await vi.advanceTimersByTimeAsync(1_500);
    expect(await p).toBe('ok');
    expect(calls).toEqual([1, 2]);
    expect(infos[0]!.delayMs).toBe(30_000);
  });

  it('caps a Retry-After at maxRetryAfterMs', async () => {
    vi.useFakeTimers();
    const { fn, calls } = failing(providerError(true, { status: 429, retryAfterSeconds: 86_400 }));
    const p = withRetry(fn, { policy: { retries: 1, minTimeoutMs: 1, maxTimeoutMs: 1, maxRetryAfterMs: 5_000 } });
    await vi.advanceTimersByTimeAsync(5_100);
    expect(await p).toBe('ok');
    expect(calls).toEqual([1, 2]);
  });
});

describe('backoffFor', () => {
  it('doubles from minTimeoutMs', () => {
    const policy = { retries: 5, minTimeoutMs: 100, maxTimeoutMs: 10_000 };
    expect([1, 2, 3, 4].map((a) => backoffFor(policy, a))).toEqual([100, 200, 400, 800]);
  });

  it('never falls, and never passes maxTimeoutMs (any policy)', () => {
    fc.assert(
      fc.property(fc.nat(10_000), fc.nat(100_000), fc.integer({ min: 1, max: 60 }), (min, max, attempt) => {
        const policy = { retries: 1, minTimeoutMs: min, maxTimeoutMs: max };
        const d = backoffFor(policy, attempt);
        return d <= max && backoffFor(policy, attempt + 1) >= d;
      }),
    );
  });
});

describe('sleep', () => {
  it('resolves after the time given', async () => {
    vi.useFakeTimers();
    let done = false;
    const p = sleep(1000).then(() => {
      done = true;
    });
    await vi.advanceTimersByTimeAsync(999);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await p;
    expect(done).toBe(true);
  });

  it("rejects with the signal's reason when it fires, and removes its listener", async () => {
    vi.useFakeTimers();
    const stop = new AbortController();
    const p = sleep(60_000, stop.signal).catch((e: unknown) => e);
    const reason = new Error('stop');
    stop.abort(reason);
    expect(await p).toBe(reason);
    expect(getEventListeners(stop.signal, 'abort')).toHaveLength(0);
  });

  it('rejects at once when the signal has already fired', async () => {
    const reason = new Error('stop');
    await expect(sleep(60_000, AbortSignal.abort(reason))).rejects.toBe(reason);
  });

  it('removes its listener when it resolves', async () => {
    vi.useFakeTimers();
    const stop = new AbortController();
    const p = sleep(10, stop.signal);
    await vi.advanceTimersByTimeAsync(10);
    await p;
    expect(getEventListeners(stop.signal, 'abort')).toHaveLength(0);
  });
});

describe('defaultRetryPolicy', () => {
  it('is frozen, retries, and caps Retry-After', () => {
    expect(Object.isFrozen(defaultRetryPolicy)).toBe(true);
    expect(defaultRetryPolicy.retries).toBeGreaterThan(0);
    expect(defaultRetryPolicy.minTimeoutMs).toBeLessThanOrEqual(defaultRetryPolicy.maxTimeoutMs);
    expect(defaultRetryPolicy.maxRetryAfterMs).toBeGreaterThan(0);
  });
});
