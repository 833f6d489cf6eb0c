// Errors of the state layer, and ConvergeError, the base of every error converge throws on purpose.
// The state layer sits below the engine, so the base class lives here and the engine re-exports it.

/** The `code` of every error converge throws on purpose, one per error class. */
type ErrorCode =
  | 'CONVERGE_VALIDATION'
  | 'CONVERGE_STALE_PLAN'
  | 'CONVERGE_STATE_LOCKED'
  | 'CONVERGE_STATE_CONFLICT'
  | 'CONVERGE_STATE_CORRUPT'
  | 'CONVERGE_STATE_PASSPHRASE'
  | 'CONVERGE_APPLY'
  | 'CONVERGE_PROTECTED_RESOURCE'
  | 'CONVERGE_LOOKUP'
  | 'CONVERGE_PROVIDER'
  | 'CONVERGE_TIMEOUT'
  | 'CONVERGE_CONFIG'
  | 'CONVERGE_PARTIAL_CREATE'
  | 'CONVERGE_PLAN_FILE'
  /** A mandatory policy found a violation (PolicyViolationError). */
  | 'CONVERGE_POLICY_VIOLATION'
  /** A policy threw (its bug): nothing was changed. */
  | 'CONVERGE_POLICY_ERROR'
  /** Reading resources for a plan or refresh failed (RefreshError). */
  | 'CONVERGE_REFRESH'
  /** A step's inputs could not be made at apply (UnresolvedInputsError). */
  | 'CONVERGE_UNRESOLVED_INPUTS'
  /** A name asked for (result.output) is not in the state. */
  | 'CONVERGE_NOT_IN_STATE'
  /** forceUnlock: no lock with that id is held, or the store cannot force-unlock. */
  | 'CONVERGE_LOCK_NOT_FOUND'
  /** forceUnlock without `force` of a lock whose holder still runs, or cannot be checked from here. */
  | 'CONVERGE_LOCK_HOLDER_ALIVE'
  /** converge/fleet's errors: an unknown stack or run, a stack module that fails to load, a bad cron, ... */
  | `CONVERGE_FLEET_${string}`
  | 'CONVERGE_ERROR';

/**
 * The base of every error converge throws on purpose. Catch it to handle them all; tell them apart
 * by class (`instanceof`) or by `code`. Each subclass carries the facts of its failure in readonly
 * fields; messages never hold a secret value, and say what to do next.
 *
 * @example
 * ```ts
 * import { ConvergeError, Engine, MemoryStateStore } from 'converge';
 * const engine = new Engine({ providers: [], state: new MemoryStateStore() });
 * export const problems: unknown[][] = []; // what went wrong, to show or act on
 * try {
 *   await engine.plan([]);
 * } catch (e) {
 *   if (e instanceof ConvergeError) problems.push([e.code, e.message]);
 *   else throw e;
 * }
 * ```
 */
export class ConvergeError extends Error {
  /** The class's name, e.g. `'ValidationError'`; survives serialisation, unlike the class. */
  override readonly name: string = 'ConvergeError';
  /** A stable code per class: `CONVERGE_VALIDATION`, `CONVERGE_APPLY`, `CONVERGE_STATE_LOCKED`, … (`CONVERGE_ERROR` or the given `code` here). */
  readonly code: ErrorCode;
  /** `code` is for the failures without a subclass of their own; a subclass sets its own. */
  constructor(message: string, options?: { cause?: unknown; code?: ErrorCode }) {
    super(message, options);
    this.code = options?.code ?? 'CONVERGE_ERROR';
  }
}

/** Who holds a state lock, as the lock records it. */
type LockHolder = {
  readonly pid: number;
  readonly host: string;
  readonly operation: string;
  readonly since: string;
  readonly id: string;
};

/**
 * The state is locked by another operation (another process, or another engine on the same
 * store), and it stayed locked for the engine's `lockTimeout` (default: do not wait). Thrown by
 * `plan`, `apply`, `refresh`, `import`, `destroy` and the state commands, with every store;
 * nothing was read or changed. Code `CONVERGE_STATE_LOCKED`.
 *
 * @example
 * ```ts
 * import { Engine, MemoryStateStore, StateLockedError } from 'converge';
 * const engine = new Engine({ providers: [], state: new MemoryStateStore(), lockTimeout: '30s' });
 * export const problems: unknown[][] = []; // what went wrong, to show or act on
 * try {
 *   await engine.refresh();
 * } catch (e) {
 *   if (e instanceof StateLockedError) problems.push([`held by ${e.holder} for ${e.operation} since ${e.since}; lock ${e.lockId}`]);
 *   else throw e;
 * }
 * ```
 */
export class StateLockedError extends ConvergeError {
  override readonly name = 'StateLockedError';
  override readonly code = 'CONVERGE_STATE_LOCKED';
  /** The lock's id: what `engine.forceUnlock(lockId)` (`converge force-unlock`) takes once its holder is known to be gone. */
  readonly lockId: string;
  /** `pid@host` of the holder. */
  readonly holder: string;
  /** What the holder is doing: `plan`, `apply`, `refresh`, `destroy`, … */
  readonly operation: string;
  /** When the holder took the lock (ISO 8601). */
  readonly since: string;
  /** The holder's process id. */
  readonly pid: number;
  /** The holder's host name. */
  readonly host: string;
  constructor(info: LockHolder, where: string) {
    super(
      `The state at ${where} is locked by pid ${info.pid} on ${info.host} for ${info.operation} since ${info.since} (lock ${info.id}).\n` +
        'Wait for that operation to finish, or pass lockTimeout to wait for it.',
    );
    this.lockId = info.id;
    this.holder = `${info.pid}@${info.host}`;
    this.operation = info.operation;
    this.since = info.since;
    this.pid = info.pid;
    this.host = info.host;
  }
}

