// MemoryStateStore: the state in process memory, for tests and dry-runs. Two instances given the
// same `MemoryLocation` share one state and one lock, like two processes on one file.
import type { State } from '../model.js';
import type { StateChange } from '../patch.js';
import { replayAll } from '../patch.js';
import { emptyState } from '../ops.js';
import type { ForceUnlockOptions, Lock, LockInfo, LockRequest, OutputsSnapshot, StateStore } from '../store.js';
import { lockInfo, waitForLock } from '../lock.js';
import { LockHolderAliveError, StateConflictError, StateLockedError } from '../errors.js';

/** The shared place two memory stores can point at: give both the same one to share a state and a lock. */
export class MemoryLocation {
  /** The state as last folded (undefined until first read). */
  state: State | undefined;
  /** Committed changes not yet folded into `state` (folded on read, so a commit costs O(1)). */
  queue: StateChange[] = [];
  /** The serial of the last committed change. */
  serial = 0;
  /** Who holds the lock, if anyone. */
  holder: LockInfo | undefined;
  /** Names the location in messages (`memory:<name>`). */
  readonly name: string;
  constructor(name = 'memory') {
    this.name = name;
  }
}

/**
 * The state in process memory, for tests and dry-runs: nothing survives the process. Two stores
 * given the same {@link MemoryLocation} share one state and one lock, like two processes on one file.
 *
 * @example
 * ```ts
 * import { Engine, MemoryLocation, MemoryStateStore } from 'converge';
 *
 * const shared = new MemoryLocation('test');
 * const engine = new Engine({ providers: [], state: new MemoryStateStore(shared) });
 * await engine.apply(await engine.plan([]));
 * const other = new MemoryStateStore(shared); // sees the same state, contends for the same lock
 * export const serial = (await other.read()).serial; // the serial the first engine's apply left
 * ```
 */
export class MemoryStateStore implements StateStore {
  readonly location: string;
  readonly #where: MemoryLocation;

  constructor(location: MemoryLocation = new MemoryLocation()) {
    this.#where = location;
    this.location = `memory:${location.name}`;
  }

  async read(): Promise<State> {
    const where = this.#where;
    if (!where.state) {
      where.state = emptyState();
      where.serial = 0;
    }
    if (where.queue.length) {
      where.state = replayAll(where.state, where.queue);
      where.queue = [];
    }
    return where.state;
  }

  /** The outputs of the state as it is now (one process: a read is a consistent snapshot). */
  async readOutputs(): Promise<OutputsSnapshot> {
    const state = await this.read();
    return { exists: state.serial > 0, lineage: state.lineage, serial: state.serial, outputs: state.outputs ?? {} };
  }

  async commit(change: StateChange): Promise<void> {
    const where = this.#where;
    if (!where.state) await this.read();
    if (where.serial !== change.baseSerial)
      throw new StateConflictError(this.location, change.baseSerial, where.serial);
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
    const got = await waitForLock(
      request,
      async () => {
        if (where.holder) return undefined;
        where.holder = info;
        return info;
      },
      5,
      () => where.holder,
    );
    if (!got) throw new StateLockedError(where.holder!, this.location);
    return {
      info,
      warnings: [],
      release: async () => {
        if (where.holder?.id === info.id) where.holder = undefined;
      },
    };
  }

  /** A memory lock's holder is an engine of this process, alive: released only with `force`. */
  async forceUnlock(lockId: string, options?: ForceUnlockOptions): Promise<boolean> {
    const holder = this.#where.holder;
    if (holder?.id !== lockId) return false;
    if (options?.force !== true)
      throw new LockHolderAliveError(
        holder,
        this.location,
        'alive',
        'a memory store is held by an engine of this process',
      );
    this.#where.holder = undefined;
    return true;
  }

  async close(): Promise<void> {}
}
