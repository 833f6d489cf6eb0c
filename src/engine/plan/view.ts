// What a plan is, as data: the one list of a plan's fields. plan.ts's Plan implements it (and
// documents each field for its users), util.inspect shows PLAN_FIELDS, json.ts writes them in that
// order and reads them back; render.ts and json.ts take a PlanView, so none imports plan.ts.
import { isStateOnly, type Step } from './step.js';
import type { DriftEntry } from './drift.js';
import type { OutputChange } from './outputs.js';
import type { PendingCheck, PolicyViolation } from '../violation.js';

/** How many steps of a plan have each action. */
export type PlanSummary = {
  /** Resources to create. */
  readonly create: number;
  /** Resources to update in place through their provider. */
  readonly update: number;
  /**
   * Resources updated in the state only: an option (protect, retainOnDelete, ...), a dependency or
   * a rename by alias changed, no input did, so no provider is called. Counted apart from `update`.
   */
  readonly stateOnly: number;
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

/** How many steps of each action: a state-only update counts as `stateOnly`, not `update`. */
export function summarize(steps: readonly Step[]): PlanSummary {
  const counts = { create: 0, update: 0, stateOnly: 0, replace: 0, delete: 0, noop: 0, forget: 0 };
  for (const s of steps) counts[isStateOnly(s) ? 'stateOnly' : s.action]++;
  return Object.freeze(counts);
}

/** A plan's fields (documented on `Plan`), in the order its JSON writes them. */
export type PlanView = {
  readonly mode: PlanMode;
  readonly lineage: string;
  readonly serial: number;
  readonly createdAt: string;
  readonly refresh: boolean;
  /** Said once, by `mode`: true exactly when mode is 'destroy'. */
  readonly destroy: boolean;
  readonly targets: readonly string[] | undefined;
  readonly exclude: readonly string[] | undefined;
  readonly hasChanges: boolean;
  readonly summary: PlanSummary;
  readonly warnings: readonly string[];
  readonly drift: readonly DriftEntry[];
  readonly steps: readonly Step[];
  readonly outputChanges: readonly OutputChange[];
  readonly violations: readonly PolicyViolation[];
  readonly pendingChecks: readonly PendingCheck[];
};

/** The name of one of a plan's fields. */
export type PlanField = keyof PlanView;

// Every field once, in PlanView's order: the compiler refuses a field missing here or not in PlanView.
const ORDER: { readonly [K in PlanField]: true } = {
  mode: true,
  lineage: true,
  serial: true,
  createdAt: true,
  refresh: true,
  destroy: true,
  targets: true,
  exclude: true,
  hasChanges: true,
  summary: true,
  warnings: true,
  drift: true,
  steps: true,
  outputChanges: true,
  violations: true,
  pendingChecks: true,
};

/** A plan's field names, in the order its JSON writes them and util.inspect shows them. */
export const PLAN_FIELDS = Object.keys(ORDER) as readonly PlanField[];

/** What a plan is made from: its fields but those it computes from its steps and mode. */
export type PlanInput = Pick<PlanView, 'lineage' | 'serial' | 'refresh' | 'warnings'> &
  Partial<Pick<PlanView, 'mode' | 'targets' | 'exclude' | 'drift' | 'createdAt' | 'outputChanges'>>;

/** A plan's fields alone, in PLAN_FIELDS order (what util.inspect shows, what JSON starts from). */
export function planFields(plan: PlanView): PlanView {
  return Object.fromEntries(PLAN_FIELDS.map((k) => [k, plan[k]])) as PlanView;
}
