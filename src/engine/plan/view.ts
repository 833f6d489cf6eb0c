// What a plan is, as data: the fields render and JSON read. plan.ts builds it; render.ts and
// json.ts take it, so none of the three imports another in a circle.
import type { Step } from './step.js';
import type { DriftEntry } from './drift.js';

/** How many steps of a plan have each action. */
export type PlanSummary = {
  /** Resources to create. */
  readonly create: number;
  /** Resources to update in place. */
  readonly update: number;
  /** Resources to replace (delete and create, in the order `createBeforeDestroy` says). */
  readonly replace: number;
  /** Resources to delete. */
  readonly delete: number;
  /** Resources that need nothing. */
  readonly noop: number;
  /** Records to drop from the state without deleting their objects (`retainOnDelete`, or gone). */
  readonly forget: number;
};

/** 'normal': converge the stack; 'destroy': delete everything; 'refresh-only': record what changed outside, call no provider mutation. */
export type PlanMode = 'normal' | 'destroy' | 'refresh-only';

export type PlanView = {
  readonly steps: readonly Step[];
  readonly summary: PlanSummary;
  readonly hasChanges: boolean;
  readonly warnings: readonly string[];
  readonly lineage: string;
  readonly serial: number;
  readonly createdAt: string;
  readonly refresh: boolean;
  readonly targets: readonly string[] | undefined;
  readonly exclude?: readonly string[] | undefined;
  readonly destroy: boolean;
  readonly mode?: PlanMode;
  /** Objects refresh found changed or deleted outside converge. */
  readonly drift?: readonly DriftEntry[];
};
