// Every error converge throws on purpose: one base class, one subclass per failure a caller would
// handle differently. Facts live in readonly fields; the message is built from them and never
// holds a secret value.
import { fieldOf, type Issue } from './validate/issue.js';
import { ConvergeError } from '../state/errors.js';
import type { ApplyResult } from './apply/result.js';

export {
  ConvergeError, StateLockedError, StateConflictError, StateCorruptError, SecretsPassphraseError,
} from '../state/errors.js';

/** Invalid declarations or arguments, every problem at once. Nothing was read or changed. */
export class ValidationError extends ConvergeError {
  override readonly name = 'ValidationError';
  override readonly code = 'CONVERGE_VALIDATION';
  readonly issues: readonly Issue[];
  constructor(issues: readonly Issue[]) {
    super(
      `${issues.length} invalid input${issues.length === 1 ? '' : 's'}; nothing was changed:\n` +
        issues.map((i) => `  ${formatIssue(i)}`).join('\n') +
        '\nFix the declarations above and plan again.',
    );
    this.issues = issues;
  }
}

/**
 * `name.inputs.path[0]: message`, the one formatter for an issue: `name.options.timeouts.create`,
 * `name.type` for the declaration itself, `token.args.x` for a lookup, `targets` for plan options.
 * Names and keys are cut to a short prefix, so a huge value never makes a huge message.
 */
