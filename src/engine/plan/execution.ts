// The execution graph of a plan: each step's nodes and the edges between them, and the order the
// plan lists its steps in. The rules, Terraform's (Pulumi's where Terraform has none):
//
// 1. A create, update or record of X follows the create, update or record of everything X
//    references or depends on.
// 2. A delete-first replacement deletes the old object, then creates the new one.
// 3. Destroys run in reverse dependency order: an object is destroyed after every object that
//    depended on it (as recorded) is destroyed. This holds inside replacements too: if a is
//    replaced delete-first and b, which references a, is replaced because of it, the order is
//    delete b, delete a, create a, create b.
// 4. An object is destroyed after every declared resource that referenced it has moved off it
//    (been updated, recorded or recreated), unless that resource still references its
//    replacement, which is created after the destroy (delete-first: Terraform's order).
// 5. createBeforeDestroy creates the new object first, moves the old one to `deposed`, and
//    destroys it after every dependent, direct or through others (a <- b <- c: after c's update
//    too), has been updated or replaced to point at the new one, as Terraform does. It
//    propagates to the replaced resources it depends on, directly or through others, and to those
//    its old object depended on (else rules 2 and 3 would make a cycle), as in Terraform.
// 6. Targets keep the named resources and what they depend on; a targeted destroy keeps the named
//    resources and everything that depends on them.
import {
  declOf,
  objectOf,
  type ExecNode,
  type NodeKind,
  type OrderedWork,
  type StepDraft,
  type StepWork,
} from './work.js';
import type { Graph } from '../graph/graph.js';
import { closure } from '../graph/graph.js';
import { Heap } from '../graph/heap.js';
import { ConvergeError } from '../errors.js';

/** A step before it has nodes; `base` orders steps that the graph leaves unordered. */
export type Draft = StepDraft & { readonly base: number };

/** A draft once its replacement order is decided. */
type Ordered = OrderedWork & { readonly base: number };

type ExecutionInput = {
  readonly drafts: readonly Draft[];
  /** The declarations' graph (rule 1 and 6). */
  readonly graph: Graph;
  readonly targets?: readonly string[];
  readonly destroy: boolean;
  /** A fresh deposed key for a create-first replacement. */
  readonly newDeposedKey: () => string;
};

/**
 * A node and the ids it waits for (a list: a node waits for a few, each once; see waitOn), with its
 * draft's base order (the ready nodes are taken by it: see byBase).
 */
type Node = { id: string; kind: NodeKind; draft: number; base: number; waitFor: string[] };
/** A destroy-side node, with the address and recorded dependencies of the object it destroys. */
type Destroy = { node: Node; address: string; deps: readonly string[]; deleteFirst: boolean; createFirst: boolean };

const APPLY_SIDE: ReadonlySet<NodeKind> = new Set(['create', 'create-replacement', 'update', 'record']);

