// The StateStore interface every store implements (memory, file, PostgreSQL), and the lock handle.
import type { State } from './model.js';
import type { StateChange } from './patch.js';

export type LockRequest = {
  /** What the holder is doing: 'apply', 'plan', 'refresh', 'import', 'destroy'. */
  readonly operation: string;
  /** How long to wait for a held lock before StateLockedError; default 0 (fail at once). */
  readonly timeoutMs?: number;
  readonly signal?: AbortSignal;
};

export type LockInfo = { readonly id: string; readonly pid: number; readonly host: string; readonly operation: string; readonly since: string };

export type Lock = {
  readonly info: LockInfo;
  /** Warnings from taking the lock (a stale lock of a dead process taken over). */
  readonly warnings: readonly string[];
  release(): Promise<void>;
};

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
  /** Replaces the whole stored state (used after import of a state, or compaction). */
  write(state: State, baseSerial: number): Promise<void>;
  /** Folds any journal into the state file (end of apply). */
  compact(): Promise<void>;
  lock(request: LockRequest): Promise<Lock>;
  /**
   * Releases the lock with id `lockId` whatever holds it (Terraform's force-unlock), for a lock whose
   * holder is known to be gone. Resolves false when no lock with that id is held.
   */
  forceUnlock?(lockId: string): Promise<boolean>;
  /** Warnings the store has for the user (secrets stored in clear, ...), each given once. */
  takeWarnings?(): readonly string[];
  /**
   * The warning a write of secret values would give: set when this store keeps them in clear at
   * rest (no passphrase), undefined when it encrypts them. The engine shows it in the first plan
   * and before apply writes anything.
   */
  secretsWarning?(): string | undefined;
  close(): Promise<void>;
}
