// The simulators' one notion of time. Stores take a Clock instead of calling Date.now(), so a test
// moves time forward (an instance finishes BUILDING, a task finishes RUNNING) without sleeping.

/** Milliseconds since the epoch, as Date.now() answers. */
export type Clock = () => number;

/** The wall clock: what a simulator uses unless a test gives it another. */
export const systemClock: Clock = () => Date.now();

/** A clock that stands still until told to move: `advance(ms)` moves it forward. */
export type ManualClock = Clock & { advance(ms: number): void; set(ms: number): void };

/** A manual clock starting at `startMs` (default: now). */
export function manualClock(startMs: number = Date.now()): ManualClock {
  let now = startMs;
  const clock = (() => now) as ManualClock;
  clock.advance = (ms: number) => {
    if (!(ms >= 0)) throw new RangeError(`Expected a non-negative step, got ${ms}`);
    now += ms;
  };
  clock.set = (ms: number) => {
    if (!(ms >= now)) throw new RangeError(`A clock never goes back: ${ms} < ${now}`);
    now = ms;
  };
  return clock;
}