export function buildExecution(input: ExecutionInput): { readonly work: StepWork[]; readonly warnings: string[] } {
  const drafts = propagateCreateBeforeDestroy(input.drafts, input.newDeposedKey);
  const selected = selectTargets(drafts, input);
  const declared = new Map<string, number>();
  drafts.forEach((d, i) => {
    if (declOf(d) && selected[i]) declared.set(d.step.address, i);
  });

  // Nodes (rule 2 and 5 inside each step).
  const nodes = new Map<string, Node>();
  const nodesOf: Node[][] = drafts.map(() => []);
  const add = (i: number, kind: NodeKind, after?: Node): Node => {
    const n: Node = { id: `${kind}:${i}`, kind, draft: i, base: drafts[i]!.base, waitFor: after ? [after.id] : [] };
    nodes.set(n.id, n);
    nodesOf[i]!.push(n);
    return n;
  };
  drafts.forEach((d, i) => {
    if (!selected[i]) return;
    switch (d.kind) {
      case 'create':
      case 'delete':
      case 'forget':
      case 'delete-deposed':
        add(i, d.kind);
        return;
      case 'update':
        add(i, d.step.changes.every((c) => c.scope === 'state') ? 'record' : 'update');
        return;
      case 'noop':
        if (d.refreshed || d.priorName !== d.step.address) add(i, 'record');
        return;
      case 'replace-create-first':
        add(i, d.retain ? 'forget-deposed' : 'delete-deposed', add(i, 'create-replacement'));
        return;
      case 'replace-delete-first':
        add(i, 'create', add(i, d.retain ? 'forget' : 'delete'));
    }
  });
  const applyAt = (i: number): Node | undefined => nodesOf[i]!.find((n) => APPLY_SIDE.has(n.kind));
  const applyNode = (name: string): Node | undefined => {
    const i = declared.get(name);
    return i === undefined ? undefined : applyAt(i);
  };

  // Rule 1. (forEach and index loops over every step: this runs once per plan, mostly before the
  // JIT has compiled it, where a for-of allocates a result per element.)
  declared.forEach((i) => {
    const mine = applyAt(i);
    const deps = drafts[i]!.deps;
    for (let k = 0; mine && k < deps.length; k++) {
      const theirs = applyNode(deps[k]!);
      if (theirs) waitOn(mine, theirs.id);
    }
  });

  // Destroy-side nodes with the address and the recorded dependencies of the object they destroy.
  const destroys: Destroy[] = [];
  nodes.forEach((n) => {
    if (APPLY_SIDE.has(n.kind)) return;
    const d = drafts[n.draft]!;
    destroys.push({
      node: n,
      address: d.step.address,
      deps: objectOf(d)?.dependencies ?? [],
      deleteFirst: d.kind === 'replace-delete-first',
      createFirst: d.kind === 'replace-create-first',
    });
  });
  // Rule 3: index destroys by what their object depended on.
  const destroyedDependents = new Map<string, Node[]>();
  for (const x of destroys) for (const dep of x.deps) push(destroyedDependents, dep, x.node);
  // Rule 4 and 5: declared resources by what they reference now or referenced before.
  const referrers = new Map<string, number[]>();
  if (destroys.length) {
    for (const [name, i] of declared) {
      const d = drafts[i]!;
      for (const dep of d.deps) if (dep !== name) push(referrers, dep, i);
      for (const dep of objectOf(d)?.dependencies ?? [])
        if (dep !== name && !d.deps.includes(dep)) push(referrers, dep, i);
    }
  }
  for (const x of destroys)
    for (const y of destroyedDependents.get(x.address) ?? [])
      if (y !== x.node && drafts[y.draft]!.step.address !== x.address) waitOn(x.node, y.id);
  // An apply-side node waits for a destroy only through a delete-first replacement (rule 2): only
  // then can a rule-4 edge close a cycle, so only then is it checked (and dropped, with a warning).
  const mayCycle = destroys.some((x) => x.deleteFirst);
  const warnings: string[] = [];
  // Rule 5: the old object of a create-first replacement waits for every resource that depends on
  // it through any chain, not only the direct ones (Terraform destroys the deposed object last).
  const referring = new Map([...referrers].map(([n, is]) => [n, is.map((i) => drafts[i]!.step.address)]));
  const chain = (name: string): number[] =>
    [...closure({ deps: referring, dependents: new Map() }, [name])].flatMap((n) =>
      n === name ? [] : declared.get(n)!,
    );
  for (const x of destroys) {
    for (const i of x.createFirst ? chain(x.address) : (referrers.get(x.address) ?? [])) {
      const w = drafts[i]!;
      const target = applyNode(w.step.address);
      if (!target) continue;
      if (x.deleteFirst && w.deps.includes(x.address)) continue;
      if (mayCycle && reaches(nodes, target, x.node.id)) {
        warnings.push(
          `${x.address} is destroyed before ${w.step.address} moves off it: the other order is impossible here (a delete-first replacement stands between them). Declare createBeforeDestroy on the replaced resource if the API refuses.`,
        );
        continue;
      }
      waitOn(x.node, target.id);
    }
  }

  return { work: order(drafts, nodes, nodesOf, selected), warnings };
}

/**
 * Rule 5's propagation: every replaced resource a create-first replacement depends on, through any
 * chain of references, or that its old object depended on, is replaced create-first too (Terraform
 * propagates create_before_destroy to all such ancestors; a delete-first one among them would have
 * to wait for the deposed object's destroy, which waits for it).
 */
function propagateCreateBeforeDestroy(input: readonly Draft[], newKey: () => string): Ordered[] {
  const drafts = [...input];
  const byName = new Map<string, number>();
  drafts.forEach((d, i) => {
    if (declOf(d)) byName.set(d.step.address, i);
  });
  const queue = drafts
    .map((_, i) => i)
    .filter((i) => drafts[i]!.kind === 'replace' && drafts[i]!.step.createBeforeDestroy);
  while (queue.length) {
    const i = queue.pop()!;
    const seen = new Set<string>();
    const stack = [...drafts[i]!.deps, ...(objectOf(drafts[i]!)?.dependencies ?? [])];
    while (stack.length) {
      const dep = stack.pop()!;
      if (seen.has(dep)) continue;
      seen.add(dep);
      const j = byName.get(dep);
      if (j === undefined) continue;
      const d = drafts[j]!;
      stack.push(...d.deps);
      if (d.kind !== 'replace' || d.step.createBeforeDestroy) continue;
      drafts[j] = { ...d, step: { ...d.step, createBeforeDestroy: true, createBeforeDestroyPropagated: true } };
      queue.push(j);
    }
  }
  return drafts.map((d): Ordered => {
    if (d.kind !== 'replace') return d;
    return d.step.createBeforeDestroy
      ? { ...d, kind: 'replace-create-first', deposedKey: newKey() }
      : { ...d, kind: 'replace-delete-first' };
  });
}

