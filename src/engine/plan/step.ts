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
import { actionSymbol, READ_SYMBOL, type Action } from '../action.js';
import type { StepCause } from './reason.js';

/** One changed path of a step: the value before and after (secrets as the sensitive marker, unknowns as the unknown marker). */
export type StepChange = {
  /** 'rules[0].cidrs[1]' */
  readonly path: string;
  /** The value recorded in the state (undefined: absent). */
  readonly before: unknown;
  /** The value declared (undefined: absent; the unknown marker: known only after apply). */
  readonly after: unknown;
  /** This path alone forces the replacement. */
  readonly forcesReplacement: boolean;
  /** 'state': an option or dependency change (`options.protect`, `dependencies`), recorded and never sent to the provider. */
  readonly scope?: 'state';
};

/**
 * What a plan does to one resource. `before` and `after` per action: create: before undefined,
 * after the desired inputs (unknowns inside); update and replace: prior inputs, desired inputs;
 * delete and forget: prior inputs, after undefined; noop: prior inputs on both sides. Secrets are
 * the sensitive marker, values known only after apply the unknown marker.
 */
export type Step = {
  /** The resource's address (its name in the stack). */
  readonly address: string;
  /** The resource's type token, e.g. `provb:index/instance:Instance`. */
  readonly type: string;
  /** The name of the provider that serves it. */
  readonly provider: string;
  /** The provider instance that serves it (`provb({ name: 'ops' })`); absent: the default instance. */
  readonly instance?: string;
  /**
   * A lookup declared in the stack (a data source), not a resource: read when the plan was made,
   * or, with `deferred` (why), read during apply (`<= read`), what depends on it waiting.
   */
  readonly lookup?: {
    /** Why the lookup is read during apply, not when the plan is made (an argument still unknown, a dependency with changes planned). */
    readonly deferred?: string;
  };
  /** A replacement because the resource moved to another provider instance: from which, to which (labels). */
  readonly providerChange?: {
    /** The label of the provider instance the object is deleted through (the one it was created by). */
    readonly from: string;
    /** The label of the provider instance the new object is created through. */
    readonly to: string;
  };
  /** What the step does. */
  readonly action: Action;
  /** The input paths that force a replacement (empty unless action is replace). */
  readonly reasons: readonly string[];
  /** Why this action was chosen (for people; apply never reads it). */
  readonly cause: StepCause;
  /** Every changed input path (and option or dependency change), before and after. */
  readonly changes: readonly StepChange[];
  /** The inputs recorded in the state (absent for a create). */
  readonly before?: Readonly<Record<string, unknown>>;
  /** The desired inputs (absent for a delete or forget). */
  readonly after?: Readonly<Record<string, unknown>>;
  /** Addresses of the steps this one waits for. */
  readonly dependsOn: readonly string[];
  /** The object's id, when it exists already. */
  readonly id?: string;
  /** The earlier name this resource's state moves from (aliases). */
  readonly movedFrom?: string;
  /** A replacement creates the new object before deleting the old one. */
  readonly createBeforeDestroy?: boolean;
  /** createBeforeDestroy was not declared but follows from a dependent's (Terraform's propagation). */
  readonly createBeforeDestroyPropagated?: boolean;
  /** The old object is forgotten, not deleted (retainOnDelete on a replacement). */
  readonly retainOld?: boolean;
  /** A step on a deposed object (left by a create-before-destroy replacement): which one. */
  readonly deposedKey?: string;
};

/** An update recorded in the state only (options, dependencies, a rename by alias): no provider call. */
export function isStateOnly(step: Pick<Step, 'action' | 'cause'>): boolean {
  return step.action === 'update' && step.cause === 'options_changed';
}

/** A lookup read during apply (`<= read`): counted as a read, not by its action (a create or a replace). */
export function isDeferredRead(step: Pick<Step, 'lookup'>): boolean {
  return step.lookup?.deferred !== undefined;
}

/**
 * The symbol a person sees for a step: `<=` for a deferred read, else its action's (`+/-` for a
 * replacement that creates first; in a 'label', a no-op is `=`).
 */
export function stepSymbol(
  step: Pick<Step, 'action' | 'createBeforeDestroy' | 'lookup'>,
  where: 'diff' | 'label' = 'diff',
): string {
  return isDeferredRead(step) ? READ_SYMBOL : actionSymbol(step.action, step.createBeforeDestroy, where);
}
