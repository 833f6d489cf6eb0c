// Planning: validated declarations + the (refreshed) state → the steps of a plan. Reads nothing
// and changes nothing. It wires the pure parts: which record each declaration takes over
// (aliases), what each reference means at plan time, each declaration's step (declared.ts, the
// choice of action in choose.ts), orphans (orphans.ts) and the execution graph (execution.ts).
import type { ResourceDecl } from '../decl/resource-decl.js';
import type { Ref } from '../decl/ref.js';
import { valueOfRecord, type RecordSource } from '../decl/resolve.js';
import type { ResourceState, State } from '../../state/model.js';
import { own } from '../../state/keys.js';
import { newDeposedKey } from '../../state/migrate.js';
import type { Issue } from '../issue.js';
import { buildGraph, topoOrder, type Graph } from '../graph/graph.js';
import { schemaKeys } from '../validate/schema.js';
import { getPath, parsePath } from '../values/path.js';
import { unknown } from '../values/unknown.js';
import { isStateOnly } from './step.js';
import type { StepWork } from './work.js';
import { planOrphans } from './orphans.js';
import { buildExecution, type Draft } from './execution.js';
import { InstanceNotes } from './instances.js';
import { planDeclared, type PlanRun, type Planned } from './declared.js';
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
  const run: PlanRun = {
    state,
    refreshed: input.refreshed,
    resolve,
    parsed: input.parsed,
    byName,
    graph,
    claims,
    replaceRequested,
    blocked,
    planned,
    source,
    drafts,
    notes,
    issues,
    warnings,
    protectedHits,
  };
  for (const name of order) planDeclared(run, name);
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
