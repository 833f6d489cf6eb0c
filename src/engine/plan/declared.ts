// Planning one declared resource, in dependency order: its references resolved against what is
// planned before it, its inputs parsed (validation's parse reused where it can be), provider checks,
// the choice of action (choose.ts), and the step and draft the execution graph is built from
// (execution.ts). planner.ts runs it for every declaration and wires the rest.

import type { ResourceDecl } from '../decl/resource-decl.js';
import { resolveDeclared, type RecordSource } from '../decl/resolve.js';
import type { AnyResource, Provider, Resolved } from '../provider/define.js';
import type { ResourceState, State } from '../../state/model.js';
import { own } from '../../state/keys.js';
import type { Issue } from '../issue.js';
import type { Graph } from '../graph/graph.js';
import { parsedWithKnown, parseWithUnknowns } from '../validate/schema.js';
import type { Change } from '../diff/diff.js';
import { formatPath, getPath, parsePath } from '../values/path.js';
import { containsUnknown } from '../values/unknown.js';
import { redactPaths } from '../values/redact.js';
import type { Step, StepChange } from './step.js';
import { chooseAction, type Choice } from './choose.js';
import { storedOptions } from './options.js';
import type { Draft } from './execution.js';
import { redactChanges, scrubMessages, secretInputPaths, withNewSecrets } from './secrets.js';
import { secretPathsOf } from '../provider/secret-paths.js';
import { instanceLabel } from '../provider/instance.js';
import { missingInstanceIssue, type InstanceNotes } from './instances.js';

/** A parse reused from validation has no issues; a step without reasons forces nothing: one of each, shared. */
const NO_ISSUES: readonly never[] = Object.freeze([]);
const NO_REASONS: ReadonlySet<string> = new Set();
const NO_PATHS: readonly string[] = Object.freeze([]);

/** What every draft of a declaration holds, whatever its kind. */
type DraftParts = Omit<Extract<Draft, { kind: 'create' }>, 'kind' | 'inputs' | 'planned'>;

/**
 * What the planner knows of a declared resource once its action is chosen: for references to it.
 * The parts of the choice a reference reads, not the choice: its changes die with planDeclared's call.
 */
export type Planned = {
  readonly choice: Pick<Choice, 'action' | 'cause' | 'inputs'>;
  readonly prior?: ResourceState;
  readonly def: AnyResource;
  readonly secrets: readonly string[];
};

/** What planning one declaration reads and adds to: the plan's inputs and everything gathered so far. */
export type PlanRun = {
  readonly state: State;
  /** Refreshed view of state resources by state name; null = gone; absent = not refreshed. */
  readonly refreshed: ReadonlyMap<string, ResourceState | null>;
  /** The handler of a type through a provider instance (undefined: the default one). */
  readonly resolve: (token: string, instance?: string) => Resolved | undefined;
  /** Parsed inputs from validation, references as unknowns (see planSteps' input). */
  readonly parsed?: ReadonlyMap<object, unknown>;
  readonly byName: ReadonlyMap<string, ResourceDecl>;
  readonly graph: Graph;
  readonly claims: ReadonlyMap<string, string>;
  readonly replaceRequested: ReadonlySet<string>;
  readonly blocked: Set<string>;
  readonly planned: Map<string, Planned>;
  readonly source: RecordSource;
  readonly drafts: Draft[];
  readonly notes: InstanceNotes;
  readonly issues: Issue[];
  readonly warnings: string[];
  readonly protectedHits: { address: string; action: 'delete' | 'replace' }[];
};

/**
 * Plans the declaration `name`, in dependency order: its draft, or the issues and warnings that
 * stop it. A function of its own, not planSteps' loop body: it runs for every declaration of every
 * plan, so the JIT compiles it early and small, where a loop inside one large function is compiled
 * (on-stack replacement) late and at length.
 */
