// MemoryStateStore: the state in process memory, for tests and dry-runs. Two instances given the
// same `MemoryLocation` share one state and one lock, like two processes on one file.
import type { State } from '../model.js';
import type { StateChange } from '../patch.js';
import { replayAll } from '../patch.js';
import { emptyState } from '../ops.js';
import type { Lock, LockInfo, LockRequest, StateStore } from '../store.js';
import { lockInfo, waitForLock } from '../lock.js';
import { StateConflictError, StateLockedError } from '../errors.js';

/** The shared place two memory stores can point at. */
export class MemoryLocation {
  state: State | undefined;
  /** Committed changes not yet folded into `state` (folded on read, so a commit costs O(1)). */
  queue: StateChange[] = [];
  serial = 0;
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
    const where = this.#where;
    if (!where.state) { where.state = emptyState(); where.serial = 0; }
    if (where.queue.length) {
      where.state = replayAll(where.state, where.queue);
      where.queue = [];
    }
    return where.state;
  }

  async commit(change: StateChange): Promise<void> {
    const where = this.#where;
    if (!where.state) await this.read();
    if (where.serial !== change.baseSerial) throw new StateConflictError(this.location, change.baseSerial, where.serial);
    where.queue.push(change);
    where.serial = change.serial;
  }

  async write(state: State, baseSerial: number): Promise<void> {
    const current = await this.read();
    if (current.serial !== baseSerial) throw new StateConflictError(this.location, baseSerial, current.serial);
    this.#where.state = state;
    this.#where.serial = state.serial;
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

  async forceUnlock(lockId: string): Promise<boolean> {
    if (this.#where.holder?.id !== lockId) return false;
    this.#where.holder = undefined;
    return true;
  }

  async close(): Promise<void> {}
}
