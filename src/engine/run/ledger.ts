// The apply's working view of the state: the state it started from plus an overlay of what each
// step changed. Every change goes to the store, in order, as patches; reading a resource is O(1),
// and no whole state is built until the end (materialize).
import type { DeposedObject, PendingOperation, ResourceState, State } from '../../state/model.js';
import { own } from '../../state/keys.js';
import type { StateChange } from '../../state/patch.js';
import { replayAll } from '../../state/patch.js';
import type { StateStore } from '../../state/store.js';

export class Ledger {
  readonly #base: State;
  readonly #store: StateStore;
  readonly #resources = new Map<string, ResourceState | null>();
  readonly #pending = new Map<string, PendingOperation | null>();
  readonly #deposed = new Map<string, DeposedObject | null>();
  readonly #changes: StateChange[] = [];
  #serial: number;

  constructor(base: State, store: StateStore) {
    this.#base = base;
    this.#store = store;
    this.#serial = base.serial;
  }

  get serial(): number {
    return this.#serial;
  }
  get lineage(): string {
    return this.#base.lineage;
  }

  get(name: string): ResourceState | undefined {
    const o = this.#resources.get(name);
    if (o !== undefined) return o ?? undefined;
    return own(this.#base.resources, name);
  }

  getDeposed(key: string): DeposedObject | undefined {
    const o = this.#deposed.get(key);
    if (o !== undefined) return o ?? undefined;
    return own(this.#base.deposed, key);
  }

  getPending(id: string): PendingOperation | undefined {
    const o = this.#pending.get(id);
    if (o !== undefined) return o ?? undefined;
    return own(this.#base.pending, id);
  }

  /** Applies the change to the view at once and hands it to the store; resolves when it is durable. */
  commit(make: (baseSerial: number) => StateChange): Promise<void> {
    const change = make(this.#serial);
    this.#serial = change.serial;
    for (let i = 0; i < change.patches.length; i++) {
      const p = change.patches[i]!;
      const root = p.path[0];
      const key = p.path[1] as string;
      if (root === 'resources') this.#resources.set(key, p.op === 'remove' ? null : (p.value as ResourceState));
      else if (root === 'pending') this.#pending.set(key, p.op === 'remove' ? null : (p.value as PendingOperation));
      else if (root === 'deposed') this.#deposed.set(key, p.op === 'remove' ? null : (p.value as DeposedObject));
    }
    // An index store, not push(), that the JIT keeps optimized (see engine/validate/validate.ts).
    this.#changes[this.#changes.length] = change;
    return this.#store.commit(change);
  }

  /** The state after every change so far: one copy, however many steps. */
  materialize(): State {
    return replayAll(this.#base, this.#changes);
  }
}