export function planDeclared(run: PlanRun, name: string): void {
  const { state, resolve, byName, graph, claims, replaceRequested, blocked, planned, drafts, notes } = run;
  const { issues, warnings, protectedHits } = run;
  const decl = byName.get(name)!;
  const waitsOn = blocked.size
    ? [...blocked].find((b) => b === name || (graph.deps.get(name) ?? []).includes(b))
    : undefined;
  if (waitsOn !== undefined) {
    blocked.add(name);
    warnings.push(
      waitsOn === name
        ? `${name}: not planned: an earlier create of it may have made an object nobody could find. Import it with engine.import(), or drop the pending record with engine.forgetPending('${name}'), then plan again.`
        : `${name}: not planned: it depends on ${waitsOn}, whose earlier create is unresolved.`,
    );
    return;
  }
  const instance = decl.options?.provider;
  const { def, provider } = resolve(decl.type, instance)!;
  const stateName = claims.get(name);
  const recorded = stateName !== undefined ? own(state.resources, stateName) : undefined;
  const refreshed = stateName !== undefined ? run.refreshed.get(stateName) : undefined;
  const gone = refreshed === null;
  const prior = gone ? undefined : (refreshed ?? recorded);

  const { desired, secrets } = declaredInputs(run, name, decl, def, provider);

  // The old object is deleted through the handler and instance that made it, when they differ.
  const instanceMoved = !!prior && prior.instance !== instance;
  const otherHandler = !!prior && (prior.type !== decl.type || instanceMoved);
  const priorResolved = otherHandler ? resolve(prior.type, prior.instance) : undefined;
  if (prior && prior.type !== decl.type && !priorResolved && prior.instance === undefined) {
    issues.push({
      resource: name,
      path: ['type'],
      code: 'unknown_type',
      message: `the state holds '${name}' as a ${prior.type}, but no provider of this engine has that type; add its provider so the old object can be deleted`,
    });
    return;
  }
  if (prior && otherHandler && !priorResolved) {
    issues.push(missingInstanceIssue(name, prior));
    return;
  }
  const settingChanges = prior && !instanceMoved ? notes.compare(name, prior, provider, gone) : undefined;
  // Paths the API cannot change in place from this prior (replaceWhen) force replacement too. A
  // list of its own only when there is more than the definition's (most declarations).
  const declared = decl.options?.replaceOnChanges ?? [];
  const when = prior && prior.type === decl.type && def.replaceWhen ? def.replaceWhen(prior, desired) : [];
  const replaceOn =
    declared.length || when.length ? [...(def.replaceOn ?? []), ...declared, ...when] : (def.replaceOn ?? []);
  const options = storedOptions(decl.options);
  const deps = graph.deps.get(name) ?? [];
  const chosen = chooseAction({
    prior,
    gone,
    type: decl.type,
    desired,
    replaceOn,
    canUpdate: !!def.update,
    ignoreChanges: decl.options?.ignoreChanges,
    options,
    dependencies: deps,
    moved: stateName !== undefined && stateName !== name,
    replaceRequested: replaceRequested.has(name),
    keyedLists: def.keyedLists,
    instanceMoved,
    settingChanges,
  });
  const choice = withNewSecrets(chosen, prior, secrets);
  if (decl.options?.protect && choice.action === 'replace') protectedHits.push({ address: name, action: 'replace' });
  planned.set(name, {
    choice: { action: choice.action, cause: choice.cause, inputs: choice.inputs },
    prior,
    def,
    secrets,
  });
  const secretInputs = secretInputPaths(secrets);
  // The old values of paths the prior record held secret stay hidden in the diff, too (a list of
  // both only when they differ: a record made from the same definition holds its very list).
  const priorSecrets = prior?.secrets.length ? secretInputPaths(prior.secrets) : NO_PATHS;
  const hiddenInputs =
    priorSecrets.length && priorSecrets !== secretInputs ? unionOf(secretInputs, priorSecrets) : secretInputs;
  // Read only when a change forces the replacement (redactChanges asks only then).
  const forcing = choice.changes.length && choice.reasons.length ? replaceOn.map(parsePath) : [];
  const changes = choice.changes.length
    ? redactChanges(choice.changes, hiddenInputs, choice.reasons.length ? new Set(choice.reasons) : NO_REASONS, forcing)
    : [];
  for (let k = 0; k < choice.stateChanges.length; k++) changes.push(stateChange(choice.stateChanges[k]!));
  const step = stepOf(name, decl, provider, prior, stateName, choice, changes, priorSecrets, secretInputs);
  const common = { base: drafts.length, step, def, provider, decl, secrets, deps };
  pushDraft(drafts, common, choice, prior, stateName, !!refreshed && refreshed !== recorded, priorResolved);
}

/**
 * A declaration's inputs as planned: references resolved (a secret() and a reference to a secret
 * path make the destination path secret), parsed, and checked by the provider; the issues and
 * warnings added to the run's. Its own function, as stepOf and pushDraft are: planDeclared's parts
 * compile one by one, each small, sooner than one large body does.
 */
