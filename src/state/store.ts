// The StateStore interface every store implements (memory, file, PostgreSQL), and the lock handle.
import type { StackOutput, State } from './model.js';
import type { StateChange } from './patch.js';

/** What `StateStore.lock()` takes. */
export type LockRequest = {
  /** What the holder is doing: 'apply', 'plan', 'refresh', 'import', 'destroy'. */
  readonly operation: string;
  /** How long to wait for a held lock before StateLockedError; default 0 (fail at once). */
  readonly timeoutMs?: number;
  /** Stops waiting for a held lock. */
  readonly signal?: AbortSignal;
  /** Hears of each wait for a held lock (the first, then each of a second or more). */
  readonly onWait?: (wait: LockWait) => void;
};

/** A wait for a lock another holder has, as {@link LockRequest.onWait} hears of it. */
export type LockWait = {
  /** How long until the next try. */
  readonly delayMs: number;
  /** How long it has waited so far. */
  readonly waitedMs: number;
  /** How long it will wait at most from now (the lock timeout's rest). */
  readonly leftMs: number;
  /** Who holds the lock, when the store could read it. */
  readonly holder?: LockInfo;
};

/** Who holds a lock; {@link StateLockedError} carries the same facts. */
export type LockInfo = {
  /** The lock's id (what force-unlock takes). */
  readonly id: string;
  /** The holder's process id. */
  readonly pid: number;
  /** The holder's host name. */
  readonly host: string;
  /** What the holder is doing. */
  readonly operation: string;
  /** When it took the lock, ISO 8601. */
  readonly since: string;
};

/** What `StateStore.forceUnlock()` takes. */
export type ForceUnlockOptions = {
  /** Release the lock even when its holder is alive or cannot be checked; default false. */
  readonly force?: boolean;
};

/** A held state lock. */
export type Lock = {
  /** Who holds it (this process). */
  readonly info: LockInfo;
  /** Warnings from taking the lock (a stale lock of a dead process taken over). */
  readonly warnings: readonly string[];
  /** Releases the lock. */
  release(): Promise<void>;
};

/** A stack's outputs as one consistent snapshot: what {@link StateStore.readOutputs} answers. */
export type OutputsSnapshot = {
  /** False when the store holds no state at all (the stack was never applied). */
  readonly exists: boolean;
  /** The state's lineage. */
  readonly lineage: string;
  /** The serial of the state the outputs belong to. */
  readonly serial: number;
  /** The outputs by name, secret values opened (the caller keeps them secret). */
  readonly outputs: Readonly<Record<string, StackOutput>>;
};

/**
 * Where the engine keeps its state. Three implementations ship: {@link MemoryStateStore} (tests),
 * {@link FileStateStore} (the default) and {@link PostgresStateStore} (teams and CI); write your own
 * by implementing this interface.
 */
export interface StateStore {
  /** Where the state lives, for messages ('file:/x/state.json', 'postgres:stack'). */
  readonly location: string;
  /** The current state (journal replayed); an empty state with a new lineage when none exists. */
  read(): Promise<State>;
  /**
   * Makes a change durable. Calls are ordered: each change's baseSerial is the previous one's
   * serial, and the engine issues the next commit without awaiting the previous one (so a store
   * may group several into one fsync). Resolves when the change survives a crash. Refuses
   * (StateConflictError) a change whose baseSerial is not the stored serial.
   *
   * The engine hands over patches only, never a whole state: building a new state object per step
   * costs O(resources), which a 10,000-step apply cannot afford. Patches are resource-granular
   * (see ops.ts): replace ['serial']; add/replace ['resources', name] with the whole resource, or
   * remove it; add ['pending', id] or remove it. A store rebuilds its state with replay().
   */
  commit(change: StateChange): Promise<void>;
  /**
   * The stack's outputs alone, as one consistent snapshot, without the lock and without writing
   * anything: what another stack reads (`stackOutputs()`, `stackRef()`). A store that can, reads
   * less than the whole state (PostgreSQL: its outputs view; file: a sidecar). Absent: read() is used.
   */
  readOutputs?(): Promise<OutputsSnapshot>;
  /** Replaces the whole stored state (used after import of a state, or compaction). */
  write(state: State, baseSerial: number): Promise<void>;
  /** Folds any journal into the state file (end of apply). */
  compact(): Promise<void>;
  /** Takes the state lock, waiting up to `timeoutMs` for a held one; else throws {@link StateLockedError}. */
  lock(request: LockRequest): Promise<Lock>;
  /**
   * Releases the lock with id `lockId` (Terraform's force-unlock) when its holder is gone; resolves
   * false when no lock with that id is held. A holder that is alive, or that the store cannot check,
   * is not released without `force`: a `LockHolderAliveError` says who holds it and how it was
   * checked.
   */
  forceUnlock?(lockId: string, options?: ForceUnlockOptions): Promise<boolean>;
  /** Warnings the store has for the user (secrets stored in clear, ...), each given once. */
  takeWarnings?(): readonly string[];
  /**
   * The warning a write of secret values would give: set when this store keeps them in clear at
   * rest (no passphrase), undefined when it encrypts them. The engine shows it in the first plan
   * and before apply writes anything; `paths` names the values that will be written
   * (`web.inputs.password`), and the engine asks only when there is one.
   */
  secretsWarning?(paths?: readonly string[]): string | undefined;
  /** Releases the store's resources (connections, file handles); the engine never calls it implicitly. */
  close(): Promise<void>;
}
