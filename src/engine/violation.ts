// What a policy check found, as facts: a violation (policy, level, address, message) and a check
// left pending because it read a value known only after apply. Types only, on the floor of
// errors.ts so that PolicyViolationError can carry them; policy/ finds them, plan/ shows them.

/**
 * How much a policy counts where it is used (Sentinel's rule: the level is the user's, not the
 * policy's): `mandatory` blocks apply, `advisory` is shown and does not block, `disabled` is not
 * evaluated at all.
 */
export type PolicyLevel = 'advisory' | 'mandatory' | 'disabled';

/** Every {@link PolicyLevel}, for iteration and checks. */
export const POLICY_LEVELS: readonly PolicyLevel[] = ['advisory', 'mandatory', 'disabled'];

/** A level a finding can have: a disabled policy finds nothing. */
export type EnforcedLevel = Exclude<PolicyLevel, 'disabled'>;

/** One thing a policy found wrong in a plan. Never holds a secret value (policies see markers only). */
export type PolicyViolation = {
  /** The policy's name. */
  readonly policy: string;
  /** The level it is used at: `mandatory` violations make apply refuse. */
  readonly level: EnforcedLevel;
  /** The resource's address, or `''` for the stack as a whole. */
  readonly address: string;
  /** What is wrong, in the policy's words. */
  readonly message: string;
  /** The input path the finding is about (`ingressRules[0].cidrs`), when the policy names one. */
  readonly path?: string;
};

/**
 * A check a policy could not decide at plan time because it read a value known only after apply
 * (the unknown marker). Apply runs that policy again on the step's resolved inputs right before
 * the step's provider call; a `mandatory` failure then stops the step (and its dependents).
 */
export type PendingCheck = {
  /** The policy's name. */
  readonly policy: string;
  /** The level it is used at. */
  readonly level: EnforcedLevel;
  /** The address of the step it is re-checked before. */
  readonly address: string;
  /** Why it could not decide (`firewallId is known only after apply`). */
  readonly reason: string;
  /** The input path it waits for, when the policy names one. */
  readonly path?: string;
  /** Which check of the policy left it: its `resource` check of the step, or its `stack` check. */
  readonly from: 'resource' | 'stack';
};

/** What policies found in a plan: what `render()`, JSON and Markdown show. */
export type PolicyFindings = {
  /** Every violation, mandatory and advisory. */
  readonly violations: readonly PolicyViolation[];
  /** Checks left for apply, each before its step. */
  readonly pendingChecks: readonly PendingCheck[];
};
