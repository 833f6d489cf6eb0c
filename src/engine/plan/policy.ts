// What a policy is: a name and checks over a plan's steps (`resource`) or the whole plan (`stack`),
// each reporting violations, or "pending" when it read a value known only after apply. The level
// (advisory, mandatory, disabled) is not part of a policy: it is set where the policy is used,
// `{ policy, level }`, as Sentinel sets enforcement levels in the policy set, not in the policy.
import type { Step } from './step.js';
import type { PlanMode, PlanSummary } from './view.js';
import type { DriftEntry } from './drift.js';
import { POLICY_LEVELS, type PolicyLevel } from '../violation.js';

/** Where a finding points: an input path of the step, or (for a stack policy) another address. */
export type PolicyAt = {
  /** The input path, e.g. `ingressRules[0].cidrs`. */
  readonly path?: string;
  /** The resource's address; a resource policy's default is its step's, a stack policy's `''` (the stack). */
  readonly address?: string;
};

/**
 * How a policy reports: `report(message, at?)` for a violation, `report.pending(reason, at?)`
 * when it read a value known only after apply (`isUnknown(value)`): converge runs the policy again
 * at apply on the step's resolved inputs, right before the step's provider call. A policy
 * that reports nothing passes. Messages must not quote secret values (a policy sees only the
 * sensitive marker for them; at apply they are scrubbed from messages anyway).
 */
export type PolicyReport = {
  (message: string, at?: PolicyAt): void;
  /** The check cannot be decided before apply: the value it reads is unknown. */
  pending(reason: string, at?: PolicyAt): void;
};

/** What a stack policy reads: the plan's steps and what it says of them (a {@link Plan} is one). */
export type PolicyPlan = {
  /** `normal`, `destroy` or `refresh-only`. */
  readonly mode: PlanMode;
  /** Every step in execution order, values as in {@link Step} (secrets and unknowns as markers). */
  readonly steps: readonly Step[];
  /** How many steps of each action. */
  readonly summary: PlanSummary;
  /** What refresh found changed outside converge. */
  readonly drift: readonly DriftEntry[];
};

/**
 * A policy: checks run on every plan, synchronously, over the plan's public values (secrets as
 * the sensitive marker, values known only after apply as the unknown marker). `resource` runs
 * once per step (only steps of `types` when given: a delete's `after` is undefined); `stack` once
 * per plan. It has no level: give it one where it is used, `{ policy, level }`.
 *
 * @example
 * ```ts
 * import { isUnknown, type Policy } from 'converge';
 *
 * export const noPublicBuckets: Policy = {
 *   name: 'no-public-buckets',
 *   description: 'Buckets are private.',
 *   types: ['mycloud:index/bucket:Bucket'],
 *   resource: (step, report) => {
 *     const acl = step.after?.acl;
 *     if (isUnknown(acl)) report.pending('acl is known only after apply', { path: 'acl' });
 *     else if (acl === 'public-read') report('a bucket must not be public', { path: 'acl' });
 *   },
 * };
 * ```
 */
export type Policy = {
  /** Unique among the policies in use; names the policy in every violation. */
  readonly name: string;
  /** What the policy asks for, for people. */
  readonly description?: string;
  /** The resource types `resource` runs for; every type when omitted. */
  readonly types?: readonly string[];
  /** Checks one step. */
  readonly resource?: (step: Step, report: PolicyReport) => void;
  /** Checks the plan as a whole. */
  readonly stack?: (plan: PolicyPlan, report: PolicyReport) => void;
};

/** A policy in use, at a level: `{ policy: sshOpenToWorld, level: 'mandatory' }`. */
export type PolicyUse = {
  /** The policy. */
  readonly policy: Policy;
  /** `mandatory` blocks apply, `advisory` is shown only, `disabled` is not evaluated. */
  readonly level: PolicyLevel;
};

/**
 * The uses checked (wrong use of the API is a TypeError, worded like p-limit's) and merged: a
 * later list's use of a policy name replaces an earlier one's (a plan's options over the engine's).
 */
export function checkedPolicies(...lists: (readonly PolicyUse[] | undefined)[]): readonly PolicyUse[] {
  const byName = new Map<string, PolicyUse>();
  for (const list of lists) {
    if (list === undefined) continue;
    if (!Array.isArray(list)) throw new TypeError('Expected `policies` to be an array of { policy, level }');
    const seen = new Set<string>();
    list.forEach((u: PolicyUse, i) => {
      const at = `policies[${i}]`;
      if (!u || typeof u !== 'object' || !u.policy || typeof u.policy !== 'object')
        throw new TypeError(`Expected \`${at}\` to be { policy, level } (the level is set where a policy is used)`);
      if (!POLICY_LEVELS.includes(u.level))
        throw new TypeError(`Expected \`${at}.level\` to be 'advisory', 'mandatory' or 'disabled'`);
      const p = u.policy;
      if (typeof p.name !== 'string' || !p.name)
        throw new TypeError(`Expected \`${at}.policy.name\` to be a non-empty string`);
      if (p.resource !== undefined && typeof p.resource !== 'function')
        throw new TypeError(`Expected \`${at}.policy.resource\` to be a function`);
      if (p.stack !== undefined && typeof p.stack !== 'function')
        throw new TypeError(`Expected \`${at}.policy.stack\` to be a function`);
      if (!p.resource && !p.stack) throw new TypeError(`Expected \`${at}.policy\` to have a resource or stack check`);
      if (p.types !== undefined && (!Array.isArray(p.types) || p.types.some((t) => typeof t !== 'string')))
        throw new TypeError(`Expected \`${at}.policy.types\` to be an array of resource type tokens`);
      if (seen.has(p.name)) throw new TypeError(`Expected one use per policy; '${p.name}' is given twice`);
      seen.add(p.name);
      byName.delete(p.name);
      byName.set(p.name, u);
    });
  }
  return [...byName.values()];
}
