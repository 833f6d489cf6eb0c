// Planning: validated declarations + the (refreshed) state → the steps of a plan. Pure apart from the
// provider definitions' own checks; reads nothing and changes nothing.
import type { ResourceDecl } from '../decl/resource-decl.js';
import { hasRefs, isRef, type Ref } from '../decl/ref.js';
import type { AnyResource, Provider } from '../provider/define.js';
import type { ResourceState, State } from '../../state/model.js';
import type { Issue } from '../validate/issue.js';
import { buildGraph, closure, topoOrder, type Graph } from '../graph/graph.js';
import { parseWithUnknowns, schemaKeys } from '../validate/schema.js';
import { diffValues, type Change } from '../diff/diff.js';
import { applyIgnoreChanges } from '../diff/ignore.js';
import { formatPath, getPath, parsePath, pathCovers } from '../values/path.js';
import { containsUnknown, isUnknown, unknown } from '../values/unknown.js';
import { redactPaths } from '../values/redact.js';
import { isSensitive, sensitive } from '../values/secret.js';
import type { Action } from './action.js';
import type { Step, StepChange } from './step.js';
import type { StepCause } from './reason.js';
import type { StepWork } from './work.js';
import { ProtectedResourceError, ValidationError } from '../errors.js';

export type Resolved = { readonly def: AnyResource; readonly provider: Provider<unknown> };

export type PlanInput = {
  readonly decls: readonly ResourceDecl[];
  readonly state: State;
  /** Refreshed view of state resources by state name; null = gone; absent = not refreshed. */
  readonly refreshed: ReadonlyMap<string, ResourceState | null>;
  readonly resolve: (token: string) => Resolved | undefined;
  readonly targets?: readonly string[];
  readonly destroy?: boolean;
  /** The declarations' graph, when validation built it already. */
  readonly graph?: Graph;
};

export type PlanOutput = { readonly work: StepWork[]; readonly warnings: string[] };

type Planned = {
  readonly action: Action;
  readonly inputs: Record<string, unknown>;
  readonly prior?: ResourceState;
  readonly def: AnyResource;
};

/** Secret paths of a resource, as stored: 'inputs.x' and 'outputs.x' for each schema secret. */
export function secretPathsOf(def: AnyResource): string[] {
  const out: string[] = [];
  for (const s of def.secrets ?? []) out.push(`inputs.${s}`, `outputs.${s}`);
  return out;
}

export function strip(prefix: string, paths: readonly string[]): string[] {
  return paths.filter((p) => p.startsWith(prefix)).map((p) => p.slice(prefix.length));
}

