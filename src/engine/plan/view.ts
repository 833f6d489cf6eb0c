// What a plan is, as data: the one list of a plan's fields and of a step's. plan.ts's Plan
// implements it (and documents each field for its users), util.inspect shows PLAN_FIELDS, json.ts
// writes them in that order and reads them back, and writes each step's STEP_FIELDS (step.ts
// documents them); render.ts and json.ts take a PlanView, so none imports plan.ts.
import { isDeferredRead, isStateOnly, type Step } from './step.js';
import type { DriftEntry } from './drift.js';
import type { OutputChange } from './outputs.js';
import type { PendingCheck, PolicyViolation } from '../violation.js';

/** How many steps of a plan have each action. */
export type PlanSummary = {
  /** Resources to create. */
  readonly create: number;
  /**
   * Lookups read during apply (deferred: an argument known only after apply, or a `dependsOn` with
   * changes planned; Terraform's `<= read (data resources)`). Counted apart from `create`: a read
   * makes nothing.
   */
  readonly read: number;
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

/** The count of the summary a step adds to: its action, but `read` for a deferred lookup and `stateOnly` for a state-only update. */
export function summaryKey(step: Step): keyof PlanSummary {
  return isDeferredRead(step) ? 'read' : isStateOnly(step) ? 'stateOnly' : step.action;
}

/** How many steps of each action: a state-only update counts as `stateOnly`, not `update`; a deferred lookup as `read`, not `create`. */
export function summarize(steps: readonly Step[]): PlanSummary {
  const counts = { create: 0, read: 0, update: 0, stateOnly: 0, replace: 0, delete: 0, noop: 0, forget: 0 };
  for (const s of steps) counts[summaryKey(s)]++;
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

// Every field of a step once, in the order its JSON writes them: the compiler refuses a field of
// Step missing here (optional ones included) or not in Step.
const STEP_ORDER: { readonly [K in keyof Step]-?: true } = {
  address: true,
  type: true,
  provider: true,
  instance: true,
  action: true,
  cause: true,
  reasons: true,
  changes: true,
  before: true,
  after: true,
  dependsOn: true,
  id: true,
  movedFrom: true,
  providerChange: true,
  lookup: true,
  createBeforeDestroy: true,
  createBeforeDestroyPropagated: true,
  retainOld: true,
  deposedKey: true,
};

/** A step's field names, in the order its JSON writes them (schema/plan.v1.json describes each). */
export const STEP_FIELDS = Object.keys(STEP_ORDER) as readonly (keyof Step)[];

/** A step's fields alone, in STEP_FIELDS order, those absent (undefined) left out. */
export function stepFields(step: Step): Step {
  const out: Record<string, unknown> = {};
  for (const k of STEP_FIELDS) if (step[k] !== undefined) out[k] = step[k];
  return out as Step;
}
