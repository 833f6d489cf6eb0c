// One step of a plan: what happens to one resource, and the values before and after.
//
//   action   before            after
//   create   undefined         desired inputs (unknowns inside)
//   update   prior inputs      desired inputs
//   replace  prior inputs      desired inputs
//   delete   prior inputs      undefined
//   forget   prior inputs      undefined
//   noop     prior inputs      prior inputs
//
// An update whose changes are all `scope: 'state'` (options, dependencies) calls no provider.
//
// Values in a Step are for people and machines reading the plan: secrets are the sensitive marker,
// unknowns the unknown marker. Apply reads its own copy of the real values.
import type { Action } from './action.js';
import type { StepCause } from './reason.js';

export type StepChange = {
  /** 'rules[0].cidrs[1]' */
  readonly path: string;
  readonly before: unknown;
  readonly after: unknown;
  /** This path alone forces the replacement. */
  readonly forcesReplacement: boolean;
  /** 'state': an option or dependency change (`options.protect`, `dependencies`), recorded and never sent to the provider. */
  readonly scope?: 'state';
};

export type Step = {
  readonly address: string;
  readonly type: string;
  readonly provider: string;
  readonly action: Action;
  /** The input paths that force a replacement (empty unless action is replace). */
  readonly reasons: readonly string[];
  readonly cause: StepCause;
  readonly changes: readonly StepChange[];
  readonly before?: Readonly<Record<string, unknown>>;
  readonly after?: Readonly<Record<string, unknown>>;
  /** Addresses of the steps this one waits for. */
  readonly dependsOn: readonly string[];
  /** The object's id, when it exists already. */
  readonly id?: string;
  /** The earlier name this resource's state moves from (aliases). */
  readonly movedFrom?: string;
  readonly createBeforeDestroy?: boolean;
  /** createBeforeDestroy was not declared but follows from a dependent's (Terraform's propagation). */
  readonly createBeforeDestroyPropagated?: boolean;
  /** The old object is forgotten, not deleted (retainOnDelete on a replacement). */
  readonly retainOld?: boolean;
  /** A step on a deposed object (left by a create-before-destroy replacement): which one. */
  readonly deposedKey?: string;
};