/**
 * `forceUnlock` (`converge force-unlock`) without `force` found the lock's holder alive — the file
 * store: a process with its pid runs on this host; the PostgreSQL store: its database session still
 * holds the stack's advisory lock; the memory store: it is this process — or, for a lock file
 * written on another host, cannot tell. Nothing was released: two writers at once can damage the
 * state. A holder known to be gone is released without this. Code `CONVERGE_LOCK_HOLDER_ALIVE`.
 *
 * @example
 * ```ts
 * import { Engine, LockHolderAliveError, MemoryStateStore } from 'converge';
 * const engine = new Engine({ providers: [], state: new MemoryStateStore() });
 * export const problems: unknown[][] = []; // what went wrong, to show or act on
 * try {
 *   await engine.forceUnlock('2b1c…');
 * } catch (e) {
 *   if (e instanceof LockHolderAliveError) problems.push([`pid ${e.pid} on ${e.host} still holds it (${e.liveness})`]);
 *   else throw e;
 * }
 * ```
 */
export class LockHolderAliveError extends ConvergeError {
  override readonly name = 'LockHolderAliveError';
  override readonly code = 'CONVERGE_LOCK_HOLDER_ALIVE';
  /** The lock's id. */
  readonly lockId: string;
  /** The holder's process id, as the lock records it. */
  readonly pid: number;
  /** The holder's host name. */
  readonly host: string;
  /** What the holder is doing: `plan`, `apply`, … */
  readonly operation: string;
  /** When the holder took the lock (ISO 8601). */
  readonly since: string;
  constructor(
    info: LockHolder,
    /** The store's location. */
    readonly where: string,
    /** `alive`: checked and still there; `unknown`: cannot be checked from here (a lock file of another host). */
    readonly liveness: 'alive' | 'unknown',
    /** How it was checked, for the message: "process 4242 runs on this host". */
    readonly evidence: string,
    /** PostgreSQL: the session holding the advisory lock (its backend pid and application_name). */
    readonly session?: { readonly backendPid: number; readonly applicationName: string; readonly since: string },
  ) {
    super(
      `Refused to force-unlock lock ${info.id} on ${where}: its holder, pid ${info.pid} on ${info.host} (${info.operation} since ${info.since}), ` +
        `${liveness === 'alive' ? 'is still alive' : 'may still be alive'}: ${evidence}.\n` +
        'Releasing the lock of a holder that is still writing lets two writers change the state at once. Wait for it to finish, ' +
        `or stop it; when you know it writes nothing, force it: converge force-unlock --force ${info.id} (engine.forceUnlock(id, { force: true })).`,
    );
    this.lockId = info.id;
    this.pid = info.pid;
    this.host = info.host;
    this.operation = info.operation;
    this.since = info.since;
  }
}

/**
 * A write to the state whose base serial is stale: another writer got there first (one that
 * bypassed the lock, or after a forced unlock). Thrown by a store's write; the write is refused
 * whole. Plan again. Code `CONVERGE_STATE_CONFLICT`.
 */
export class StateConflictError extends ConvergeError {
  override readonly name = 'StateConflictError';
  override readonly code = 'CONVERGE_STATE_CONFLICT';
  constructor(
    /** The store's location (a file path, the PostgreSQL stack, the memory location's name). */
    readonly where: string,
    /** The serial the write was based on. */
    readonly expectedSerial: number,
    /** The serial the stored state is at. */
    readonly actualSerial: number,
  ) {
    super(
      `Refused to write the state at ${where}: this write is based on serial ${expectedSerial}, but the stored state is at serial ${actualSerial}.\n` +
        'Another writer changed the state; plan again.',
    );
  }
}

/**
 * The state cannot be read: a state file that is not JSON or lacks lineage, serial or resources,
 * or a journal with a damaged record before valid ones, a gap in its serials, or records without
 * a state file. Thrown by {@link FileStateStore} reads; nothing is written over it. Code
 * `CONVERGE_STATE_CORRUPT`.
 */
export class StateCorruptError extends ConvergeError {
  override readonly name = 'StateCorruptError';
  override readonly code = 'CONVERGE_STATE_CORRUPT';
  constructor(
    /** The state file's path. */
    readonly where: string,
    /** What is wrong with it. */
    readonly reason: string,
    options?: { cause?: unknown },
  ) {
    super(
      `The state at ${where} cannot be read: ${reason}.\nRestore it from a backup or fix the file by hand.`,
      options,
    );
  }
}

/**
 * The state holds secrets encrypted at rest and the store was given no passphrase, or a different
 * one. Thrown when a store reads or writes such a state; nothing is decrypted or written. Code
 * `CONVERGE_STATE_PASSPHRASE`.
 */
export class SecretsPassphraseError extends ConvergeError {
  override readonly name = 'SecretsPassphraseError';
  override readonly code = 'CONVERGE_STATE_PASSPHRASE';
  constructor(
    /** The store's location. */
    readonly where: string,
    /** `missing`: no passphrase was given; `wrong`: it does not decrypt the secrets. */
    readonly reason: 'missing' | 'wrong',
  ) {
    super(
      reason === 'missing'
        ? `The state at ${where} holds encrypted secrets but no passphrase was given.\nPass secretsPassphrase or set CONVERGE_SECRETS_PASSPHRASE.`
        : `The state at ${where} holds secrets encrypted with a different passphrase.\nPass the passphrase the state was written with.`,
    );
  }
}
