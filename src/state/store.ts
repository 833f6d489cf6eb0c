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
   * serial. Resolves when the change survives a crash. Refuses (StateConflictError) a change whose
   * baseSerial is not the stored serial.
   */
  commit(change: StateChange, next: State): Promise<void>;
  /** Replaces the whole stored state (used after import of a state, or compaction). */
  write(state: State, baseSerial: number): Promise<void>;
  /** Folds any journal into the state file (end of apply). */
  compact(): Promise<void>;
  lock(request: LockRequest): Promise<Lock>;
  /** Warnings the store has for the user (secrets stored in clear, ...), each given once. */
  takeWarnings?(): readonly string[];
  close(): Promise<void>;
}
