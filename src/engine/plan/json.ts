// The machine-readable plan: stable keys in a fixed order, secrets redacted (the steps already hold
// the sensitive marker), unknowns as {"@converge":"unknown"}. schema/plan.v1.json describes it (as
// the `plan` member of a saved plan file).
import { planFields, stepFields, type PlanField, type PlanInput, type PlanView } from './view.js';

export const PLAN_FORMAT_VERSION = 1;

/**
 * The machine-readable plan (`plan.toJSON()`, `JSON.stringify(plan)`): stable keys in a fixed
 * order, secrets redacted, unknowns as `{"@converge":"unknown"}`. `schema/plan.v1.json` describes it.
 * After `formatVersion`, each field is the {@link Plan}'s field of that name, in the same order;
 * `targets` and `exclude` are null when none. Each step holds the plan step's fields (those
 * present), in one fixed order: the provider `instance`, a `providerChange`, the `lookup` facts too.
 */
export type PlanJSON = {
  /** The format's version; 1. */
  readonly formatVersion: number;
} & { readonly [K in PlanField]: K extends 'targets' | 'exclude' ? readonly string[] | null : PlanView[K] };

export function planToJSON(plan: PlanView): PlanJSON {
  return {
    formatVersion: PLAN_FORMAT_VERSION,
    ...planFields(plan),
    targets: plan.targets ?? null,
    exclude: plan.exclude ?? null,
    steps: plan.steps.map(stepFields),
  };
}

/** What a plan is made from, read back from its JSON (a saved plan's `plan` member). */
export function planInputOf(json: PlanJSON): PlanInput {
  // Everything but what the plan computes (from its steps and mode) is an input as it stands.
  const { formatVersion: _v, destroy: _d, hasChanges: _h, summary: _s, steps: _t, targets, exclude, ...rest } = json;
  // Policy findings are not read back: a loaded plan is checked again by the policies where it is loaded.
  const { violations: _pv, pendingChecks: _pc, ...input } = rest;
  return { ...input, targets: targets ?? undefined, exclude: exclude ?? undefined };
}
