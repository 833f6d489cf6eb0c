// Every error converge throws on purpose: one base class, one subclass per failure a caller would
// handle differently. Facts live in readonly fields; the message is built from them and never
// holds a secret value.
import { fieldOf, type Issue } from './issue.js';
import { ConvergeError } from '../state/errors.js';
import type { ApplyResult } from './apply-result.js';
import type { PolicyViolation } from './violation.js';

export {
  ConvergeError,
  StateLockedError,
  StateConflictError,
  StateCorruptError,
  SecretsPassphraseError,
} from '../state/errors.js';

/**
 * Invalid declarations or arguments, every problem at once: thrown by `plan`, `planDestroy`,
 * `import` and `lookup` before any request (schemas, unknown types and keys, duplicate names,
 * references to missing resources or outputs, dependency cycles, bad options, unknown targets).
 * Nothing was read or changed. Code `CONVERGE_VALIDATION`.
 *
 * @example
 * ```ts
 * import { Engine, ValidationError } from 'converge';
 * import { provb } from 'converge/providers/b';
 *
 * const engine = new Engine({ providers: [provb({ token: 'your-civo-api-key', region: 'LON1' })] });
 * export const problems: unknown[][] = []; // what went wrong, to show or act on
 * try {
 *   await engine.plan([{ type: 'provb:index/network:Network', name: 'net', inputs: { label: 42 } }]);
 * } catch (e) {
 *   if (!(e instanceof ValidationError)) throw e;
 *   for (const issue of e.issues) problems.push([issue.resource, issue.field, issue.path.join('.'), issue.code]);
 * }
 * ```
 */
