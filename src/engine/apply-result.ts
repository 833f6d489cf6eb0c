// What apply returns (and ApplyError carries): every step that succeeded, failed (with its cause)
// or was skipped because something it depends on failed. Types only, on the floor of errors.ts so
// that ApplyError can carry one; apply/result.ts builds them.
import type { Action } from './action.js';
import type { SkipReason } from './events.js';
import type { TypedDecl } from './decl/helper.js';
import type { ResourceDecl } from './decl/resource-decl.js';
import type { State } from '../state/model.js';

/** A step that completed: its result is in the state. */
export type StepOutcome = {
  /** The resource's address. */
  readonly address: string;
  /** What the step did. */
  readonly action: Action;
  /** How long it took, retries and polls included. */
  readonly elapsedMs: number;
  /** An update whose inputs, resolved at apply, were exactly the recorded ones: no provider call was made. */
  readonly unchanged?: boolean;
};
/** A step that failed, with its error (a {@link ProviderError}, {@link TimeoutError}, {@link PartialCreateError}, …; secrets redacted). */
export type FailedStep = StepOutcome & {
  /** Why it failed. */
  readonly error: Error;
};

/** A step that was not run because a step it depends on failed, or the apply was stopped. */
export type SkippedStep = {
  /** The resource's address. */
  readonly address: string;
  /** What the step would have done. */
  readonly action: Action;
  /** Why: `{ kind: 'dependency-failed', address }` names the failed step it waited for; `{ kind: 'stopped' }`, the stop. */
  readonly because: SkipReason;
};

/**
 * What `engine.apply()` and `engine.destroy()` return (and {@link ApplyError} carries as `result`):
 * every step that succeeded, failed or was skipped, and the outputs and state afterwards, secrets
 * redacted.
 */
export type ApplyResult = {
  /** Steps that completed, in the order they finished. */
  readonly succeeded: readonly StepOutcome[];
  /** Steps that failed. */
  readonly failed: readonly FailedStep[];
  /** Steps not run. */
  readonly skipped: readonly SkippedStep[];
  /** Outputs of every resource in the state after apply, secrets redacted. */
  readonly outputs: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
  /**
   * The state after apply with every secret path (the schema's, a secret(), a reference to a secret)
   * holding the sensitive marker: safe to log or serialise. `engine.state()` reads the real one.
   */
  readonly state: State;
  /** How long the apply took. */
  readonly elapsedMs: number;
  /**
   * One resource's outputs (and id) after apply, typed from its helper's declaration:
   * `result.output(web).publicIp`. Secret outputs hold the sensitive marker. Throws when the
   * resource is not in the state.
   */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  output<O>(decl: TypedDecl<any, O>): Readonly<O> & {
    /** The object's id. */
    readonly id: string;
  };
  /** One resource's outputs (and id) after apply, by name or by an untyped declaration. */
  output(declOrName: ResourceDecl | string): Readonly<Record<string, unknown>> & {
    /** The object's id. */
    readonly id: string;
  };
  /**
   * The real value at `path` of resource `address` (an output, else an input; 'id' is the id),
   * for a caller who needs a secret on purpose: `result.secret('db', 'password')`. Undefined when
   * the resource or path is absent. Not enumerable: JSON and util.inspect never show it.
   */
  secret(address: string, path: string): unknown;
};
