// Planning: validated declarations + the (refreshed) state → the steps of a plan. Reads nothing
// and changes nothing. It wires the pure parts: which record each declaration takes over
// (aliases), what each reference means at plan time, the choice of action (choose.ts), orphans
// (orphans.ts) and the execution graph (execution.ts).
import type { ResourceDecl } from '../decl/resource-decl.js';
import type { Ref } from '../decl/ref.js';
import { resolveDeclared, valueOfRecord, type RecordSource } from '../decl/resolve.js';
import type { AnyResource, Provider } from '../provider/define.js';
import type { ResourceState, State } from '../../state/model.js';
import { own } from '../../state/keys.js';
import { newDeposedKey } from '../../state/migrate.js';
import type { Issue } from '../issue.js';
import { buildGraph, topoOrder, type Graph } from '../graph/graph.js';
import { parsedWithKnown, parseWithUnknowns, schemaKeys } from '../validate/schema.js';
import type { Change } from '../diff/diff.js';
import { formatPath, getPath, parsePath } from '../values/path.js';
import { containsUnknown, unknown } from '../values/unknown.js';
import { redactPaths } from '../values/redact.js';
import { isStateOnly, type Step, type StepChange } from './step.js';
import type { StepWork } from './work.js';
import { chooseAction, type Choice } from './choose.js';
import { storedOptions } from './options.js';
import { planOrphans } from './orphans.js';
import { buildExecution, type Draft } from './execution.js';
import { redactChanges, scrubMessages, strip, withNewSecrets } from './secrets.js';
import { secretPathsOf } from '../provider/secret-paths.js';
import { instanceLabel } from '../provider/instance.js';
import { InstanceNotes, missingInstanceIssue } from './instances.js';
import { ProtectedResourceError, ValidationError } from '../errors.js';

import type { Resolved } from '../provider/define.js';

type PlanInput = {
  readonly decls: readonly ResourceDecl[];
  readonly state: State;
  /** Refreshed view of state resources by state name; null = gone; absent = not refreshed. */
  readonly refreshed: ReadonlyMap<string, ResourceState | null>;
  /** The handler of a type through a provider instance (undefined: the default one). */
  readonly resolve: (token: string, instance?: string) => Resolved | undefined;
  readonly targets?: readonly string[];
  /** Resources to replace although nothing forces it (Terraform's -replace). */
  readonly replace?: readonly string[];
  readonly destroy?: boolean;
  /** The declarations' graph, when validation built it already. */
  readonly graph?: Graph;
  /** That graph's dependency order, when validation sorted it already. */
  readonly order?: readonly string[];
  /** Parsed inputs from validation, references as unknowns: reused where every reference plans as unknown (parsed once, not twice). */
  readonly parsed?: ReadonlyMap<object, unknown>;
};

type PlanOutput = {
  readonly work: StepWork[];
  readonly warnings: string[];
  /** What a reference means at plan time, and which paths of what it names are secret (the stack's outputs resolve through it). */
  readonly source: RecordSource;
};

/** What the planner knows of a declared resource once its action is chosen: for references to it. */
type Planned = {
  readonly choice: Choice;
  readonly prior?: ResourceState;
  readonly def: AnyResource;
  readonly secrets: readonly string[];
};