export class ValidationError extends ConvergeError {
  override readonly name = 'ValidationError';
  override readonly code = 'CONVERGE_VALIDATION';
  /** Every problem found, each naming the resource, the part of its declaration, the path and the rule (`code`). */
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

/**
 * `apply` was given a plan made against a state that has moved on since (another apply, a
 * refresh, a state command), or against another state altogether (another lineage). Nothing was
 * applied; plan again. Code `CONVERGE_STALE_PLAN`.
 *
 * @example
 * ```ts
 * import { Engine, MemoryStateStore, StalePlanError } from 'converge';
 * const engine = new Engine({ providers: [], state: new MemoryStateStore() });
 * const plan = await engine.plan([]);
 * export const problems: unknown[][] = []; // what went wrong, to show or act on
 * try {
 *   await engine.apply(plan);
 * } catch (e) {
 *   if (e instanceof StalePlanError) problems.push([`planned at serial ${e.planSerial}, state at ${e.stateSerial}`]);
 *   else throw e;
 * }
 * ```
 */
export class StalePlanError extends ConvergeError {
  override readonly name = 'StalePlanError';
  override readonly code = 'CONVERGE_STALE_PLAN';
  constructor(
    /** The lineage the plan was made against. */
    readonly lineage: string,
    /** The state's serial when the plan was made. */
    readonly planSerial: number,
    /** The state's serial now. */
    readonly stateSerial: number,
    /** The state's lineage now (differs from `lineage` when the plan belongs to another state). */
    readonly stateLineage: string = lineage,
  ) {
    // A plan made on a state never written (serial 0) names a lineage no store ever held: what
    // happened is that the state was written since.
    super(
      stateLineage !== lineage && planSerial !== 0
        ? `The plan was made for state lineage ${lineage}, but the state now has lineage ${stateLineage}; nothing was applied.\nPlan again against the current state.`
        : `The plan was made at state serial ${planSerial}${planSerial === 0 ? ' (an empty state)' : ''}, but the state is now at serial ${stateSerial}: it moved on since; nothing was applied.\nPlan again against the current state.`,
    );
  }
}

/** What a plan would have done to a protected resource. */
type ProtectedAction = 'delete' | 'replace';

/**
 * A plan would delete or replace a resource whose options say `protect: true` (removed from the
 * stack, a change that forces replacement, `destroy`). Thrown by `plan`, `planDestroy` and
 * `destroy`; nothing was planned or changed. Code `CONVERGE_PROTECTED_RESOURCE`.
 *
 * @example
 * ```ts
 * import { Engine, MemoryStateStore, ProtectedResourceError } from 'converge';
 * const engine = new Engine({ providers: [], state: new MemoryStateStore() });
 * export const problems: unknown[][] = []; // what went wrong, to show or act on
 * try {
 *   await engine.destroy();
 * } catch (e) {
 *   if (!(e instanceof ProtectedResourceError)) throw e;
 *   for (const p of [e, ...e.others]) problems.push([`${p.action} of ${p.address} refused: it is protected`]);
 * }
 * ```
 */
export class ProtectedResourceError extends ConvergeError {
  override readonly name = 'ProtectedResourceError';
  override readonly code = 'CONVERGE_PROTECTED_RESOURCE';
  constructor(
    /** The first protected resource the plan would touch. */
    readonly address: string,
    /** What the plan would do to it. */
    readonly action: ProtectedAction,
    /** Every other protected resource the plan would delete or replace. */
    readonly others: readonly {
      /** The protected resource. */
      address: string;
      /** What the plan would do to it. */
      action: ProtectedAction;
    }[] = [],
  ) {
    super(
      `The plan would ${action} ${address}, which is protected; nothing was planned.\n` +
        'Remove `protect` from its options first if you really mean to.',
    );
  }
}

/**
 * A step's operation did not finish within its limit: the resource's `timeouts` option (the
 * recorded one when the resource is no longer declared), or the limit of a provider's wait for an
 * object to become ready. It is a step's failure,
 * so it appears in {@link ApplyError}'s `result.failed`; a create that timed out is checked for
 * (`find`) so its object is not lost. Code `CONVERGE_TIMEOUT`.
 *
 * @example
 * ```ts
 * import { ApplyError, TimeoutError } from 'converge';
 * export const problems: unknown[][] = []; // what went wrong, to show or act on
 * function explain(e: unknown): void {
 *   if (!(e instanceof ApplyError)) return;
 *   for (const f of e.result.failed) {
 *     if (f.error instanceof TimeoutError) problems.push([`${f.error.operation} of ${f.error.address} took over ${f.error.limitMs} ms`]);
 *   }
 * }
 * explain(undefined);
 * ```
 */
export class TimeoutError extends ConvergeError {
  override readonly name = 'TimeoutError';
  override readonly code = 'CONVERGE_TIMEOUT';
  constructor(
    /** The resource's address. */
    readonly address: string,
    /** What did not finish: `create`, `update`, `delete`, … */
    readonly operation: string,
    /** The limit, in milliseconds. */
    readonly limitMs: number,
    /** What was being waited for, when a provider's wait said (`status ACTIVE`). */
    readonly detail?: string,
  ) {
    super(
      `${operation} of ${address} did not finish within ${formatMs(limitMs)}${detail ? ` (${detail})` : ''}.\n` +
        "Raise the resource's timeouts if the object is just slow.",
    );
  }
}

/** Why a lookup found no single object. */
type LookupFailure = 'not_found' | 'ambiguous';

/**
 * A lookup (`engine.lookup`, a data source) found no object matching its arguments, or more than
 * one where exactly one must match. Thrown by the provider's lookup; nothing was changed. Code
 * `CONVERGE_LOOKUP`.
 *
 * @example
 * ```ts
 * import { Engine, LookupError } from 'converge';
 * import { provb } from 'converge/providers/b';
 *
 * const engine = new Engine({ providers: [provb({ token: 'your-civo-api-key', region: 'LON1' })] });
 * export const problems: unknown[][] = []; // what went wrong, to show or act on
 * try {
 *   await engine.lookup(provb.getNetwork({ label: 'default' }));
 * } catch (e) {
 *   if (!(e instanceof LookupError)) throw e;
 *   problems.push([e.token, e.reason === 'ambiguous' ? `matches: ${e.matches.join(', ')}` : `nothing matches ${e.criteria}`]);
 * }
 * ```
 */
export class LookupError extends ConvergeError {
  override readonly name = 'LookupError';
  override readonly code = 'CONVERGE_LOOKUP';
  constructor(
    /** The lookup's token, e.g. `provb:index/getNetwork:getNetwork`. */
    readonly token: string,
    /** `not_found`: nothing matches; `ambiguous`: more than one does. */
    readonly reason: LookupFailure,
    /** The ids (or names) of the objects that match, when ambiguous. */
    readonly matches: readonly string[] = [],
    /** The arguments that were matched, as text (`label "default"`). */
    readonly criteria: string = '',
  ) {
    super(
      reason === 'not_found'
        ? `${token}: no object matches ${criteria || 'the arguments'}.\nCheck the name or id, and the region or project it is in.`
        : `${token}: ${matches.length} objects match ${criteria || 'the arguments'} (${matches.join(', ')}); exactly one must.\nNarrow the arguments, for example by id.`,
    );
  }
}

/** The facts a {@link ProviderError} is built from (see its fields). */
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

/**
 * A vendor API refused or failed a request (an HTTP error answer, a connection failure); a
 * transient failure only once the engine's retries ran out. Thrown by providers' operations and lookups;
 * during apply it is a step's failure in {@link ApplyError}'s `result.failed`. Secrets are
 * scrubbed from `detail`. Code `CONVERGE_PROVIDER`; `vendorCode` holds the vendor's own.
 *
 * @example
 * ```ts
 * import { ApplyError, ProviderError } from 'converge';
 * export const problems: unknown[][] = []; // what went wrong, to show or act on
 * function explain(e: unknown): void {
 *   if (!(e instanceof ApplyError)) return;
 *   for (const f of e.result.failed) {
 *     if (f.error instanceof ProviderError) problems.push([f.error.status, f.error.vendorCode, f.error.detail, f.error.requestId]);
 *   }
 * }
 * explain(undefined);
 * ```
 */
export class ProviderError extends ConvergeError {
  override readonly name = 'ProviderError';
  override readonly code = 'CONVERGE_PROVIDER';
  /** The provider's name (`prova`, `provb`, `provc`, yours). */
  readonly provider: string;
  /** What the provider was doing: `create`, `read`, a lookup's name, … */
  readonly operation: string;
  /** The HTTP method of the failed request, when there was one. */
  readonly method: string | undefined;
  /** The request's path template (`/v2/instances/{id}`): ids are not in it. */
  readonly pathTemplate: string | undefined;
  /** The HTTP status, when an answer came. */
  readonly status: number | undefined;
  /** The vendor's error code from the answer's body, when it had one. */
  readonly vendorCode: string | undefined;
  /** The vendor's request id, for its support. */
  readonly requestId: string | undefined;
  /** Whether the failure was transient (429, 5xx, reset): it was retried, and may pass later. */
  readonly retryable: boolean;
  /** The request may have taken effect although no answer says so (a reset after sending a POST). */
  readonly outcomeUnknown: boolean;
  /** Seconds the vendor asked to wait (Retry-After), when it did. */
  readonly retryAfterSeconds: number | undefined;
  /** The vendor said the object does not exist (by status or by its error code). */
  readonly notFound: boolean;
  /** The vendor's explanation, secrets scrubbed. */
  readonly detail: string;
  constructor(facts: ProviderErrorFacts, options?: { cause?: unknown }) {
    const where = facts.method
      ? ` (${facts.method} ${facts.pathTemplate ?? ''}${facts.status ? ` → ${facts.status}` : ''})`
      : '';
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
 * so nothing is lost and the next plan replaces it. `cause` says what failed. Apply reports it as
 * the step's failure in {@link ApplyError}. Code `CONVERGE_PARTIAL_CREATE`.
 *
 * @example
 * ```ts
 * import { PartialCreateError } from 'converge';
 * async function create(address: string, makeServer: () => Promise<string>, waitReady: (id: string) => Promise<void>) {
 *   const id = await makeServer();
 *   try {
 *     await waitReady(id);
 *   } catch (cause) {
 *     throw new PartialCreateError(address, id, { id }, { cause });
 *   }
 *   return { id, outputs: { id } };
 * }
 * void create;
 * ```
 */
export class PartialCreateError extends ConvergeError {
  override readonly name = 'PartialCreateError';
  override readonly code = 'CONVERGE_PARTIAL_CREATE';
  constructor(
    /** The resource's address. */
    readonly address: string,
    /** The id of the object that was made. */
    readonly id: string,
    /** Its outputs as far as they are known. */
    readonly outputs: Readonly<Record<string, unknown>>,
    options: { cause: unknown },
  ) {
    super(
      `${address}: ${id} was created, but the create did not finish: ${(options.cause as Error)?.message?.split('\n')[0] ?? String(options.cause)}\n` +
        'It is recorded as tainted; the next plan replaces it.',
      options,
    );
  }
}

/**
 * Wrong configuration of a provider or store, found before any request: a missing token or
 * endpoint, an unreadable credential or certificate file, an unknown region. Thrown by provider
 * factories and by operations that need the missing setting. Code `CONVERGE_CONFIG`.
 */
export class ConfigError extends ConvergeError {
  override readonly name = 'ConfigError';
  override readonly code = 'CONVERGE_CONFIG';
  constructor(
    /** What is misconfigured: a provider's name, a store. */
    readonly subject: string,
    /** The setting at fault (`token`, `apiEndpoint`, an environment variable's name). */
    readonly field: string,
    /** What is wrong with it. */
    readonly reason: string,
    options?: { cause?: unknown },
  ) {
    super(`${subject}: ${field} ${reason}.`, options);
  }
}

/**
 * One or more steps of `apply` or `destroy` failed. Independent steps still ran; the dependents
 * of a failed step were skipped; every step that succeeded is in the state. `cause` is the first
 * failure. Code `CONVERGE_APPLY`.
 *
 * @example
 * ```ts
 * import { ApplyError, Engine, MemoryStateStore } from 'converge';
 * const engine = new Engine({ providers: [], state: new MemoryStateStore() });
 * export const problems: unknown[][] = []; // what went wrong, to show or act on
 * try {
 *   await engine.apply(await engine.plan([]));
 * } catch (e) {
 *   if (!(e instanceof ApplyError)) throw e;
 *   for (const f of e.result.failed) problems.push([`${f.action} ${f.address}: ${f.error.message}`]);
 *   problems.push(['skipped:', e.result.skipped.map((s) => `${s.address} (${s.because.kind === 'stopped' ? 'stopped' : `waits for ${s.because.address}`})`)]);
 * }
 * ```
 */
export class ApplyError extends ConvergeError {
  override readonly name = 'ApplyError';
  override readonly code = 'CONVERGE_APPLY';
  constructor(
    /** What succeeded (with outputs), what failed (with each error) and what was skipped. */
    readonly result: ApplyResult,
  ) {
    // No-ops (nothing to do, or only a record to write) are not counted as succeeded steps.
    const succeeded = result.succeeded.filter((s) => s.action !== 'noop').length;
    super(
      `${result.failed.length} step${result.failed.length === 1 ? '' : 's'} failed, ${result.skipped.length} skipped, ${succeeded} succeeded:\n` +
        result.failed.map((f) => `  ${f.action} ${f.address}: ${f.error.message.split('\n')[0]}`).join('\n') +
        (result.skipped.length ? `\n  skipped: ${result.skipped.map((s) => s.address).join(', ')}` : '') +
        '\nThe state records every step that succeeded; fix the cause and plan again.',
      { cause: result.failed[0]?.error },
    );
  }
}

/**
 * Mandatory policies found violations: apply refuses the plan before anything is changed (`at`
 * `'plan'`), or, for a check left pending at plan time, the step whose resolved inputs failed it
 * did not run (`at` `'step'`; apply reports it as that step's failure in {@link ApplyError}, its
 * dependents skipped). `violations` lists every mandatory one; messages never hold secret values.
 * Code `CONVERGE_POLICY_VIOLATION`.
 *
 * @example
 * ```ts
 * import { Engine, MemoryStateStore, PolicyViolationError, type Policy } from 'converge';
 *
 * const noLargeThings: Policy = {
 *   name: 'no-large-things',
 *   resource: (step, report) => {
 *     if (step.after?.size === 'large') report('large things are not allowed', { path: 'size' });
 *   },
 * };
 * const engine = new Engine({
 *   providers: [],
 *   state: new MemoryStateStore(),
 *   policies: [{ policy: noLargeThings, level: 'mandatory' }],
 * });
 * try {
 *   await engine.apply(await engine.plan([]));
 * } catch (e) {
 *   if (!(e instanceof PolicyViolationError)) throw e;
 *   const blocked = e.violations.map((v) => `${v.policy}: ${v.address}: ${v.message}`);
 *   throw new Error(blocked.join('\n'));
 * }
 * ```
 */
export class PolicyViolationError extends ConvergeError {
  override readonly name = 'PolicyViolationError';
  override readonly code = 'CONVERGE_POLICY_VIOLATION';
  constructor(
    /** Every mandatory violation found (at least one). */
    readonly violations: readonly PolicyViolation[],
    /** `'plan'`: apply refused the whole plan, nothing changed; `'step'`: a re-check at apply stopped one step. */
    readonly at: 'plan' | 'step',
  ) {
    const n = violations.length;
    super(
      `${n} mandatory polic${n === 1 ? 'y' : 'ies'} failed; ${at === 'plan' ? 'nothing was changed' : 'the step did not run'}:\n` +
        violations
          .map((v) => `  ${v.policy}: ${v.address || '(stack)'}${v.path ? `.${v.path}` : ''}: ${v.message}`)
          .join('\n') +
        "\nChange the declarations so the policies pass (or lower a policy's level where it is used) and plan again.",
    );
  }
}

/**
 * Reading resources for a plan or refresh failed: nothing was planned or recorded. `failures`
 * names each resource whose read failed and why (the first one's error is the `cause`). Retry, or
 * plan with `refresh: false`. Code `CONVERGE_REFRESH`.
 */
export class RefreshError extends ConvergeError {
  override readonly name = 'RefreshError';
  override readonly code = 'CONVERGE_REFRESH';
  constructor(
    /** Each resource whose read failed, with the first line of its error (secrets redacted). */
    readonly failures: readonly {
      /** The resource's address. */
      readonly address: string;
      /** Why its read failed. */
      readonly message: string;
    }[],
    options?: { cause?: unknown },
  ) {
    const f = failures[0];
    super(
      `Refreshing ${failures.length} resource${failures.length === 1 ? '' : 's'} failed, first ${f?.address}: ${f?.message}\nNothing was planned; retry, or plan with refresh: false.`,
      options,
    );
  }
}

/**
 * At apply, a step's inputs could not be made from its declaration and the live state: a
 * reference names a resource that is not in the state (its step did not run), the inputs are
 * invalid once references are known, or an input is still unknown. The step did not call its
 * provider; apply reports it as that step's failure. Code `CONVERGE_UNRESOLVED_INPUTS`.
 */
export class UnresolvedInputsError extends ConvergeError {
  override readonly name = 'UnresolvedInputsError';
  override readonly code = 'CONVERGE_UNRESOLVED_INPUTS';
  constructor(
    /** The resource whose inputs could not be made. */
    readonly address: string,
    /** `'not-in-state'`: a referenced resource is not recorded; `'invalid'`: the schema refuses them; `'unknown'`: a value is still unknown. */
    readonly reason: 'not-in-state' | 'invalid' | 'unknown',
    /** The referenced resource (not-in-state), or the input path the schema refuses (invalid). */
    readonly at?: string,
    /** The schema's message (invalid). */
    readonly detail?: string,
  ) {
    super(
      reason === 'not-in-state'
        ? `${address}: the referenced resource '${at}' is not in the state (its step did not run).`
        : reason === 'invalid'
          ? `${address}: inputs are invalid once references are known: ${at}: ${detail}`
          : `${address}: an input is still unknown at apply time.`,
    );
  }
}

/** A duration as a person writes it: `2h`, `5m`, `30s`, or `1500ms`. */
export function formatMs(ms: number): string {
  if (ms % 3_600_000 === 0) return `${ms / 3_600_000}h`;
  if (ms % 60_000 === 0) return `${ms / 60_000}m`;
  if (ms % 1000 === 0) return `${ms / 1000}s`;
  return `${ms}ms`;
}