export function planSteps(input: PlanInput): PlanOutput {
  const { state, resolve } = input;
  const decls = input.destroy ? [] : input.decls;
  const issues: Issue[] = [];
  const warnings: string[] = [];
  const protectedHits: { address: string; action: 'delete' | 'replace' }[] = [];
  const byName = new Map(decls.map((d) => [d.name, d]));
  const graph = input.graph && !input.destroy ? input.graph : buildGraph(decls);
  const order = topoOrder(graph);

  // Which state entry each declaration takes over: its own name, else its first alias in state.
  const claimed = new Map<string, string>();
  const claimedState = new Set<string>();
  for (const d of decls) if (state.resources[d.name]) { claimed.set(d.name, d.name); claimedState.add(d.name); }
  for (const d of decls) {
    if (claimed.has(d.name)) continue;
    const alias = d.options?.aliases?.find((a) => state.resources[a] && !byName.has(a) && !claimedState.has(a));
    if (alias) { claimed.set(d.name, alias); claimedState.add(alias); }
  }

  const priorOf = (stateName: string | undefined): { prior?: ResourceState; gone: boolean } => {
    if (!stateName) return { gone: false };
    const r = input.refreshed.get(stateName);
    if (r === null) return { gone: true };
    return { prior: r ?? state.resources[stateName], gone: false };
  };

  const planned = new Map<string, Planned>();
  const valueOf = (ref: Ref): unknown => {
    const u = planned.get(ref.resource);
    if (!u) return unknown;
    const segs = parsePath(ref.path);
    const head = String(segs[0]);
    const outKeys = schemaKeys(u.def.outputs);
    const inKeys = schemaKeys(u.def.inputs);
    const fresh = u.action === 'create' || u.action === 'replace';
    if (segs.length === 1 && head === 'id' && !(outKeys?.has('id'))) return fresh ? unknown : u.prior?.id;
    const isOutput = outKeys ? outKeys.has(head) : !(inKeys?.has(head));
    if (isOutput) {
      if (fresh) return unknown;
      if (u.action === 'update' && (u.def.computedOnUpdate ?? []).includes(head)) return unknown;
      const v = getPath(u.prior?.outputs, segs);
      if (v !== undefined || !inKeys?.has(head)) return v;
    }
    return getPath(u.inputs, segs);
  };
  const resolveRefs = (v: unknown): unknown => {
    if (isRef(v)) return valueOf(v);
    if (Array.isArray(v)) return v.map(resolveRefs);
    if (v && typeof v === 'object') {
      const o: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v)) o[k] = resolveRefs(x);
      return o;
    }
    return v;
  };

  const work = new Map<string, StepWork>();
  for (const name of order) {
    const decl = byName.get(name)!;
    const resolved = resolve(decl.type)!;
    const { def, provider } = resolved;
    const stateName = claimed.get(name);
    const { prior: rawPrior, gone } = priorOf(stateName);
    const raw = (hasRefs(decl.inputs) ? resolveRefs(decl.inputs) : decl.inputs) as Record<string, unknown>;
    const parsed = parseWithUnknowns(def.inputs, raw);
    for (const i of parsed.issues) issues.push({ resource: name, path: i.path, code: i.code, message: i.message });
    let desired = parsed.data as Record<string, unknown>;
    if (parsed.issues.length === 0) {
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
    const prior = rawPrior;
    desired = applyIgnoreChanges(desired, prior?.inputs as Record<string, unknown> | undefined, decl.options?.ignoreChanges);
    const secrets = secretPathsOf(def);
    const secretInputs = strip('inputs.', secrets);
    let action: Action;
    let cause: StepCause;
    let reasons: string[] = [];
    let changes: Change[] = [];
    const forcing = [...(def.replaceOn ?? []), ...(decl.options?.replaceOnChanges ?? [])].map(parsePath);
    if (!prior) {
      action = 'create';
      cause = gone ? 'gone' : 'new';
      changes = diffValues({}, desired);
    } else if (prior.tainted) {
      action = 'replace';
      cause = 'tainted';
      changes = diffValues(prior.inputs, desired);
    } else if (prior.type !== decl.type) {
      action = 'replace';
      cause = 'type_changed';
      reasons = ['type'];
      changes = diffValues(prior.inputs, desired);
    } else {
      changes = diffValues(prior.inputs, desired);
      if (changes.length === 0) { action = 'noop'; cause = stateName !== name ? 'moved' : 'unchanged'; }
      else {
        const forced = changes.filter((c) => forcing.some((f) => pathCovers(f, c.path)));
        if (forced.length || !def.update) {
          action = 'replace';
          cause = 'replace_forced';
          reasons = [...new Set((forced.length ? forced : changes).map((c) => formatPath(c.path)))];
        } else { action = 'update'; cause = 'changed'; }
      }
    }
    if (decl.options?.protect && action === 'replace') protectedHits.push({ address: name, action: 'replace' });
    planned.set(name, { action, inputs: desired, prior, def });
    const forcedSet = new Set(reasons);
    const step: Step = {
      address: name,
      type: decl.type,
      provider: provider.name,
      action,
      reasons,
      cause,
      changes: redactChanges(changes, secretInputs, forcedSet, forcing),
      before: prior ? (redactPaths(prior.inputs, secretInputs) as Record<string, unknown>) : undefined,
      after: redactPaths(desired, secretInputs) as Record<string, unknown>,
      dependsOn: [],
      id: prior?.id,
      movedFrom: stateName && stateName !== name ? stateName : undefined,
      createBeforeDestroy: action === 'replace' ? decl.options?.createBeforeDestroy ?? false : undefined,
    };
    const refreshedDiffers = action === 'noop' && prior && stateName && input.refreshed.has(stateName) && prior !== state.resources[stateName];
    const known = action !== 'noop' && !containsUnknown(desired);
    work.set(name, { step, def, provider, decl, prior, priorName: stateName, secrets, waitFor: [], deps: graph.deps.get(name) ?? [], inputs: known ? desired : undefined, refreshed: refreshedDiffers ? prior : undefined });
  }
  if (issues.length) throw new ValidationError(issues);

  // Everything in state that no declaration claims is deleted (or forgotten with retainOnDelete).
  for (const [stateName, r] of Object.entries(state.resources)) {
    if (claimedState.has(stateName)) continue;
    const resolved = resolve(r.type);
    if (!resolved) {
      issues.push({ resource: stateName, path: ['type'], code: 'unknown_type', message: `the state holds a ${r.type}, but no provider of this engine has that type; add its provider to delete it` });
      continue;
    }
    const retain = r.options.retainOnDelete ?? false;
    if (r.options.protect && !retain) protectedHits.push({ address: stateName, action: 'delete' });
    const gone = input.refreshed.get(stateName) === null;
    const secrets = r.secrets;
    const step: Step = {
      address: stateName,
      type: r.type,
      provider: r.provider,
      action: retain || gone ? 'forget' : 'delete',
      reasons: [],
      cause: stateName.includes('~deposed-') ? 'deposed' : gone ? 'gone' : retain ? 'retained' : 'removed',
      changes: [],
      before: redactPaths(r.inputs, strip('inputs.', secrets)) as Record<string, unknown>,
      after: undefined,
      dependsOn: [],
      id: r.id,
    };
    work.set(stateName, { step, def: resolved.def, provider: resolved.provider, prior: input.refreshed.get(stateName) ?? r, priorName: stateName, secrets, waitFor: [], deps: [] });
  }
  if (issues.length) throw new ValidationError(issues);
  if (protectedHits.length) {
    const [first, ...rest] = protectedHits;
    throw new ProtectedResourceError(first!.address, first!.action, rest);
  }

  // Targets: the named resources and everything they depend on.
  let selected: Set<string> | undefined;
  if (input.targets?.length) {
    selected = closure(graph, input.targets.filter((t) => byName.has(t)));
    for (const t of input.targets) if (!byName.has(t) && work.has(t)) selected.add(t);
  }

  // Execution edges. Creates/updates wait for what they reference; a deleted resource is deleted
  // before what it depended on, and after whatever moves off it.
  const waits = new Map<string, Set<string>>();
  for (const name of work.keys()) waits.set(name, new Set());
  const active = (n: string) => { const w = work.get(n); return !!w && w.step.action !== 'noop'; };
  for (const name of order) {
    for (const d of graph.deps.get(name) ?? []) if (active(d)) waits.get(name)!.add(d);
  }
  const movingOff = new Map<string, string[]>();
  for (const [name, w] of work) {
    if (!w.decl || w.step.action === 'noop') continue;
    for (const dep of w.prior?.dependencies ?? []) {
      let list = movingOff.get(dep);
      if (!list) movingOff.set(dep, (list = []));
      list.push(name);
    }
  }
  for (const [name, w] of work) {
    if (w.decl || !w.prior) continue;
    for (const dep of w.prior.dependencies) {
      const depWork = work.get(dep);
      if (depWork && !depWork.decl) waits.get(dep)!.add(name);
    }
    for (const other of movingOff.get(name) ?? []) waits.get(name)!.add(other);
  }

  const ordered: StepWork[] = [];
  const deletes = Object.keys(state.resources).filter((n) => work.has(n) && !work.get(n)!.decl);
  const deleteOrder = reverseDeleteOrder(deletes, waits);
  for (const name of [...order, ...deleteOrder]) {
    if (selected && !selected.has(name)) continue;
    const w = work.get(name)!;
    const waitFor = [...waits.get(name)!].filter((n) => !selected || selected.has(n));
    ordered.push({ ...w, step: { ...w.step, dependsOn: waitFor }, waitFor });
  }
  return { work: ordered, warnings };
}

