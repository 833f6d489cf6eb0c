// The file store's memory of the state: the last state it read or wrote (frozen) and the changes
// committed on it since, so a read after its own commits needs no load of the files.
import { freeze } from 'immer';
import type { State } from '../model.js';
import { replayAll, type StateChange } from '../patch.js';
import { applyRecord, type RawState } from '../journal.js';

export class StateCache {
  #base: State | undefined;
  #tail: StateChange[] = [];

  /** True while a state is held. */
  get holds(): boolean {
    return this.#base !== undefined;
  }

  /** Holds `state` (frozen) as the base, with no changes on it yet. */
  adopt(state: State | RawState): State {
    this.#base = Object.isFrozen(state) ? (state as State) : freeze(state as State, true);
    this.#tail = [];
    return this.#base;
  }

  /** A change made durable on the held state. */
  append(change: StateChange): void {
    this.#tail.push(change);
  }

  /** Forgets the held state (after a failed write, what the files hold is unknown). */
  clear(): void {
    this.#base = undefined;
  }

  /** The state at `serial` of `lineage` from what is held, or undefined when what is held cannot tell. */
  current(serial: number, lineage: string): State | undefined {
    const base = this.#base;
    if (!base || base.lineage !== lineage) return undefined;
    const tail = this.#tail;
    const last = tail.length ? tail[tail.length - 1]!.serial : base.serial;
    if (last !== serial || (tail.length > 0 && tail[0]!.baseSerial !== base.serial)) return undefined;
    if (tail.length === 0) return base;
    if (tail.some((c) => c.patches.some((p) => p.path.length > 2))) return this.adopt(replayAll(base, tail));
    // resource-granular patches: one shallow copy and O(1) per patch (immer's applyPatches costs ~75 µs a patch)
    const raw: RawState = {
      ...base,
      resources: { ...base.resources },
      pending: { ...base.pending },
      deposed: { ...base.deposed },
      outputs: { ...base.outputs },
    };
    for (const c of tail) applyRecord(raw, c);
    return this.adopt(raw);
  }
}
