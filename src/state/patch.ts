// A state change as data: immer's patches (op, path, value). Stores persist these; replaying them
// on the prior state gives the next one.
import { applyPatches, enablePatches, type Patch } from 'immer';
import type { State } from './model.js';

enablePatches();

export type { Patch };

/** A committed change: the patches that turn the state at `baseSerial` into the one at `serial`. */
export type StateChange = {
  readonly baseSerial: number;
  readonly serial: number;
  readonly patches: readonly Patch[];
};

export function replay(state: State, change: StateChange): State {
  return applyPatches(state, change.patches as Patch[]);
}

/** Replays many changes at once: one copy of the state, however many changes. */
export function replayAll(state: State, changes: readonly StateChange[]): State {
  if (changes.length === 0) return state;
  const all: Patch[] = [];
  for (const c of changes) for (const p of c.patches) all.push(p);
  return applyPatches(state, all);
}
