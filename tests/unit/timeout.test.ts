// src/engine/apply/timeout.ts: a step's signal with its own time limit, and racing work against a signal.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { getEventListeners } from 'node:events';
import { raceSignal, stepSignal } from '../../src/engine/run/timeout.js';
import { parseDuration } from '../../src/engine/values/duration.js';
import { TimeoutError } from '../../src/engine/errors.js';

afterEach(() => {
  vi.useRealTimers();
});

describe('parseDuration', () => {
  it.each([
    ['30s', 30_000],
    ['5m', 300_000],
    ['1h', 3_600_000],
    ['1h30m', 5_400_000],
    ['250ms', 250],
    ['1.5s', 1500],
  ])('reads %s as %i ms', (text, ms) => {
    expect(parseDuration(text)).toBe(ms);
  });

  it.each([[''], ['5'], ['5 m'], ['m5'], ['5d'], ['banana'], ['5m '], ['-5s'], ['５s']])(
    'answers undefined for %j',
    (text) => {
      expect(parseDuration(text)).toBeUndefined();
    },
  );
});

describe('stepSignal', () => {
  it('answers the parent itself when there is no limit', () => {
    const parent = new AbortController().signal;
    expect(stepSignal(parent, 'web', 'create', undefined).signal).toBe(parent);
  });

  it('fires after the limit with a TimeoutError naming address, operation and limit', async () => {
    vi.useFakeTimers();
    const step = stepSignal(new AbortController().signal, 'web', 'create', 5000);
    await vi.advanceTimersByTimeAsync(4999);
    expect(step.signal.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    const reason = step.signal.reason as TimeoutError;
    expect(reason).toBeInstanceOf(TimeoutError);
    expect(reason).toMatchObject({ code: 'CONVERGE_TIMEOUT', address: 'web', operation: 'create', limitMs: 5000 });
  });

  it("fires with the parent's reason when the parent fires first", () => {
    const parent = new AbortController();
    const step = stepSignal(parent.signal, 'web', 'create', 60_000);
    const reason = new Error('caller');
    parent.abort(reason);
    expect(step.signal.reason).toBe(reason);
    step.dispose();
  });

  it('never fires after dispose', async () => {
    vi.useFakeTimers();
    const step = stepSignal(new AbortController().signal, 'web', 'delete', 100);
    step.dispose();
    await vi.advanceTimersByTimeAsync(1000);
    expect(step.signal.aborted).toBe(false);
  });

  it('adds no listener to the parent, however many steps share it', () => {
    const parent = new AbortController().signal;
    const steps = Array.from({ length: 50 }, (_, i) => stepSignal(parent, `r${i}`, 'update', 60_000));
    expect(getEventListeners(parent, 'abort')).toHaveLength(0);
    for (const s of steps) s.dispose();
  });
});

describe('raceSignal', () => {
  it('settles with the work when the signal does not fire', async () => {
    expect(await raceSignal(Promise.resolve(7), new AbortController().signal)).toBe(7);
  });

  it("rejects with the work's error", async () => {
    const error = new Error('work');
    await expect(raceSignal(Promise.reject(error), new AbortController().signal)).rejects.toBe(error);
  });

  it("rejects with the signal's reason as soon as it fires, before the work settles", async () => {
    const stop = new AbortController();
    const p = raceSignal(new Promise(() => {}), stop.signal);
    const reason = new TimeoutError('web', 'create', 10);
    stop.abort(reason);
    await expect(p).rejects.toBe(reason);
  });

  it("rejects at once when the signal has already fired, and swallows the work's later failure", async () => {
    const reason = new Error('already');
    let fail!: (e: unknown) => void;
    const work = new Promise((_, reject) => {
      fail = reject;
    });
    await expect(raceSignal(work, AbortSignal.abort(reason))).rejects.toBe(reason);
    fail(new Error('late'));
    await new Promise((r) => setImmediate(r));
  });

  it('waits for the work alone when it cannot abort', async () => {
    const stop = new AbortController();
    let finish!: (v: number) => void;
    const p = raceSignal(
      new Promise<number>((r) => {
        finish = r;
      }),
      stop.signal,
      false,
    );
    stop.abort(new Error('ignored'));
    finish(3);
    expect(await p).toBe(3);
  });

  it('removes its listener once the work settles', async () => {
    const stop = new AbortController();
    await raceSignal(Promise.resolve(1), stop.signal);
    expect(getEventListeners(stop.signal, 'abort')).toHaveLength(0);
  });
});
