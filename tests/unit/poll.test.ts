// src/kit/poll.ts: the one polling loop.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { poll, type PollOutcome } from '../../src/kit/poll.js';
import { TimeoutError } from '../../src/engine/errors.js';
import type { Report } from '../../src/engine/provider/context.js';

afterEach(() => {
  vi.useRealTimers();
});

function ctx(signal: AbortSignal = new AbortController().signal) {
  const reports: Report[] = [];
  return {
    reports,
    ctx: { signal, address: 'web', operation: 'create' as const, report: (r: Report) => reports.push(r) },
  };
}

/** A check answering not-yet `n` times, then done with 'ready'. */
function settlesAfter(n: number) {
  const attempts: number[] = [];
  const check = async (attempt: number): Promise<PollOutcome<string>> => {
    attempts.push(attempt);
    return attempts.length > n ? { done: true, value: 'ready' } : { done: false, message: `status BUILDING` };
  };
  return { check, attempts };
}

describe('poll', () => {
  it('answers the value at once when the first look is done, reporting nothing', async () => {
    const { ctx: c, reports } = ctx();
    const { check, attempts } = settlesAfter(0);
    expect(await poll(c, { what: 'web to be ACTIVE', intervalMs: 1000, check })).toBe('ready');
    expect(attempts).toEqual([1]);
    expect(reports).toEqual([]);
  });

  it('looks again every interval and reports each look that is not done', async () => {
    vi.useFakeTimers();
    const { ctx: c, reports } = ctx();
    const { check, attempts } = settlesAfter(2);
    const p = poll(c, { what: 'web to be ACTIVE', intervalMs: 1000, check });
    await vi.advanceTimersByTimeAsync(999);
    expect(attempts).toEqual([1]);
    await vi.advanceTimersByTimeAsync(1001);
    expect(await p).toBe('ready');
    expect(attempts).toEqual([1, 2, 3]);
    expect(reports.map((r) => r.kind === 'poll' && r.attempt)).toEqual([1, 2]);
  });

  it('grows the interval by half up to maxIntervalMs', async () => {
    vi.useFakeTimers();
    const { ctx: c } = ctx();
    const times: number[] = [];
    const start = Date.now();
    const p = poll(c, {
      what: 'x',
      intervalMs: 100,
      maxIntervalMs: 200,
      check: async (a) => {
        times.push(Date.now() - start);
        return a > 4 ? { done: true, value: 1 } : { done: false, message: '' };
      },
    });
    await vi.advanceTimersByTimeAsync(10_000);
    await p;
    expect(times).toEqual([0, 100, 250, 450, 650]);
  });

  it('fails with a TimeoutError naming what it waited for when its own limit would pass', async () => {
    vi.useFakeTimers();
    const { ctx: c } = ctx();
    const { check, attempts } = settlesAfter(1_000);
    const p = poll(c, { what: 'task 3f2a', intervalMs: 1000, timeoutMs: 3500, check }).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(10_000);
    const error = await p;
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error).toMatchObject({
      code: 'CONVERGE_TIMEOUT',
      address: 'web',
      operation: 'create',
      limitMs: 3500,
      detail: 'task 3f2a',
    });
    expect(attempts).toEqual([1, 2, 3, 4]); // looks at 0, 1, 2 and 3 s; a fifth at 4 s would pass 3.5 s
  });

  it("stops with the signal's reason when it fires during a wait", async () => {
    vi.useFakeTimers();
    const stop = new AbortController();
    const { ctx: c } = ctx(stop.signal);
    const { check, attempts } = settlesAfter(1_000);
    const p = poll(c, { what: 'x', intervalMs: 60_000, check }).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(1);
    const reason = new TimeoutError('web', 'create', 5);
    stop.abort(reason);
    expect(await p).toBe(reason);
    expect(attempts).toEqual([1]);
  });

  it('makes no look when the signal has already fired', async () => {
    const reason = new Error('stopped');
    const { ctx: c } = ctx(AbortSignal.abort(reason));
    const { check, attempts } = settlesAfter(0);
    await expect(poll(c, { what: 'x', intervalMs: 1, check })).rejects.toBe(reason);
    expect(attempts).toEqual([]);
  });

  it("fails with the check's own error", async () => {
    const { ctx: c } = ctx();
    const error = new Error('ERROR state');
    await expect(poll(c, { what: 'x', intervalMs: 1, check: () => Promise.reject(error) })).rejects.toBe(error);
  });
});