function reverseDeleteOrder(list: string[], waits: Map<string, Set<string>>): string[] {
  const names = new Set(list);
  const out: string[] = [];
  const done = new Set<string>();
  const visit = (n: string, stack: Set<string>) => {
    if (done.has(n) || stack.has(n)) return;
    stack.add(n);
    for (const w of waits.get(n) ?? []) if (names.has(w)) visit(w, stack);
    stack.delete(n);
    done.add(n);
    out.push(n);
  };
  for (const n of list) visit(n, new Set());
  return out;
}

function redactChanges(changes: Change[], secretInputs: string[], forced: Set<string>, forcing: ReturnType<typeof parsePath>[]): StepChange[] {
  const secretPatterns = secretInputs.map(parsePath);
  return changes.map((c) => {
    const secret = secretPatterns.some((p) => pathCovers(p, c.path));
    const path = formatPath(c.path);
    // Secret paths below this change's path (the change holds a whole object or list).
    const below = secretPatterns.filter((p) => p.length > c.path.length && pathCovers(c.path, p)).map((p) => formatPath(p.slice(c.path.length)));
    return {
      path,
      before: secret && c.before !== undefined ? sensitive : redactPaths(redactNested(c.before), below),
      after: secret && c.after !== undefined && !isUnknown(c.after) ? sensitive : redactPaths(redactNested(c.after), below),
      forcesReplacement: forced.has(path) || (forced.size > 0 && forcing.some((f) => pathCovers(f, c.path))),
    };
  });
}

function redactNested(v: unknown): unknown {
  return isSensitive(v) ? sensitive : v;
}
