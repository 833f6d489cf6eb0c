// The machine-readable plan: stable keys in a fixed order, secrets redacted (the steps already hold
// the sensitive marker), unknowns as {"@converge":"unknown"}. schema/plan.v1.json describes it (as
// the `plan` member of a saved plan file).
import type { PlanMode, PlanSummary, PlanView } from './view.js';
import type { Step } from './step.js';
import type { DriftEntry } from './drift.js';

export const PLAN_FORMAT_VERSION = 1;

/**
 * The machine-readable plan (`plan.toJSON()`, `JSON.stringify(plan)`): stable keys in a fixed
 * order, secrets redacted, unknowns as `{"@converge":"unknown"}`. `schema/plan.v1.json` describes it.
 */
export type PlanJSON = {
  /** The format's version; 1. */
  readonly formatVersion: number;
  /** {@link Plan.mode}. */
  readonly mode: PlanMode;
  /** {@link Plan.lineage}. */
  readonly lineage: string;
  /** {@link Plan.serial}. */
  readonly serial: number;
  /** {@link Plan.createdAt}. */
  readonly createdAt: string;
  /** {@link Plan.refresh}. */
  readonly refresh: boolean;
  /** {@link Plan.destroy}. */
  readonly destroy: boolean;
  /** {@link Plan.targets}, null when none. */
  readonly targets: readonly string[] | null;
  /** {@link Plan.exclude}, null when none. */
  readonly exclude: readonly string[] | null;
  /** {@link Plan.hasChanges}. */
  readonly hasChanges: boolean;
  /** {@link Plan.summary}. */
  readonly summary: PlanSummary;
  /** {@link Plan.warnings}. */
  readonly warnings: readonly string[];
  /** {@link Plan.drift}. */
  readonly drift: readonly DriftEntry[];
  /** {@link Plan.steps}. */
  readonly steps: readonly Step[];
};

export function planToJSON(plan: PlanView): PlanJSON {
  return {
    formatVersion: PLAN_FORMAT_VERSION,
    mode: plan.mode ?? (plan.destroy ? 'destroy' : 'normal'),
    lineage: plan.lineage,
    serial: plan.serial,
    createdAt: plan.createdAt,
    refresh: plan.refresh,
    destroy: plan.destroy,
    targets: plan.targets ?? null,
    exclude: plan.exclude ?? null,
    hasChanges: plan.hasChanges,
    summary: plan.summary,
    warnings: plan.warnings,
    drift: plan.drift ?? [],
    steps: plan.steps.map((s) => ({
      address: s.address,
      type: s.type,
      provider: s.provider,
      action: s.action,
      cause: s.cause,
      reasons: s.reasons,
      changes: s.changes,
      before: s.before,
      after: s.after,
      dependsOn: s.dependsOn,
      ...(s.id !== undefined ? { id: s.id } : {}),
      ...(s.movedFrom !== undefined ? { movedFrom: s.movedFrom } : {}),
      ...(s.createBeforeDestroy !== undefined ? { createBeforeDestroy: s.createBeforeDestroy } : {}),
      ...(s.deposedKey !== undefined ? { deposedKey: s.deposedKey } : {}),
    })),
  };
}