/** Rule 6: which drafts the plan keeps. */
function selectTargets(drafts: readonly Ordered[], input: ExecutionInput): boolean[] {
  const targets = input.targets ?? [];
  if (targets.length === 0) return drafts.map(() => true);
  let names: Set<string>;
  if (input.destroy) {
    // The targets and every recorded object that depends on them, transitively.
    const dependents = new Map<string, string[]>();
    for (const d of drafts) for (const dep of objectOf(d)?.dependencies ?? []) push(dependents, dep, d.step.address);
    names = new Set();
    const stack = [...targets];
    while (stack.length) {
      const n = stack.pop()!;
      if (names.has(n)) continue;
      names.add(n);
      stack.push(...(dependents.get(n) ?? []));
    }
  } else {
    names = closure(
      input.graph,
      targets.filter((t) => input.graph.deps.has(t)),
    );
    for (const t of targets) names.add(t); // removed resources named as targets
  }
  return drafts.map((d) => names.has(d.step.address));
}

/** True when `from` waits, directly or through others, for node `to`. */
function reaches(nodes: ReadonlyMap<string, Node>, from: Node, to: string): boolean {
  const seen = new Set<string>();
  const stack = [from];
  while (stack.length) {
    const n = stack.pop()!;
    if (n.id === to) return true;
    if (seen.has(n.id)) continue;
    seen.add(n.id);
    for (const w of n.waitFor) {
      const m = nodes.get(w);
      if (m) stack.push(m);
    }
  }
  return false;
}

/**
 * Ready nodes by their drafts' base order, then id. One function for every plan, not a closure per
 * order(): the heap's calls of it stay one target, which the JIT inlines without deoptimizing.
 */
function byBase(a: Node, b: Node): number {
  return a.base - b.base || a.id.localeCompare(b.id);
}

/** Topological order of the nodes (ties broken by the drafts' base order); steps listed at their first node. */
function order(
  drafts: readonly Ordered[],
  nodes: ReadonlyMap<string, Node>,
  nodesOf: readonly Node[][],
  selected: readonly boolean[],
): StepWork[] {
  const remaining = new Map<string, number>();
  const dependents = new Map<string, Node[]>();
  const ready = new Heap<Node>(byBase);
  // forEach and index loops, as in buildExecution.
  nodes.forEach((n) => {
    remaining.set(n.id, n.waitFor.length);
    for (let k = 0; k < n.waitFor.length; k++) push(dependents, n.waitFor[k]!, n);
    if (n.waitFor.length === 0) ready.push(n);
  });
  const firstSeen: number[] = [];
  const seen = new Set<number>();
  let done = 0;
  while (ready.size) {
    const n = ready.pop()!;
    done++;
    if (!seen.has(n.draft)) {
      seen.add(n.draft);
      firstSeen.push(n.draft);
    }
    const next = dependents.get(n.id) ?? [];
    for (let k = 0; k < next.length; k++) {
      const m = next[k]!;
      const left = remaining.get(m.id)! - 1;
      remaining.set(m.id, left);
      if (left === 0) ready.push(m);
    }
  }
  if (done !== nodes.size) {
    const stuck = [...nodes.values()]
      .filter((n) => remaining.get(n.id)! > 0)
      .map((n) => `${n.kind} ${drafts[n.draft]!.step.address}`);
    throw new ConvergeError(
      `The plan's steps wait for each other in a cycle (${stuck.slice(0, 8).join(', ')}); nothing was planned.\nThis is a converge bug: please report it with the plan's resources.`,
    );
  }
  // Steps without nodes (noops) go where their base order puts them.
  const quiet = drafts.map((_, i) => i).filter((i) => selected[i] && nodesOf[i]!.length === 0);
  const sequence: number[] = [];
  let q = 0;
  for (let k = 0; k < firstSeen.length; k++) {
    const i = firstSeen[k]!;
    while (q < quiet.length && drafts[quiet[q]!]!.base < drafts[i]!.base) sequence.push(quiet[q++]!);
    sequence.push(i);
  }
  while (q < quiet.length) sequence.push(quiet[q++]!);

  // The drafts become the plan's work as they are (they are this function's own copies), and so do
  // their steps (made for this plan, held by nothing else yet): a step that waits for another gets
  // its dependsOn in place.
  return sequence.map((i): StepWork => {
    const d = drafts[i]! as Ordered & { nodes?: readonly ExecNode[]; step: StepWork['step'] };
    const mine = nodesOf[i]!;
    if (mine.length === 0) return Object.assign(d, { nodes: NO_NODES });
    const own: ExecNode[] = mine.map((n) => ({ id: n.id, kind: n.kind, waitFor: n.waitFor }));
    let after: Set<string> | undefined;
    for (let k = 0; k < own.length; k++)
      for (let j = 0; j < own[k]!.waitFor.length; j++) {
        const other = nodes.get(own[k]!.waitFor[j]!)!.draft;
        if (other !== i) (after ??= new Set()).add(drafts[other]!.step.address);
      }
    if (after) (d.step as { dependsOn: readonly string[] }).dependsOn = [...after];
    return Object.assign(d, { nodes: own });
  });
}

const NO_NODES: readonly ExecNode[] = Object.freeze([]);

/** Makes `n` wait for node `id`, once. */
function waitOn(n: Node, id: string): void {
  if (!n.waitFor.includes(id)) n.waitFor.push(id);
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}
