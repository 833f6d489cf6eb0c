// What apply returns (and ApplyError carries): every step that succeeded, failed (with its cause)
// or was skipped because something it depends on failed.
import type { Action } from '../plan/action.js';
import type { State } from '../../state/model.js';
import type { TypedDecl } from '../decl/helper.js';
import type { ResourceDecl } from '../decl/resource-decl.js';

export type StepOutcome = {
  readonly address: string;
  readonly action: Action;
  readonly elapsedMs: number;
  /** An update whose inputs, resolved at apply, were exactly the recorded ones: no provider call was made. */
  readonly unchanged?: boolean;
};
export type FailedStep = StepOutcome & { readonly error: Error };
export type SkippedStep = { readonly address: string; readonly action: Action; readonly because: string };

export type ApplyResult = {
  readonly succeeded: readonly StepOutcome[];
  readonly failed: readonly FailedStep[];
  readonly skipped: readonly SkippedStep[];
  /** Outputs of every resource in the state after apply, secrets redacted. */
  readonly outputs: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
  readonly state: State;
  readonly elapsedMs: number;
  /**
   * One resource's outputs (and id) after apply, typed from its helper's declaration:
   * `result.output(web).publicIp`. Secret outputs hold the sensitive marker. Throws when the
   * resource is not in the state.
   */
  output<O>(decl: TypedDecl<any, O>): Readonly<O> & { readonly id: string }; // eslint-disable-line @typescript-eslint/no-explicit-any
  output(declOrName: ResourceDecl | string): Readonly<Record<string, unknown>> & { readonly id: string };
};
