// src/engine/apply/scheduler.ts: runs a task graph, dependents after their dependencies, up to `parallelism` at once.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { schedule, STOPPED, type Task } from '../../src/engine/run/scheduler.js';

const task = (id: string, ...waitFor: string[]): Task => ({ id, waitFor });

/** A run function that records start/end order and lets the test settle each task. */
function controlled() {
  const started: string[] = [];
  const pending = new Map<string, { resolve: () => void; reject: (e: Error) => void }>();
  let active = 0;
  let peak = 0;
  const run = (t: Task) =>
    new Promise<void>((resolve, reject) => {
      started.push(t.id);
      active++;
      peak = Math.max(peak, active);
      pending.set(t.id, {
        resolve: () => {
          active--;
          resolve();
        },
        reject: (e: Error) => {
          active--;
          reject(e);
        },
      });
    });
  return { started, pending, run, peak: () => peak };
}

const flush = () => new Promise<void>((r) => setImmediate(r));

describe('schedule', () => {
  it('answers an empty map for no tasks', async () => {
    expect(
      (
        await schedule(
          [],
          4,
          async () => {},
          () => {},
        )
      ).size,
    ).toBe(0);
  });

  it('runs each task after everything it waits for (any DAG, any parallelism)', async () => {
    const dag = fc
      .integer({ min: 1, max: 25 })
      .chain((n) =>
        fc.tuple(
          fc.tuple(...Array.from({ length: n }, (_, i) => fc.subarray(Array.from({ length: i }, (_, j) => `t${j}`)))),
          fc.integer({ min: 1, max: 6 }),
        ),
      );
    await fc.assert(
      fc.asyncProperty(dag, async ([waits, parallelism]) => {
        const tasks = waits.map((w, i) => task(`t${i}`, ...w));
        const done = new Set<string>();
        const outcomes = await schedule(
          tasks,
          parallelism,
          async (t) => {
            for (const w of t.waitFor) expect(done.has(w)).toBe(true);
            await Promise.resolve();
            done.add(t.id);
          },
          () => {},
        );
        expect([...outcomes.values()].every((o) => o.status === 'ok')).toBe(true);
        expect(done.size).toBe(tasks.length);
      }),
    );
  });

  it('never runs more than `parallelism` tasks at once', async () => {
    const c = controlled();
    const tasks = Array.from({ length: 10 }, (_, i) => task(`t${i}`));
    const done = schedule(tasks, 3, c.run, () => {});
    for (let i = 0; i < 10; i++) {
      await flush();
      expect(c.pending.size - i).toBeLessThanOrEqual(3);
      c.pending.get(c.started[i]!)!.resolve();
    }
    await done;
    expect(c.peak()).toBe(3);
  });

  it('skips the dependents of a failed task, transitively, naming the failed task', async () => {
    const skipped: [string, string][] = [];
    const boom = new Error('boom');
    const outcomes = await schedule(
      [task('a'), task('b', 'a'), task('c', 'b'), task('d')],
      2,
      async (t) => {
        if (t.id === 'a') throw boom;
      },
      (t, because) => skipped.push([t.id, because]),
    );
    expect(outcomes.get('a')).toEqual({ status: 'failed', error: boom });
    expect(outcomes.get('b')).toEqual({ status: 'skipped', because: 'a' });
    expect(outcomes.get('c')).toEqual({ status: 'skipped', because: 'a' });
    expect(outcomes.get('d')).toEqual({ status: 'ok' });
    expect(skipped).toEqual([
      ['b', 'a'],
      ['c', 'a'],
    ]);
  });

  it('wraps a thrown non-Error in an Error', async () => {
    const outcomes = await schedule(
      [task('a')],
      1,
      () => Promise.reject('text'),
      () => {},
    );
    const o = outcomes.get('a')!;
    expect(o.status === 'failed' && o.error).toBeInstanceOf(Error);
  });

  it('ignores waits on ids that are not tasks', async () => {
    const outcomes = await schedule(
      [task('a', 'ghost')],
      1,
      async () => {},
      () => {},
    );
    expect(outcomes.get('a')).toEqual({ status: 'ok' });
  });

  it('starts nothing after the stop signal fires, lets running tasks finish, and skips the rest as STOPPED', async () => {
    const c = controlled();
    const stop = new AbortController();
    const done = schedule([task('a'), task('b'), task('c', 'a')], 1, c.run, () => {}, stop.signal);
    await flush();
    stop.abort();
    c.pending.get('a')!.resolve();
    const outcomes = await done;
    expect(c.started).toEqual(['a']);
    expect(outcomes.get('a')).toEqual({ status: 'ok' });
    expect(outcomes.get('b')).toEqual({ status: 'skipped', because: STOPPED });
    expect(outcomes.get('c')).toEqual({ status: 'skipped', because: STOPPED });
  });

  it('starts nothing when the stop signal has already fired', async () => {
    const stop = new AbortController();
    stop.abort();
    let ran = 0;
    const outcomes = await schedule(
      [task('a'), task('b', 'a')],
      2,
      async () => {
        ran++;
      },
      () => {},
      stop.signal,
    );
    expect(ran).toBe(0);
    expect([...outcomes.values()]).toEqual([
      { status: 'skipped', because: STOPPED },
      { status: 'skipped', because: STOPPED },
    ]);
  });

  it('runs a wide graph of many tasks', async () => {
    const tasks = [task('root'), ...Array.from({ length: 20_000 }, (_, i) => task(`t${i}`, 'root'))];
    const outcomes = await schedule(
      tasks,
      64,
      async () => {},
      () => {},
    );
    expect(outcomes.size).toBe(20_001);
  });

  it('handles prototype-like and unicode ids as plain ids', async () => {
    const order: string[] = [];
    await schedule(
      [task('constructor', '__proto__'), task('__proto__'), task('日本', 'constructor')],
      1,
      async (t) => {
        order.push(t.id);
      },
      () => {},
    );
    expect(order).toEqual(['__proto__', 'constructor', '日本']);
  });
});
