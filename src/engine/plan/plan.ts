// A plan: a complete value. Steps in execution order, a summary, warnings, the drift refresh found,
// and the lineage and serial of the state it was made against. render(), renderMarkdown(),
// toMermaid() and toJSON() are for people and machines; save() writes it for another process to
// apply (saved.ts); apply reads only the internal work list (real values, never the redacted ones).
import { writeFile, rename, readFile } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import type { StepWork } from './work.js';
import { renderPlan, type RenderOptions } from './render.js';
import { renderMarkdown, type MarkdownOptions } from './markdown.js';
import { planToMermaid } from './mermaid.js';
import { planInputOf, planToJSON, type PlanJSON } from './json.js';
import {
  decodePlanFile,
  encodePlanFile,
  type LoadOptions,
  type PlanOrigin,
  type SavedWork,
  type SaveOptions,
  type ProviderPrint,
} from './saved.js';
import { PlanFileError } from './plan-errors.js';
import { outputsChange } from './outputs.js';
import { checkedPolicies, type PolicyUse } from './policy.js';
import { policyCheck, type PolicyOutcome } from './policy-check.js';

export type { PlanSummary, PlanMode } from './view.js';
import { PlanBase, planFields, summarize, type PlanInput } from './view.js';

/** Internal: apply's view of the plan. Not part of the public contract. */
export const planWork: unique symbol = Symbol('converge.planWork');
/** Internal: a loaded plan's saved work (handlers re-attached by the engine that applies it). */
export const planSaved: unique symbol = Symbol('converge.planSaved');
/** Internal: where an engine-made plan came from (providers, declarations digest). */
export const planOrigin: unique symbol = Symbol('converge.planOrigin');
/** Internal: the policy uses a plan was checked with (apply checks the applying engine's others). */
export const planPolicies: unique symbol = Symbol('converge.planPolicies');

/** Internal: the check a new plan runs on itself (the policies in use where it is made or loaded). */
type PolicyInput = { policies?: (plan: Plan) => PolicyOutcome };

/**
 * What `engine.plan()` returns: a complete, immutable value. `steps` in execution order, a
 * `summary`, `warnings`, the `drift` refresh found, and the lineage and serial of the state it was
 * made against (so a stale apply is refused). `render()`, `renderMarkdown()`, `toMermaid()` and
 * `toJSON()` are for people and machines (secrets shown as `(sensitive)`); `save()` writes it for
 * another process to apply.
 *
 * @example
 * ```ts
 * import { Engine, Plan } from 'converge';
 * import { provb } from 'converge/providers/b';
 *
 * const engine = new Engine({ providers: [provb({ token: 'your-civo-api-key', region: 'LON1' })] });
 * const plan = await engine.plan([provb.network('net', { label: 'demo' })]);
 * const forReview = plan.render({ color: false }); // what a reviewer reads
 * if (plan.hasChanges) await plan.save('plan.json');
 * // later, in another process with the same providers:
 * await engine.apply(await Plan.load('plan.json'));
 * ```
 */
export class Plan extends PlanBase {
  /** Internal: the policy uses the plan was checked with. @hidden */
  declare readonly [planPolicies]: readonly PolicyUse[];
  /** Internal: apply's work list (real values). Not part of the public contract. @hidden */
  declare readonly [planWork]: readonly StepWork[] | undefined;
  /** Internal: a loaded plan's saved work. @hidden */
  declare readonly [planSaved]:
    { readonly work: SavedWork; readonly providers: readonly ProviderPrint[]; readonly where: string } | undefined;
  /** Internal: where an engine-made plan came from. @hidden */
  declare readonly [planOrigin]: PlanOrigin | undefined;

