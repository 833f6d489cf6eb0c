// The request budget on a fake clock: bursts, the steady rate, holds on the vendor's signals
// (Retry-After, x-ratelimit-remaining 0), halving on a 429 and climbing back, and aborts.
import { describe, expect, it } from 'vitest';
import { RequestBudget, retryAfterMs, type BudgetClock } from '../../src/kit/budget.js';

class FakeClock implements BudgetClock {
  t = 1000;
  #timers: { at: number; fn: () => void; id: number }[] = [];
  #next = 0;
  now = () => this.t;
  setTimeout = (fn: () => void, ms: number) => {
    const id = ++this.#next;
    this.#timers.push({ at: this.t + ms, fn, id });
    return id;
  };
  clearTimeout = (id: unknown) => {
    this.#timers = this.#timers.filter((x) => x.id !== id);
  };
  /** Moves time forward by `ms`, firing due timers in order, and lets resolved promises run. */
  async advance(ms: number): Promise<void> {
    const end = this.t + ms;
    for (;;) {
      this.#timers.sort((a, b) => a.at - b.at);
      const due = this.#timers[0];
      if (!due || due.at > end) break;
      this.#timers.shift();
      this.t = due.at;
      due.fn();
      await flush();
    }
    this.t = end;
    await flush();
  }
}
const flush = () => new Promise<void>((r) => setImmediate(r));

/** Starts `n` takes and records which have resolved. */
function takeMany(b: RequestBudget, n: number, signal?: AbortSignal) {
  const done: number[] = [];
  const errors: unknown[] = [];
  for (let i = 0; i < n; i++)
    b.take(signal).then(
      () => done.push(i),
      (e) => errors.push(e),
    );
  return { done, errors };
}

