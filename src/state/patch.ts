// A state change as data: immer's patches (op, path, value). Stores persist these; replaying them
// on the prior state gives the next one.
import { applyPatches, enablePatches, type Patch } from 'immer';
import { collections, type State } from './model.js';
import { setOwn } from './keys.js';

enablePatches();

export type { Patch };

/** A committed change: the patches that turn the state at `baseSerial` into the one at `serial`. */
export type StateChange = {
  readonly baseSerial: number;
  readonly serial: number;
  readonly patches: readonly Patch[];
};

export function replay(state: State, change: StateChange): State {
  return replayAll(state, [change]);
}

/**
 * Replays many changes at once: one copy of the state, however many changes. Resource-granular
 * patches (ops.ts makes only those) are applied by a shallow copy of `resources` and `pending`;
 * their values are whole objects the state takes over as they are (nothing mutates them: the types
 * are readonly and ops.ts builds a new object for every change). Any other patch goes through
 * immer's applyPatches.
 */
export function replayAll(state: State, changes: readonly StateChange[]): State {
  if (changes.length === 0) return state;
  // Index loops: this runs once per read, over every change since (a loop the JIT has not optimized
  // yet, where a for-of allocates a result per element).
  const all: Patch[] = [];
  for (let i = 0; i < changes.length; i++) {
    const patches = changes[i]!.patches;
    for (let j = 0; j < patches.length; j++) all.push(patches[j]!);
  }
  if (!all.every(isGranular)) return applyPatches(state, all);
  const maps: Record<string, Record<string, unknown>> = {};
  for (const c of collections) maps[c] = { ...(state[c] ?? {}) };
  let serial = state.serial;
  for (let i = 0; i < all.length; i++) {
    const p = all[i]!;
    if (p.path[0] === 'serial') {
      serial = p.value as number;
      continue;
    }
    const target = maps[p.path[0] as string]!;
    const key = p.path[1] as string;
    if (p.op === 'remove') delete target[key];
    else setOwn(target, key, p.value);
  }
  const next: Record<string, unknown> = { ...state, serial };
  for (const c of collections) next[c] = Object.freeze(maps[c]);
  return Object.freeze(next) as State;
}

function isGranular(p: Patch): boolean {
  if (p.path.length === 1) return p.path[0] === 'serial' && p.op === 'replace';
  return p.path.length === 2 && (collections as readonly unknown[]).includes(p.path[0]);
}
