// MemoryStateStore: the state in process memory, for tests and dry-runs. Two instances given the
// same `MemoryLocation` share one state and one lock, like two processes on one file.
import type { State } from '../model.js';
import type { StateChange } from '../patch.js';
import { replay } from '../patch.js';
import { emptyState } from '../ops.js';
import type { Lock, LockInfo, LockRequest, StateStore } from '../store.js';
import { lockInfo, waitForLock } from '../lock.js';
import { StateConflictError, StateLockedError } from '../../engine/errors.js';

/** The shared place two memory stores can point at. */
export class MemoryLocation {
  state: State | undefined;
  holder: LockInfo | undefined;
  readonly name: string;
  constructor(name = 'memory') { this.name = name; }
}

export class MemoryStateStore implements StateStore {
  readonly location: string;
  readonly #where: MemoryLocation;

  constructor(location: MemoryLocation = new MemoryLocation()) {
    this.#where = location;
    this.location = `memory:${location.name}`;
  }

  async read(): Promise<State> {
    this.#where.state ??= emptyState();
    return this.#where.state;
  }

  async commit(change: StateChange, next: State): Promise<void> {
    const current = await this.read();
    if (current.serial !== change.baseSerial) throw new StateConflictError(this.location, change.baseSerial, current.serial);
    this.#where.state = next.serial === change.serial ? next : replay(current, change);
  }

  async write(state: State, baseSerial: number): Promise<void> {
    const current = await this.read();
    if (current.serial !== baseSerial) throw new StateConflictError(this.location, baseSerial, current.serial);
    this.#where.state = state;
  }

  async compact(): Promise<void> {}

  async lock(request: LockRequest): Promise<Lock> {
    const where = this.#where;
    const info = lockInfo(request.operation);
    const got = await waitForLock(request, async () => {
      if (where.holder) return undefined;
      where.holder = info;
      return info;
    }, 5);
    if (!got) throw new StateLockedError(where.holder!, this.location);
    return {
      info,
      warnings: [],
      release: async () => { if (where.holder?.id === info.id) where.holder = undefined; },
    };
  }

  async close(): Promise<void> {}
}