export function planSteps(input: PlanInput): PlanOutput {
  const { state, resolve } = input;
  const decls = input.destroy ? [] : input.decls;
  const issues: Issue[] = [];
  const warnings: string[] = [];
  const protectedHits: { address: string; action: 'delete' | 'replace' }[] = [];
  const byName = new Map(decls.map((d) => [d.name, d]));
  const reuse = input.graph && !input.destroy;
  const graph = reuse ? input.graph! : buildGraph(decls);
  const order = reuse && input.order ? input.order : topoOrder(graph);
  const claims = claimRecords(decls, state, byName);
  const replaceRequested = new Set(input.replace ?? []);

  // A create whose outcome nobody could tell blocks its name (and what depends on it): creating it
  // again could make a second object. The user imports the object or drops the record.
  const blocked = new Set(
    Object.values(state.pending)
      .filter((p) => p.kind === 'create')
      .map((p) => p.name),
  );

  const planned = new Map<string, Planned>();
  // References read the planned values of what comes before in dependency order.
  const source: RecordSource = {
    valueOf: (r) => plannedValue(r, planned),
    secretsOf: (name) => planned.get(name)?.secrets ?? [],
  };
  const drafts: Draft[] = [];
  const notes = new InstanceNotes();
  for (const name of order) {
    const decl = byName.get(name)!;
    const waitsOn = [...blocked].find((b) => b === name || (graph.deps.get(name) ?? []).includes(b));
    if (waitsOn !== undefined) {
      blocked.add(name);
      warnings.push(
        waitsOn === name
          ? `${name}: not planned: an earlier create of it may have made an object nobody could find. Import it with engine.import(), or drop the pending record with engine.forgetPending('${name}'), then plan again.`
          : `${name}: not planned: it depends on ${waitsOn}, whose earlier create is unresolved.`,
      );
      continue;
    }
    const instance = decl.options?.provider;
    const { def, provider } = resolve(decl.type, instance)!;
    const stateName = claims.get(name);
    const recorded = stateName !== undefined ? own(state.resources, stateName) : undefined;
    const refreshed = stateName !== undefined ? input.refreshed.get(stateName) : undefined;
    const gone = refreshed === null;
    const prior = gone ? undefined : (refreshed ?? recorded);

    // A secret() and a reference to a secret path make the destination path secret (propagation).
    const resolved = resolveDeclared(decl.inputs, source, secretPathsOf(def));
    const raw = resolved.value;
    const secrets = [...resolved.secrets];
    // Every reference unknown (or none): these are the inputs validation parsed, refs as unknowns.
    // Else, where the known values are scalars their own schemas take as they are under plain
    // objects, validation's parse with them in place (parsedWithKnown); else a parse of the whole.
    const validated = input.parsed?.get(decl);
    const reused =
      validated === undefined || resolved.allUnknown ? validated : parsedWithKnown(def.inputs, validated, raw);
    const parsed = reused !== undefined ? { data: reused, issues: [] } : parseWithUnknowns(def.inputs, raw);
    const issuesBefore = issues.length;
    const warningsBefore = warnings.length;
    for (const i of parsed.issues) issues.push({ resource: name, path: i.path, code: i.code, message: i.message });
    const desired = parsed.data as Record<string, unknown>;
    if (parsed.issues.length === 0) runChecks(name, def, provider, desired, issues, warnings);
    // A schema or check message may quote the value it refuses (an enum's "received 'x'"): never a secret.
    if (issues.length > issuesBefore || warnings.length > warningsBefore)
      scrubMessages(raw, secrets, issues, issuesBefore, warnings, warningsBefore);

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
      continue;
    }
    if (prior && otherHandler && !priorResolved) {
      issues.push(missingInstanceIssue(name, prior));
      continue;
    }
    const settingChanges = prior && !instanceMoved ? notes.compare(name, prior, provider, gone) : undefined;
    // Paths the API cannot change in place from this prior (replaceWhen) force replacement too.
    const replaceOn = [
      ...(def.replaceOn ?? []),
      ...(decl.options?.replaceOnChanges ?? []),
      ...(prior && prior.type === decl.type && def.replaceWhen ? def.replaceWhen(prior, desired) : []),
    ];
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
    planned.set(name, { choice, prior, def, secrets });
    const secretInputs = strip('inputs.', secrets);
    // The old values of paths the prior record held secret stay hidden in the diff, too.
    const priorSecrets = prior?.secrets.length ? strip('inputs.', prior.secrets) : [];
    const hiddenInputs =
      secretInputs.length || priorSecrets.length ? [...new Set([...secretInputs, ...priorSecrets])] : secretInputs;
    const forcing = choice.changes.length ? replaceOn.map(parsePath) : []; // read only when something changes
    const step: Step = {
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
      changes: [
        ...(choice.changes.length ? redactChanges(choice.changes, hiddenInputs, new Set(choice.reasons), forcing) : []),
        ...choice.stateChanges.map(stateChange),
      ],
      before: prior ? (redactPaths(prior.inputs, priorSecrets) as Record<string, unknown>) : undefined,
      after: redactPaths(choice.inputs, secretInputs) as Record<string, unknown>,
      dependsOn: [],
      id: prior?.id,
      movedFrom: stateName !== undefined && stateName !== name ? stateName : undefined,
      createBeforeDestroy: choice.action === 'replace' ? (decl.options?.createBeforeDestroy ?? false) : undefined,
      ...(choice.action === 'replace' && decl.options?.retainOnDelete ? { retainOld: true } : {}),
    };
    const common = { base: drafts.length, step, def, provider, decl, secrets, deps };
    const inputs = choice.action !== 'noop' && !containsUnknown(choice.inputs) ? { inputs: choice.inputs } : {};
    if (!prior || stateName === undefined) drafts.push({ ...common, ...inputs, kind: 'create' });
    else if (choice.action === 'noop') {
      const drifted = refreshed && refreshed !== recorded;
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
  if (issues.length) throw new ValidationError(issues);
  warnings.push(...notes.warnings());

  const orphans = planOrphans({
    state,
    claimed: new Set(claims.values()),
    refreshed: input.refreshed,
    resolve,
    base: drafts.length,
  });
  if (orphans.issues.length) throw new ValidationError(orphans.issues);
  protectedHits.push(...orphans.protectedHits);
  if (protectedHits.length) {
    const [first, ...rest] = protectedHits;
    throw new ProtectedResourceError(first!.address, first!.action, rest);
  }
  drafts.push(...orphans.drafts);

  const used = new Set(Object.keys(state.deposed));
  const newKey = () => {
    const k = newDeposedKey(Object.fromEntries([...used].map((u) => [u, true])));
    used.add(k);
    return k;
  };
  const execution = buildExecution({
    drafts,
    graph,
    targets: input.targets,
    destroy: input.destroy ?? false,
    newDeposedKey: newKey,
  });
  return {
    work: execution.work,
    warnings: [...warnings, ...execution.warnings],
    source,
  };
}

/** Which record each declaration takes over: its own name, else its first alias in the state. */
function claimRecords(
  decls: readonly ResourceDecl[],
  state: State,
  byName: ReadonlyMap<string, ResourceDecl>,
): Map<string, string> {
  const claims = new Map<string, string>();
  const taken = new Set<string>();
  for (const d of decls)
    if (own(state.resources, d.name)) {
      claims.set(d.name, d.name);
      taken.add(d.name);
    }
  for (const d of decls) {
    if (claims.has(d.name)) continue;
    const alias = d.options?.aliases?.find((a) => own(state.resources, a) && !byName.has(a) && !taken.has(a));
    if (alias !== undefined) {
      claims.set(d.name, alias);
      taken.add(alias);
    }
  }
  return claims;
}

/**
 * What a reference means at plan time: unknown for anything a create or replacement will produce
 * (and for outputs an update may change), else the value valueOfRecord gives against the prior
 * object, with inputs taken from what the step will send. Apply resolves with valueOfRecord too.
 */
function plannedValue(ref: Ref, planned: ReadonlyMap<string, Planned>): unknown {
  const u = planned.get(ref.resource);
  if (!u) return unknown;
  const segs = parsePath(ref.path);
  const head = String(segs[0]);
  const { action, inputs } = u.choice;
  const fresh = action === 'create' || action === 'replace';
  const outKeys = schemaKeys(u.def.outputs);
  const inKeys = schemaKeys(u.def.inputs);
  // A state-only update calls no provider: its outputs stay what the state records.
  const computed = action === 'update' && !isStateOnly(u.choice) && (u.def.computedOnUpdate ?? []).includes(head);
  if (segs.length === 1 && head === 'id') return fresh || computed ? unknown : valueOfRecord(u.prior!, segs);
  const isOutput = outKeys ? outKeys.has(head) : !inKeys?.has(head);
  if (isOutput) {
    if (fresh || computed) return unknown;
    const v = getPath(u.prior?.outputs, segs);
    if (v !== undefined || !inKeys?.has(head)) return v;
  }
  return getPath(inputs, segs);
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

function stateChange(c: Change): StepChange {
  return { path: formatPath(c.path), before: c.before, after: c.after, forcesReplacement: false, scope: 'state' };
}
