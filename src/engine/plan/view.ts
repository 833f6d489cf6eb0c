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

/**
 * A plan's fields, documented once here, in the order its JSON writes them. `Plan` is built on this
 * type (PlanBase below), so the class and its views read one list.
 */
export type PlanView = {
  /** `normal`, `destroy` or `refresh-only`. */
  readonly mode: PlanMode;
  /** The lineage of the state the plan was made against. */
  readonly lineage: string;
  /** The serial of the state the plan was made against; apply refuses a state at another serial. */
  readonly serial: number;
  /** When the plan was made (ISO 8601). */
  readonly createdAt: string;
  /** Whether the plan read every resource first. */
  readonly refresh: boolean;
  /** True for a plan made by destroy() or planDestroy(): every resource is deleted. Said once, by `mode`: true exactly when mode is 'destroy'. */
  readonly destroy: boolean;
  /** The `targets` it was limited to, if any. */
  readonly targets: readonly string[] | undefined;
  /** The resources it was told to leave out, if any. */
  readonly exclude: readonly string[] | undefined;
  /** False when applying would change nothing (every step a no-op and no rename, no output changes; no drift in a refresh-only plan). */
  readonly hasChanges: boolean;
  /** How many steps of each action. */
  readonly summary: PlanSummary;
  /** Things a person should know before applying (targeting, secrets stored in clear, a cleared stale lock). */
  readonly warnings: readonly string[];
  /** Objects refresh found changed or deleted outside converge (empty without refresh). */
  readonly drift: readonly DriftEntry[];
  /** Every step, in execution order (creations after what they reference, deletions in reverse). */
  readonly steps: readonly Step[];
  /**
   * The stack's outputs (`plan(decls, { outputs })`) and how each changes, by name (Terraform's
   * "Changes to Outputs"): unknown values as the unknown marker, secret ones as the sensitive marker.
   */
  readonly outputChanges: readonly OutputChange[];
  /**
   * What the policies in use found (where the plan was made, or loaded): a `mandatory` one makes
   * apply refuse the plan with PolicyViolationError; `advisory` ones are shown only.
   */
  readonly violations: readonly PolicyViolation[];
  /** Policy checks that read a value known only after apply: each runs again before its step. */
  readonly pendingChecks: readonly PendingCheck[];
};

/**
 * The class `Plan` extends: an object holding a PlanView's fields, so the class declares none of
 * them again. Its subclass sets them once, then freezes itself.
 */
export const PlanBase = class {
  constructor(view: PlanView) {
    Object.assign(this, view);
  }
} as new (view: PlanView) => PlanView;

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