export function formatIssue(issue: Issue): string {
  const short = (s: string) => (s.length > 60 ? `${s.slice(0, 60)}…` : s);
  const path = issue.path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${short(String(p))}`)).join('');
  const field = fieldOf(issue);
  const resource = short(issue.resource);
  let where: string;
  if (!resource || field === 'plan') where = path.replace(/^\./, '') || '(arguments)';
  else if (field === 'declaration') where = `${resource}${path}`;
  else where = `${resource}${issue.path.length || field !== 'inputs' ? `.${field}` : ''}${path}`;
  return `${where}: ${issue.message}`;
}

export class StalePlanError extends ConvergeError {
  override readonly name = 'StalePlanError';
  override readonly code = 'CONVERGE_STALE_PLAN';
  constructor(
    readonly lineage: string,
    readonly planSerial: number,
    readonly stateSerial: number,
    readonly stateLineage: string = lineage,
  ) {
    super(
      stateLineage !== lineage
        ? `The plan was made for state lineage ${lineage}, but the state now has lineage ${stateLineage}; nothing was applied.\nPlan again against the current state.`
        : `The plan was made at state serial ${planSerial}, but the state is now at serial ${stateSerial}; nothing was applied.\nPlan again against the current state.`,
    );
  }
}

type ProtectedAction = 'delete' | 'replace';

export class ProtectedResourceError extends ConvergeError {
  override readonly name = 'ProtectedResourceError';
  override readonly code = 'CONVERGE_PROTECTED_RESOURCE';
  constructor(readonly address: string, readonly action: ProtectedAction, readonly others: readonly { address: string; action: ProtectedAction }[] = []) {
    super(
      `The plan would ${action} ${address}, which is protected; nothing was planned.\n` +
        'Remove `protect` from its options first if you really mean to.',
    );
  }
}

export class TimeoutError extends ConvergeError {
  override readonly name = 'TimeoutError';
  override readonly code = 'CONVERGE_TIMEOUT';
  constructor(readonly address: string, readonly operation: string, readonly limitMs: number, readonly detail?: string) {
    super(
      `${operation} of ${address} did not finish within ${formatMs(limitMs)}${detail ? ` (${detail})` : ''}.\n` +
        'Raise the resource\'s timeouts if the object is just slow.',
    );
  }
}

type LookupFailure = 'not_found' | 'ambiguous';

export class LookupError extends ConvergeError {
  override readonly name = 'LookupError';
  override readonly code = 'CONVERGE_LOOKUP';
  constructor(
    readonly token: string,
    readonly reason: LookupFailure,
    readonly matches: readonly string[] = [],
    readonly criteria: string = '',
  ) {
    super(
      reason === 'not_found'
        ? `${token}: no object matches ${criteria || 'the arguments'}.\nCheck the name or id, and the region or project it is in.`
        : `${token}: ${matches.length} objects match ${criteria || 'the arguments'} (${matches.join(', ')}); exactly one must.\nNarrow the arguments, for example by id.`,
    );
  }
}

type ProviderErrorFacts = {
  readonly provider: string;
  readonly operation: string;
  readonly method?: string;
  readonly pathTemplate?: string;
  readonly status?: number;
  readonly vendorCode?: string;
  readonly requestId?: string;
  readonly retryable: boolean;
  /** The request may have taken effect although no answer says so (reset after sending a POST). */
  readonly outcomeUnknown?: boolean;
  /** Seconds the vendor asked to wait (Retry-After), when it did. */
  readonly retryAfterSeconds?: number;
  /** The vendor said the object does not exist (by status or by its error code). */
  readonly notFound?: boolean;
  readonly detail: string;
};

export class ProviderError extends ConvergeError {
  override readonly name = 'ProviderError';
  override readonly code = 'CONVERGE_PROVIDER';
  readonly provider: string;
  readonly operation: string;
  readonly method: string | undefined;
  readonly pathTemplate: string | undefined;
  readonly status: number | undefined;
  readonly vendorCode: string | undefined;
  readonly requestId: string | undefined;
  readonly retryable: boolean;
  readonly outcomeUnknown: boolean;
  readonly retryAfterSeconds: number | undefined;
  readonly notFound: boolean;
  readonly detail: string;
  constructor(facts: ProviderErrorFacts, options?: { cause?: unknown }) {
    const where = facts.method ? ` (${facts.method} ${facts.pathTemplate ?? ''}${facts.status ? ` → ${facts.status}` : ''})` : '';
    super(
      `${facts.provider}: ${facts.operation} failed${where}: ${facts.detail}` +
        (facts.vendorCode ? ` [${facts.vendorCode}]` : '') +
        (facts.requestId ? ` request ${facts.requestId}` : '') +
        (facts.retryable ? '\nThe failure looks transient; it was retried and may pass later.' : ''),
      options,
    );
    this.provider = facts.provider;
    this.operation = facts.operation;
    this.method = facts.method;
    this.pathTemplate = facts.pathTemplate;
    this.status = facts.status;
    this.vendorCode = facts.vendorCode;
    this.requestId = facts.requestId;
    this.retryable = facts.retryable;
    this.outcomeUnknown = facts.outcomeUnknown ?? false;
    this.retryAfterSeconds = facts.retryAfterSeconds;
    this.notFound = facts.notFound ?? false;
    this.detail = facts.detail;
  }
}

/**
 * Thrown by a provider's `create` when the object was made but a later stage failed (it never
 * became ready, never got its address within the limit): the engine records the object as tainted,
 * so nothing is lost and the next plan replaces it. `cause` says what failed.
 */
export class PartialCreateError extends ConvergeError {
  override readonly name = 'PartialCreateError';
  override readonly code = 'CONVERGE_PARTIAL_CREATE';
  constructor(readonly address: string, readonly id: string, readonly outputs: Readonly<Record<string, unknown>>, options: { cause: unknown }) {
    super(
      `${address}: ${id} was created, but the create did not finish: ${(options.cause as Error)?.message?.split('\n')[0] ?? String(options.cause)}\n` +
        'It is recorded as tainted; the next plan replaces it.',
      options,
    );
  }
}

/** Wrong configuration of a provider or store, found before any request. */
export class ConfigError extends ConvergeError {
  override readonly name = 'ConfigError';
  override readonly code = 'CONVERGE_CONFIG';
  constructor(readonly subject: string, readonly field: string, readonly reason: string, options?: { cause?: unknown }) {
    super(`${subject}: ${field} ${reason}.`, options);
  }
}

/** One or more steps failed. `result` says what succeeded, what failed (with causes) and what was skipped. */
export class ApplyError extends ConvergeError {
  override readonly name = 'ApplyError';
  override readonly code = 'CONVERGE_APPLY';
  constructor(readonly result: ApplyResult) {
    super(
      `${result.failed.length} step${result.failed.length === 1 ? '' : 's'} failed, ${result.skipped.length} skipped, ${result.succeeded.length} succeeded:\n` +
        result.failed.map((f) => `  ${f.action} ${f.address}: ${f.error.message.split('\n')[0]}`).join('\n') +
        (result.skipped.length ? `\n  skipped: ${result.skipped.map((s) => s.address).join(', ')}` : '') +
        '\nThe state records every step that succeeded; fix the cause and plan again.',
      { cause: result.failed[0]?.error },
    );
  }
}

export function formatMs(ms: number): string {
  if (ms % 3_600_000 === 0) return `${ms / 3_600_000}h`;
  if (ms % 60_000 === 0) return `${ms / 60_000}m`;
  if (ms % 1000 === 0) return `${ms / 1000}s`;
  return `${ms}ms`;
}