describe('RequestBudget', () => {
  it('lets a burst through at once, then one request per 1/rate', async () => {
    const clock = new FakeClock();
    const b = new RequestBudget({ requestsPerSecond: 10, burst: 5, headroom: 1, clock });
    const { done } = takeMany(b, 8);
    await flush();
    expect(done).toHaveLength(5);
    await clock.advance(99);
    expect(done).toHaveLength(5);
    await clock.advance(1);
    expect(done).toHaveLength(6);
    await clock.advance(200);
    expect(done).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
  });

  it('aims a little under the configured rate and burst by default', async () => {
    const clock = new FakeClock();
    const b = new RequestBudget({ requestsPerSecond: 100, burst: 100, clock });
    const { done } = takeMany(b, 400);
    await flush();
    expect(done).toHaveLength(95);
    await clock.advance(1000);
    expect(done).toHaveLength(95 + 95);
    expect(b.rate).toBeCloseTo(95);
  });

  it('holds every request for Retry-After after a 429 and halves its rate', async () => {
    const clock = new FakeClock();
    const b = new RequestBudget({ requestsPerSecond: 10, burst: 10, headroom: 1, clock });
    b.observe(429, { 'retry-after': '2' });
    expect(b.rate).toBe(5);
    expect(b.throttledCount).toBe(1);
    const { done } = takeMany(b, 1);
    await clock.advance(1999);
    expect(done).toEqual([]);
    await clock.advance(1);
    expect(done).toEqual([0]);
  });

  it('under a shared budget, holds for the wait a 429 asks (1 s when it names none) but keeps its rate: the shared budget takes the 429', async () => {
    const clock = new FakeClock();
    const b = new RequestBudget({ clock });
    takeMany(b, 80);
    await clock.advance(500);
    b.observe(429, { 'retry-after': '2' }, true);
    expect(b.rate).toBe(Infinity); // uncut: this client saw only its share of the account's traffic
    expect(b.throttledCount).toBe(1);
    const first = takeMany(b, 3);
    await clock.advance(1999);
    expect(first.done).toEqual([]);
    await clock.advance(1);
    expect(first.done).toEqual([0, 1, 2]);
    b.observe(429, {}, true);
    const second = takeMany(b, 1);
    await clock.advance(999);
    expect(second.done).toEqual([]);
    await clock.advance(1);
    expect(second.done).toEqual([0]);
    expect(b.rate).toBe(Infinity);
  });

  it('keeps its rate on a 429 that asks for no wait (Retry-After: 0)', () => {
    const b = new RequestBudget({ requestsPerSecond: 10, headroom: 1, clock: new FakeClock() });
    b.observe(429, { 'retry-after': '0' });
    expect(b.rate).toBe(10);
    expect(b.throttledCount).toBe(1);
  });

  it('counts 429s of requests already in flight as one cut', () => {
    const clock = new FakeClock();
    const b = new RequestBudget({ requestsPerSecond: 40, burst: 40, headroom: 1, clock });
    for (let i = 0; i < 5; i++) b.observe(429, {});
    expect(b.rate).toBe(20);
    expect(b.throttledCount).toBe(5);
  });

  it('wins its rate back gradually after a cut, up to the configured one', async () => {
    const clock = new FakeClock();
    const b = new RequestBudget({ requestsPerSecond: 10, headroom: 1, clock });
    b.observe(429, {});
    expect(b.rate).toBe(5);
    await clock.advance(2000);
    expect(b.rate).toBeCloseTo(7);
    await clock.advance(10_000);
    expect(b.rate).toBe(10);
  });

  it('holds while the vendor says the allowance is spent, until x-ratelimit-reset', async () => {
    const clock = new FakeClock();
    const b = new RequestBudget({ clock });
    b.observe(200, { 'x-ratelimit-limit': '50', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '3' });
    const { done } = takeMany(b, 2);
    await clock.advance(2999);
    expect(done).toEqual([]);
    await clock.advance(1);
    expect(done).toEqual([0, 1]);
    expect(b.rate).toBe(Infinity);
  });

  it('never counts on more than the vendor says is left, less the requests still on their way', async () => {
    const clock = new FakeClock();
    const b = new RequestBudget({ requestsPerSecond: 10, burst: 10, headroom: 1, clock });
    await b.take();
    await b.take();
    b.observe(200, { 'x-ratelimit-remaining': '1' });
    const { done } = takeMany(b, 1);
    await clock.advance(99);
    expect(done).toEqual([]);
    await clock.advance(1);
    expect(done).toEqual([0]);
  });

  it('sends at once when no rate is configured and the vendor has said nothing', async () => {
    const b = new RequestBudget({ clock: new FakeClock() });
    const { done } = takeMany(b, 1000);
    await flush();
    expect(done).toHaveLength(1000);
  });

  it('without a configured rate, halves the rate it saw on a 429 and is uncapped again once it won that back', async () => {
    const clock = new FakeClock();
    const b = new RequestBudget({ clock });
    takeMany(b, 80);
    await clock.advance(500);
    b.observe(429, { 'retry-after': '1' });
    expect(b.rate).toBe(40);
    await clock.advance(1000 + 12_500);
    expect(b.rate).toBe(Infinity);
  });

  it("rejects a waiting request with its signal's reason and lets the others go on", async () => {
    const clock = new FakeClock();
    const b = new RequestBudget({ requestsPerSecond: 1, burst: 1, headroom: 1, clock });
    await b.take();
    const ac = new AbortController();
    const aborted = takeMany(b, 2, ac.signal);
    const other = takeMany(b, 1);
    await flush();
    expect(b.pendingCount).toBe(3);
    const reason = new Error('step timed out');
    ac.abort(reason);
    await flush();
    expect(aborted.errors).toEqual([reason, reason]);
    expect(b.pendingCount).toBe(1);
    await clock.advance(1000);
    expect(other.done).toEqual([0]);
  });

  it('rejects at once for a signal that has already fired', async () => {
    const b = new RequestBudget({ clock: new FakeClock() });
    const ac = new AbortController();
    const reason = new Error('cancelled');
    ac.abort(reason);
    await expect(b.take(ac.signal)).rejects.toBe(reason);
  });

  it('refuses a rate or burst that is not a positive number', () => {
    expect(() => new RequestBudget({ requestsPerSecond: 0 })).toThrow(TypeError);
    expect(() => new RequestBudget({ requestsPerSecond: 5, burst: 0.5 })).toThrow(TypeError);
    expect(() => new RequestBudget({ requestsPerSecond: Infinity })).toThrow(TypeError);
  });
});

describe('retryAfterMs', () => {
  it('reads Retry-After-Ms, Retry-After seconds and Retry-After dates', () => {
    expect(retryAfterMs({ 'retry-after-ms': '250', 'retry-after': '9' })).toBe(250);
    expect(retryAfterMs({ 'retry-after': '1.5' })).toBe(1500);
    const inTwo = new Date(Date.now() + 2000).toUTCString();
    expect(retryAfterMs({ 'retry-after': inTwo })).toBeGreaterThan(500);
    expect(retryAfterMs({})).toBeUndefined();
  });
});
