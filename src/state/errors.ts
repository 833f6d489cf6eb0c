// Errors of the state layer, and ConvergeError, the base of every error converge throws on purpose.
// The state layer sits below the engine, so the base class lives here and the engine re-exports it.

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
  | 'CONVERGE_ERROR';

export class ConvergeError extends Error {
  override readonly name: string = 'ConvergeError';
  readonly code: ErrorCode = 'CONVERGE_ERROR';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

type LockHolder = { readonly pid: number; readonly host: string; readonly operation: string; readonly since: string; readonly id: string };

export class StateLockedError extends ConvergeError {
  override readonly name = 'StateLockedError';
  override readonly code = 'CONVERGE_STATE_LOCKED';
  readonly lockId: string;
  readonly holder: string;
  readonly operation: string;
  readonly since: string;
  readonly pid: number;
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

/** A write whose base serial is stale: another writer got there first. */
export class StateConflictError extends ConvergeError {
  override readonly name = 'StateConflictError';
  override readonly code = 'CONVERGE_STATE_CONFLICT';
  constructor(readonly where: string, readonly expectedSerial: number, readonly actualSerial: number) {
    super(
      `Refused to write the state at ${where}: this write is based on serial ${expectedSerial}, but the stored state is at serial ${actualSerial}.\n` +
        'Another writer changed the state; plan again.',
    );
  }
}

export class StateCorruptError extends ConvergeError {
  override readonly name = 'StateCorruptError';
  override readonly code = 'CONVERGE_STATE_CORRUPT';
  constructor(readonly where: string, readonly reason: string, options?: { cause?: unknown }) {
    super(`The state at ${where} cannot be read: ${reason}.\nRestore it from a backup or fix the file by hand.`, options);
  }
}

export class SecretsPassphraseError extends ConvergeError {
  override readonly name = 'SecretsPassphraseError';
  override readonly code = 'CONVERGE_STATE_PASSPHRASE';
  constructor(readonly where: string, readonly reason: 'missing' | 'wrong') {
    super(
      reason === 'missing'
        ? `The state at ${where} holds encrypted secrets but no passphrase was given.\nPass secretsPassphrase or set CONVERGE_SECRETS_PASSPHRASE.`
        : `The state at ${where} holds secrets encrypted with a different passphrase.\nPass the passphrase the state was written with.`,
    );
  }
}

