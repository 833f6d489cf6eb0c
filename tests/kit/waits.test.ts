// Every wait is an event and a progress line: the vendor's rate-limit hold (told once per hold, with
// how long and why), a retry's back-off (which retry of how many, after which answer) and a wait for
// the state lock (who holds it), in plain output and on a terminal.
import { afterEach, describe, expect, it } from 'vitest';
import { RequestBudget, type BudgetClock, type BudgetHold } from '../../src/kit/budget.js';
import { startSimulator as startCivo } from '../../src/providers/b/simulator/index.js';
import { provb } from '../../src/providers/b/index.js';
import { Engine, MemoryStateStore, progressReporter, type Event } from '../../src/index.js';
import { FakeTty } from '../engine/progress/fake-tty.js';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of closers.splice(0)) await c();
});

function manualClock(): BudgetClock & { t: number } {
  return {
    t: 0,
    now() {
      return this.t;
    },
    setTimeout: () => 0,
    clearTimeout: () => {},
  };
}

const domains = (n: number) =>
  Array.from({ length: n }, (_, i) => provb.dnsDomainName(`d${i}`, { name: `wait-${i}.example.com` }));

function plainStream() {
  const lines: string[] = [];
  return { lines, stream: { isTTY: false, write: (s: string) => lines.push(...s.split('\n').filter(Boolean)) } };
}

describe('the request budget', () => {
  it('tells each waiting request once of a hold until the window resets, with how long', () => {
    const b = new RequestBudget({ clock: manualClock() });
    b.observe(200, { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '38' });
    const told: BudgetHold[][] = [[], []];
    void b.take(undefined, (h) => told[0]!.push(h));
    void b.take(undefined, (h) => told[1]!.push(h));
    b.observe(200, { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '38' }); // the same hold again
    expect(told).toEqual([
      [{ waitMs: 38_000, why: 'window', rate: Infinity }],
      [{ waitMs: 38_000, why: 'window', rate: Infinity }],
    ]);
  });

  it("tells of a 429's Retry-After and says nothing of a wait under a second", () => {
    const b = new RequestBudget({ requestsPerSecond: 100, clock: manualClock() });
    const told: BudgetHold[] = [];
    b.observe(429, { 'retry-after': '0.5' });
    void b.take(undefined, (h) => told.push(h));
    expect(told).toEqual([]);
    b.observe(429, { 'retry-after': '5' });
    expect(told.map((h) => [h.why, h.waitMs])).toEqual([['retry_after', 5000]]);
  });
});

