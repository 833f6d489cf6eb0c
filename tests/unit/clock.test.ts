// src/kit/sim/clock.ts: the simulators' one notion of time.
import { describe, expect, it } from 'vitest';
import { manualClock, systemClock } from '../../src/kit/sim/clock.js';

describe('systemClock', () => {
  it('answers the wall clock', () => {
    const before = Date.now();
    const t = systemClock();
    expect(t).toBeGreaterThanOrEqual(before);
    expect(t).toBeLessThanOrEqual(Date.now());
  });
});

describe('manualClock', () => {
  it('starts where told and stands still', () => {
    const clock = manualClock(1_000);
    expect(clock()).toBe(1_000);
    expect(clock()).toBe(1_000);
  });

  it('moves forward by advance', () => {
    const clock = manualClock(0);
    clock.advance(250);
    clock.advance(0);
    expect(clock()).toBe(250);
  });

  it('moves to a later time by set', () => {
    const clock = manualClock(0);
    clock.set(5_000);
    clock.set(5_000);
    expect(clock()).toBe(5_000);
  });

  it('starts at the current time by default', () => {
    const before = Date.now();
    expect(manualClock()()).toBeGreaterThanOrEqual(before);
  });

  it.each([[-1], [Number.NaN]])('refuses advance(%d) with a RangeError, not moving', (ms) => {
    const clock = manualClock(10);
    expect(() => clock.advance(ms)).toThrow(RangeError);
    expect(clock()).toBe(10);
  });

  it.each([[9], [Number.NaN]])('refuses set(%d) (back, or no time) with a RangeError, not moving', (ms) => {
    const clock = manualClock(10);
    expect(() => clock.set(ms)).toThrow(RangeError);
    expect(clock()).toBe(10);
  });

  it('keeps clocks apart', () => {
    const a = manualClock(0);
    const b = manualClock(0);
    a.advance(1);
    expect(b()).toBe(0);
  });
});
