// The dependency graph of a stack: an edge from each resource to every resource it references
// (ref()) or names in dependsOn. Topological order for planning; reverse order for deletion.
import type { ResourceDecl } from '../decl/resource-decl.js';
import { eachRef } from '../decl/ref.js';
import { findCycle } from './cycle.js';
import { ValidationError } from '../errors.js';

export type Graph = {
  /** name → the names it depends on (deduplicated, declared ones only). */
  readonly deps: ReadonlyMap<string, readonly string[]>;
  /** name → the names that depend on it. */
  readonly dependents: ReadonlyMap<string, readonly string[]>;
};

/** `refsOf`: the names each declaration's inputs reference, when the caller collected them already. */
export function buildGraph(
  decls: readonly ResourceDecl[],
  refsOf?: ReadonlyMap<ResourceDecl, readonly string[]>,
): Graph {
  const names = new Set(decls.map((d) => d.name));
  const deps = new Map<string, string[]>();
  const dependents = new Map<string, string[]>();
  for (const d of decls) dependents.set(d.name, []);
  for (const d of decls) {
    const set = new Set<string>();
    for (const r of refsOf?.get(d) ?? referencedNames(d.inputs)) if (names.has(r) && r !== d.name) set.add(r);
    for (const n of d.options?.dependsOn ?? []) if (names.has(n) && n !== d.name) set.add(n);
    const list = [...set];
    deps.set(d.name, list);
    for (const n of list) dependents.get(n)!.push(d.name);
  }
  return { deps, dependents };
}

/** The names a declaration's inputs reference, in order. */
function referencedNames(inputs: unknown): string[] {
  const out: string[] = [];
  eachRef(inputs, (ref) => out.push(ref.resource));
  return out;
}

/** Names in an order where each comes after everything it depends on; throws a ValidationError (dependency_cycle) if there is a cycle (validate first). */
export function topoOrder(graph: Graph): string[] {
  const order = sortGraph(graph);
  if (order) return order;
  const cycle = findCycle(graph.deps) ?? [];
  throw new ValidationError([
    {
      resource: cycle[0] ?? '',
      field: 'declaration',
      path: [],
      code: 'dependency_cycle',
      message: `dependency cycle: ${cycle.join(' -> ')}`,
      cycle,
    },
  ]);
}

/** Names in an order where each comes after everything it depends on, or undefined when there is a cycle. */
export function sortGraph(graph: Graph): string[] | undefined {
  const order: string[] = [];
  const indegree = new Map<string, number>();
  const queue: string[] = [];
  // forEach and index loops: this runs once per plan, over every name, mostly before the JIT has
  // compiled it, where a for-of over a map allocates a result and an entry pair per element.
  graph.deps.forEach((ds, n) => {
    indegree.set(n, ds.length);
    if (ds.length === 0) queue.push(n);
  });
  for (let i = 0; i < queue.length; i++) {
    const n = queue[i]!;
    order.push(n);
    const dependents = graph.dependents.get(n) ?? [];
    for (let j = 0; j < dependents.length; j++) {
      const m = dependents[j]!;
      const k = indegree.get(m)! - 1;
      indegree.set(m, k);
      if (k === 0) queue.push(m);
    }
  }
  return order.length === graph.deps.size ? order : undefined;
}

/** `names` and everything they depend on, transitively. */
export function closure(graph: Graph, names: Iterable<string>): Set<string> {
  const out = new Set<string>();
  const stack = [...names];
  while (stack.length) {
    const n = stack.pop()!;
    if (out.has(n)) continue;
    out.add(n);
    for (const d of graph.deps.get(n) ?? []) stack.push(d);
  }
  return out;
}