  constructor(
    fields:
      | (PlanInput & { work: readonly StepWork[]; origin?: PlanOrigin } & PolicyInput)
      | (PlanInput & { saved: { work: SavedWork; providers: readonly ProviderPrint[]; where: string } } & PolicyInput),
  ) {
    const work = 'work' in fields ? fields.work : undefined;
    const steps = work
      ? work.map((w) => w.step)
      : (fields as { saved: { work: SavedWork } }).saved.work.steps.map((s) => s.step);
    const mode = fields.mode ?? 'normal';
    const drift = fields.drift ?? [];
    const outputChanges = fields.outputChanges ?? [];
    super({
      mode,
      lineage: fields.lineage,
      serial: fields.serial,
      createdAt: fields.createdAt ?? new Date().toISOString(),
      refresh: fields.refresh,
      destroy: mode === 'destroy',
      targets: fields.targets,
      exclude: fields.exclude,
      // Outputs alone are a change worth applying (recorded without touching any object), as in Terraform.
      hasChanges:
        steps.some((s) => s.action !== 'noop' || s.movedFrom !== undefined) ||
        (mode === 'refresh-only' && drift.length > 0) ||
        (mode !== 'refresh-only' && outputsChange(outputChanges)),
      summary: summarize(steps),
      warnings: fields.warnings,
      drift,
      steps,
      outputChanges,
      // Policies see the finished plan (its own findings still empty) and find what it shows.
      violations: [],
      pendingChecks: [],
    });
    // Not enumerable, and util.inspect shows the public view only: the work list holds the real
    // (unredacted) inputs and the providers with their credentials.
    Object.defineProperty(this, planWork, { value: work, enumerable: false, writable: false });
    Object.defineProperty(this, planSaved, {
      value: 'saved' in fields ? fields.saved : undefined,
      enumerable: false,
      writable: false,
    });
    Object.defineProperty(this, planOrigin, {
      value: 'origin' in fields ? fields.origin : undefined,
      enumerable: false,
      writable: false,
    });
    const found = fields.policies?.(this);
    Object.assign(this, { violations: found?.violations ?? [], pendingChecks: found?.pendingChecks ?? [] });
    Object.defineProperty(this, planPolicies, { value: found?.evaluated ?? [], enumerable: false, writable: false });
    Object.freeze(this);
  }

  /** A diff a Terraform user reads at a glance. Colours only when `color` is true (default: stdout is a TTY). */
  render(options?: RenderOptions): string {
    return renderPlan(this, options);
  }

  /** The plan as a pull-request comment: summary line, drift, one collapsible block per changed resource. */
  renderMarkdown(options?: MarkdownOptions): string {
    return renderMarkdown(this, options);
  }

  /** The plan's graph as a Mermaid flowchart, one node per step styled by its action. */
  toMermaid(): string {
    return planToMermaid(this);
  }

  /** What util.inspect (and so a printed plan) shows: the public fields, never the internal work list. */
  [Symbol.for('nodejs.util.inspect.custom')](
    depth: number,
    options: { stylize?: unknown },
    inspect: (v: unknown, o?: unknown) => string,
  ): string {
    const view = planFields(this);
    return `Plan ${inspect(view, { ...options, depth: options && 'depth' in options ? (options as { depth: number | null }).depth : depth })}`;
  }

  /** The machine-readable form: stable keys, secrets redacted, unknowns tagged. */
  toJSON(): PlanJSON {
    return planToJSON(this);
  }

  /**
   * The plan file's text (see schema/plan.v1.json). Secret values are sealed with the passphrase
   * (option, else CONVERGE_SECRETS_PASSPHRASE); without one a plan holding secrets is refused
   * (PlanFileError 'secrets_in_clear') unless `allowPlaintextSecrets`.
   */
  async serialize(options: SaveOptions = {}, where = 'plan'): Promise<string> {
    const work = this[planWork];
    const origin = this[planOrigin];
    if (!work || !origin)
      throw new PlanFileError('not_a_plan', where, 'only a plan made by engine.plan() can be saved');
    return encodePlanFile(this.toJSON(), origin, work, where, options);
  }

  /** Writes the plan file (mode 0600, atomically) for `engine.apply(await Plan.load(path))` in another process. */
  async save(path: string, options: SaveOptions = {}): Promise<void> {
    const text = await this.serialize(options, path);
    const tmp = `${path}.${randomBytes(4).toString('hex')}.tmp`;
    await writeFile(tmp, text, { mode: 0o600 });
    await rename(tmp, path);
  }

  /** Reads a plan file written by save(); apply it with an engine that has the same providers. */
  static async load(path: string, options: LoadOptions = {}): Promise<Plan> {
    return Plan.parse(await readFile(path, 'utf8'), options, path);
  }

  /** Reads a plan file's text (serialize()'s output). */
  static async parse(text: string, options: LoadOptions = {}, where = 'plan'): Promise<Plan> {
    const { plan, providers, work } = await decodePlanFile(text, where, options);
    // The file's findings are not trusted: the policies given here check the plan again.
    const policies = policyCheck(checkedPolicies(options.policies));
    return new Plan({ saved: { work, providers, where }, ...planInputOf(plan), policies });
  }
}
