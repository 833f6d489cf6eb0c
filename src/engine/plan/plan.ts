// A plan: a complete value. Steps in execution order, a summary, warnings, and the lineage and serial
// of the state it was made against. render() and toJSON() are for people and machines; apply reads
// only the internal work list (real values, never the redacted ones).
import type { Step } from './step.js';
import type { Action } from './action.js';
import type { StepWork } from './work.js';
import { renderPlan, type RenderOptions } from './render.js';
import { planToJSON, type PlanJSON } from './json.js';

export type { PlanSummary } from './view.js';
import type { PlanSummary, PlanView } from './view.js';

/** Internal: apply's view of the plan. Not part of the public contract. */
export const planWork: unique symbol = Symbol('converge.planWork');

export class Plan implements PlanView {
  readonly steps: readonly Step[];
  readonly summary: PlanSummary;
  readonly hasChanges: boolean;
  readonly warnings: readonly string[];
  readonly lineage: string;
  readonly serial: number;
  readonly createdAt: string;
  readonly refresh: boolean;
  readonly targets: readonly string[] | undefined;
  /** True for a plan made by destroy(): every resource is deleted. */
  readonly destroy: boolean;
  declare readonly [planWork]: readonly StepWork[];

  constructor(fields: { work: readonly StepWork[]; warnings: readonly string[]; lineage: string; serial: number; refresh: boolean; targets?: readonly string[]; destroy?: boolean }) {
    // Not enumerable, and util.inspect shows the public view only: the work list holds the real
    // (unredacted) inputs and the providers with their credentials.
    Object.defineProperty(this, planWork, { value: fields.work, enumerable: false, writable: false });
    this.steps = fields.work.map((w) => w.step);
    const counts: Record<Action, number> = { create: 0, update: 0, replace: 0, delete: 0, noop: 0, forget: 0 };
    for (const s of this.steps) counts[s.action]++;
    this.summary = Object.freeze(counts);
    this.hasChanges = this.steps.some((s) => s.action !== 'noop' || s.movedFrom !== undefined);
    this.warnings = fields.warnings;
    this.lineage = fields.lineage;
    this.serial = fields.serial;
    this.createdAt = new Date().toISOString();
    this.refresh = fields.refresh;
    this.targets = fields.targets;
    this.destroy = fields.destroy ?? false;
    Object.freeze(this);
  }

  /** A diff a Terraform user reads at a glance. Colours only when `color` is true (default: stdout is a TTY). */
  render(options?: RenderOptions): string {
    return renderPlan(this, options);
  }

  /** What util.inspect (and so a printed plan) shows: the public fields, never the internal work list. */
  [Symbol.for('nodejs.util.inspect.custom')](depth: number, options: { stylize?: unknown }, inspect: (v: unknown, o?: unknown) => string): string {
    const view = {
      steps: this.steps, summary: this.summary, hasChanges: this.hasChanges, warnings: this.warnings, lineage: this.lineage,
      serial: this.serial, createdAt: this.createdAt, refresh: this.refresh, targets: this.targets, destroy: this.destroy,
    };
    return `Plan ${inspect(view, { ...options, depth: options && 'depth' in options ? (options as { depth: number | null }).depth : depth })}`;
  }

  /** The machine-readable form: stable keys, secrets redacted, unknowns tagged. */
  toJSON(): PlanJSON {
    return planToJSON(this);
  }
}