describe('an engine run that waits', () => {
  it("emits a wait event for Civo's rate-limit hold and shows it as a line, plain and on a terminal", async () => {
    const sim = await startCivo({ rateLimit: { requestsPerSecond: 1, burst: 2 } });
    closers.push(() => sim.close());
    const events: Event[] = [];
    const plain = plainStream();
    const tty = new FakeTty(200);
    const toPlain = progressReporter({ stream: plain.stream, mode: 'plain' });
    const toTty = progressReporter({ stream: tty, mode: 'tty', color: false, intervalMs: 0 });
    const engine = new Engine({
      providers: [provb({ token: sim.token, apiEndpoint: sim.url })],
      state: new MemoryStateStore(),
      parallelism: 1, // one request at a time: the allowance runs out with an answer, never with a 429
      onEvent: (e) => {
        events.push(e);
        toPlain(e);
        toTty(e);
      },
    });
    const result = await engine.apply(await engine.plan(domains(2), { refresh: false }));
    expect(result.failed).toEqual([]);
    const waits = events.filter((e) => e.type === 'wait');
    expect(waits.length).toBeGreaterThan(0);
    expect(waits[0]).toMatchObject({ reason: 'rate_limit', address: expect.stringMatching(/^d[01]$/) });
    expect(waits[0]!.message).toMatch(/^waiting for Civo's rate limit: \d+s until the window resets$/);
    expect(waits[0]!.waitMs).toBeGreaterThan(0);
    // one line per hold, however many requests it holds
    const plainWaits = plain.lines.filter((l) => l.includes("waiting for Civo's rate limit"));
    expect(plainWaits.length).toBeGreaterThan(0);
    expect(plainWaits.length).toBeLessThanOrEqual(waits.length);
    expect(plainWaits[0]).toMatch(/Z ⏸ d\d: waiting for Civo's rate limit: \d+s until the window resets$/);
    expect(tty.screen().some((l) => /^⏸ d\d: waiting for Civo's rate limit/.test(l))).toBe(true);
    expect(sim.requests.filter((r) => r.throttled)).toEqual([]);
  });

  it('shows a held request on its live line with the time left, counting down', () => {
    const tty = new FakeTty(200);
    let t = 1_000_000;
    const report = progressReporter({ stream: tty, mode: 'tty', color: false, intervalMs: 0, now: () => t });
    report({ type: 'step_start', at: t, address: 'web', action: 'create', resourceType: 'provb:x' });
    const message = "waiting for Civo's rate limit: 38s until the window resets";
    report({
      type: 'wait',
      at: t,
      address: 'web',
      operation: 'create',
      reason: 'rate_limit',
      waitMs: 38_000,
      message,
      elapsedMs: 0,
    });
    t += 12_000;
    report.redraw();
    expect(tty.screen().at(-1)).toMatch(
      /creating web \(provb:x\) 12\.0s · waiting for Civo's rate limit: 38s until the window resets · 26\.0s left$/,
    );
  });

  it('says in plain output what a silent step is waiting for when it says "Still creating..."', () => {
    const plain = plainStream();
    let t = 1_000_000;
    const report = progressReporter({ stream: plain.stream, mode: 'plain', now: () => t, stillEveryMs: 10_000 });
    report({ type: 'step_start', at: t, address: 'web', action: 'create', resourceType: 'provb:x' });
    report({
      type: 'poll',
      at: t,
      address: 'web',
      operation: 'create',
      attempt: 3,
      message: 'waiting for instance web to be ACTIVE: BUILDING',
      delayMs: 2000,
      elapsedMs: 0,
    });
    t += 10_000;
    report.redraw();
    expect(plain.lines.at(-1)).toMatch(
      /web: Still creating\.\.\. \[10s elapsed\] \(create poll 3: waiting for instance web to be ACTIVE: BUILDING\)$/,
    );
    report.close();
  });

  it('reports each retry with its number of the allowed, the wait and the status, as one line each', async () => {
    const sim = await startCivo({ faults: { rate: 1, kinds: ['429'], methods: ['POST'] } });
    closers.push(() => sim.close());
    const plain = plainStream();
    const events: Event[] = [];
    const toPlain = progressReporter({ stream: plain.stream, mode: 'plain' });
    const engine = new Engine({
      providers: [provb({ token: sim.token, apiEndpoint: sim.url })],
      state: new MemoryStateStore(),
      retry: { retries: 2, minTimeoutMs: 5, maxTimeoutMs: 10 },
      onEvent: (e) => {
        events.push(e);
        toPlain(e);
      },
    });
    await expect(engine.apply(await engine.plan(domains(1), { refresh: false }))).rejects.toThrow(/1 step failed/);
    expect(
      events.filter((e) => e.type === 'retry').map((e) => e.type === 'retry' && [e.attempt, e.retriesLeft, e.status]),
    ).toEqual([
      [1, 2, 429],
      [2, 1, 429],
    ]);
    const retries = plain.lines.filter((l) => l.includes('↻'));
    expect(retries).toHaveLength(2);
    expect(retries[0]).toMatch(/↻ retry 1\/2 of create d0 in \d+\.\ds after 429: provb: /);
    expect(retries[1]).toMatch(/↻ retry 2\/2 of create d0 /);
  });

  it('emits a wait event naming the holder while the state lock is held, and a line without an empty address', async () => {
    const store = new MemoryStateStore();
    const held = await store.lock({ operation: 'apply' });
    const events: Event[] = [];
    const plain = plainStream();
    const toPlain = progressReporter({ stream: plain.stream, mode: 'plain' });
    const engine = new Engine({
      providers: [],
      state: store,
      lockTimeout: '5s',
      onEvent: (e) => {
        events.push(e);
        toPlain(e);
      },
    });
    setTimeout(() => void held.release(), 150);
    await engine.plan([]);
    const wait = events.find((e) => e.type === 'wait');
    // A wait of the run as a whole carries no address (not an empty one).
    expect(wait).toMatchObject({ reason: 'lock', operation: 'plan' });
    expect(wait).not.toHaveProperty('address');
    expect(wait?.type === 'wait' && wait.message).toMatch(
      new RegExp(
        `^waiting for the state lock held by pid ${process.pid} on .+ for apply since .+: next try in \\d+\\.\\ds, giving up in \\d\\.\\ds$`,
      ),
    );
    expect(plain.lines[0]).toMatch(/Z ⏸ waiting for the state lock held by pid/);
    expect(plain.lines[0]).not.toContain('undefined');
  });
});