function declaredInputs(
  run: PlanRun,
  name: string,
  decl: ResourceDecl,
  def: AnyResource,
  provider: Provider<unknown>,
): { desired: Record<string, unknown>; secrets: readonly string[] } {
  const { issues, warnings } = run;
  // A secret() and a reference to a secret path make the destination path secret (propagation).
  const resolved = resolveDeclared(decl.inputs, run.source, secretPathsOf(def));
  const raw = resolved.value;
  // Read only from here on (the definition's own paths are one frozen list, shared).
  const secrets = resolved.secrets;
  // Every reference unknown (or none): these are the inputs validation parsed, refs as unknowns.
  // Else, where the known values are scalars their own schemas take as they are under plain
  // objects, validation's parse with them in place (parsedWithKnown); else a parse of the whole.
  const validated = run.parsed?.get(decl);
  const reused =
    validated === undefined || resolved.allUnknown ? validated : parsedWithKnown(def.inputs, validated, raw);
  const parsed = reused !== undefined ? { data: reused, issues: NO_ISSUES } : parseWithUnknowns(def.inputs, raw);
  const issuesBefore = issues.length;
  const warningsBefore = warnings.length;
  // Index loops over the engine's own lists here: an unoptimized for-of allocates an iterator and a
  // result per element (and one of each for an empty list), and this runs for every declaration.
  for (let k = 0; k < parsed.issues.length; k++) {
    const i = parsed.issues[k]!;
    issues.push({ resource: name, path: i.path, code: i.code, message: i.message });
  }
  const desired = parsed.data as Record<string, unknown>;
  if (parsed.issues.length === 0) runChecks(name, def, provider, desired, issues, warnings);
  // A schema or check message may quote the value it refuses (an enum's "received 'x'"): never a secret.
  if (issues.length > issuesBefore || warnings.length > warningsBefore)
    scrubMessages(raw, secrets, issues, issuesBefore, warnings, warningsBefore);
  return { desired, secrets };
}

/** The step of a planned declaration, its before and after redacted. */
function stepOf(
  name: string,
  decl: ResourceDecl,
  provider: Provider<unknown>,
  prior: ResourceState | undefined,
  stateName: string | undefined,
  choice: Choice,
  changes: StepChange[],
  priorSecrets: readonly string[],
  secretInputs: readonly string[],
): Step {
  const instance = decl.options?.provider;
  return {
    address: name,
    type: decl.type,
    provider: provider.name,
    ...(instance !== undefined ? { instance } : {}),
    ...(choice.cause === 'provider_changed' && prior
      ? {
          providerChange: {
            from: instanceLabel(prior.provider, prior.instance),
            to: instanceLabel(provider.name, instance),
          },
        }
      : {}),
    action: choice.action,
    reasons: choice.reasons,
    cause: choice.cause,
    changes,
    before: prior ? (redactPaths(prior.inputs, priorSecrets) as Record<string, unknown>) : undefined,
    after: redactPaths(choice.inputs, secretInputs) as Record<string, unknown>,
    dependsOn: [],
    id: prior?.id,
    movedFrom: stateName !== undefined && stateName !== name ? stateName : undefined,
    createBeforeDestroy: choice.action === 'replace' ? (decl.options?.createBeforeDestroy ?? false) : undefined,
    ...(choice.action === 'replace' && decl.options?.retainOnDelete ? { retainOld: true } : {}),
  };
}

/** The draft of a planned step: a create, or a noop, update or replace of its prior object. */
function pushDraft(
  drafts: Draft[],
  common: DraftParts,
  choice: Choice,
  prior: ResourceState | undefined,
  stateName: string | undefined,
  drifted: boolean,
  priorResolved: Resolved | undefined,
): void {
  const decl = common.decl;
  const inputs =
    choice.action === 'noop'
      ? {}
      : containsUnknown(choice.inputs)
        ? { planned: choice.inputs }
        : { inputs: choice.inputs };
  if (!prior || stateName === undefined) drafts.push({ ...common, ...inputs, kind: 'create' });
  else if (choice.action === 'noop') {
    drafts.push({ ...common, prior, priorName: stateName, kind: 'noop', ...(drifted ? { refreshed: prior } : {}) });
  } else if (choice.action === 'update')
    drafts.push({ ...common, ...inputs, prior, priorName: stateName, kind: 'update' });
  // With a prior object, chooseAction answers noop, update or replace.
  else
    drafts.push({
      ...common,
      ...inputs,
      prior,
      priorName: stateName,
      kind: 'replace',
      ...(priorResolved ? { priorDef: priorResolved.def, priorProvider: priorResolved.provider } : {}),
      ...(decl.options?.retainOnDelete ? { retain: true } : {}),
    });
}

function runChecks(
  name: string,
  def: AnyResource,
  provider: Provider<unknown>,
  desired: Record<string, unknown>,
  issues: Issue[],
  warnings: string[],
): void {
  try {
    for (const i of def.check?.(desired, provider.config) ?? []) {
      if (containsUnknown(getPath(desired, i.path))) continue;
      issues.push({ resource: name, path: i.path, code: i.code ?? 'custom', message: i.message });
    }
    for (const w of def.warnings?.(desired, provider.config) ?? []) warnings.push(`${name}: ${w}`);
  } catch (error) {
    if (!containsUnknown(desired)) throw error;
  }
}

/** Each path of `a`, then of `b`, once. */
function unionOf(a: readonly string[], b: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < a.length; i++) if (!out.includes(a[i]!)) out.push(a[i]!);
  for (let i = 0; i < b.length; i++) if (!out.includes(b[i]!)) out.push(b[i]!);
  return out;
}

function stateChange(c: Change): StepChange {
  return { path: formatPath(c.path), before: c.before, after: c.after, forcesReplacement: false, scope: 'state' };
}
