// The machine-readable plan: stable keys in a fixed order, secrets redacted (the steps already hold
// the sensitive marker), unknowns as {"@converge":"unknown"}.
import type { PlanSummary, PlanView } from './view.js';
import type { Step } from './step.js';

export const PLAN_FORMAT_VERSION = 1;

export type PlanJSON = {
  readonly formatVersion: number;
  readonly lineage: string;
  readonly serial: number;
  readonly createdAt: string;
  readonly refresh: boolean;
  readonly destroy: boolean;
  readonly targets: readonly string[] | null;
  readonly hasChanges: boolean;
  readonly summary: PlanSummary;
  readonly warnings: readonly string[];
  readonly steps: readonly Step[];
};

export function planToJSON(plan: PlanView): PlanJSON {
  return {
    formatVersion: PLAN_FORMAT_VERSION,
    lineage: plan.lineage,
    serial: plan.serial,
    createdAt: plan.createdAt,
    refresh: plan.refresh,
    destroy: plan.destroy,
    targets: plan.targets ?? null,
    hasChanges: plan.hasChanges,
    summary: plan.summary,
    warnings: plan.warnings,
    steps: plan.steps.map((s) => ({
      address: s.address, type: s.type, provider: s.provider, action: s.action, cause: s.cause,
      reasons: s.reasons, changes: s.changes, before: s.before, after: s.after, dependsOn: s.dependsOn,
      ...(s.id !== undefined ? { id: s.id } : {}),
      ...(s.movedFrom !== undefined ? { movedFrom: s.movedFrom } : {}),
      ...(s.createBeforeDestroy !== undefined ? { createBeforeDestroy: s.createBeforeDestroy } : {}),
    })),
  };
}
