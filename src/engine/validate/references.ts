// What one declaration says about the others, checked across the stack: references name a declared
// resource and one of its outputs or inputs, dependsOn names a declared resource, an alias is no
// other resource's name or alias, and the dependency cycles (each that shares no resource with
// another is named, so fixing one never reveals the next).
import type { ResourceDecl } from '../decl/resource-decl.js';
import { eachRef, type Ref } from '../decl/ref.js';
import type { AnyResource } from '../provider/define.js';
import { parsePath, type PathSegment } from '../values/path.js';
import { findCycle } from '../graph/cycle.js';
import { schemaKeys } from './schema.js';
import { closest, cut, didYouMean, preview } from './suggest.js';
import type { IssueFacts, IssueField } from '../issue.js';

type Add = (r: string, f: IssueField, p: PathSegment[], c: string, m: string, facts?: IssueFacts) => void;

/** Every dependency cycle of `deps` that shares no resource with one named before it (first name repeated at the end). */
export function disjointCycles(deps: ReadonlyMap<string, readonly string[]>): string[][] {
  const cycles: string[][] = [];
  const gone = new Set<string>();
  for (;;) {
    const left = new Map<string, readonly string[]>();
    for (const [n, ds] of deps)
      if (!gone.has(n))
        left.set(
          n,
          ds.filter((d) => !gone.has(d)),
        );
    const cycle = findCycle(left);
    if (!cycle) return cycles;
    cycles.push(cycle);
    cycle.forEach((n) => gone.add(n));
  }
}

/**
 * Checks the references, dependsOn and aliases of `decls`; answers the names each declaration's
 * references name, in order (for the graph).
 */
export function checkReferences(
  decls: readonly ResourceDecl[],
  named: Map<string, { decl: ResourceDecl; def?: AnyResource }>,
  seen: Set<string>,
  add: Add,
): Map<ResourceDecl, string[]> {
  const aliasOwner = new Map<string, string>();
  const refsOf = new Map<ResourceDecl, string[]>();
  for (const d of decls) {
    d.options?.aliases?.forEach((alias, i) => {
      if (alias === d.name) return;
      if (seen.has(alias))
        add(
          d.name,
          'options',
          ['aliases', i],
          'invalid_option',
          `alias '${cut(alias)}' is the name of another declared resource`,
        );
      else if (aliasOwner.has(alias))
        add(
          d.name,
          'options',
          ['aliases', i],
          'invalid_option',
          `alias '${cut(alias)}' is claimed by ${aliasOwner.get(alias)} too`,
        );
      else aliasOwner.set(alias, d.name);
    });
    d.options?.dependsOn?.forEach((n, i) => {
      if (!seen.has(n))
        add(
          d.name,
          'options',
          ['dependsOn', i],
          'missing_reference',
          `dependsOn names ${preview(n)}, which is not declared.${didYouMean(n, seen)}`,
          { suggestion: closest(n, seen) },
        );
    });
    const names: string[] = [];
    eachRef(d.inputs, (ref, at) => {
      names.push(ref.resource);
      checkReference(d.name, ref, at, named, seen, add);
    });
    refsOf.set(d, names);
  }
  return refsOf;
}

/** One reference of declaration `name`, at `at`: to a declared resource other than itself, and one of its outputs or inputs. */
function checkReference(
  name: string,
  ref: Ref,
  at: readonly PathSegment[],
  named: Map<string, { decl: ResourceDecl; def?: AnyResource }>,
  seen: Set<string>,
  add: Add,
): void {
  if (ref.resource === name) {
    add(name, 'inputs', [...at], 'invalid_reference', 'a resource cannot reference itself');
    return;
  }
  if (!seen.has(ref.resource)) {
    add(
      name,
      'inputs',
      [...at],
      'missing_reference',
      `references ${preview(ref.resource)}, which is not declared.${didYouMean(ref.resource, seen)}`,
      { suggestion: closest(ref.resource, seen) },
    );
    return;
  }
  const target = named.get(ref.resource);
  const def = target?.def;
  if (!def) return;
  const head = String(parsePath(ref.path)[0] ?? '');
  const { outs, ins } = referable(def);
  if (head !== 'id' && outs && ins && !outs.has(head) && !ins.has(head)) {
    add(
      name,
      'inputs',
      [...at],
      'missing_output',
      `references '${ref.resource}.${cut(ref.path)}', but ${target!.decl.type} has no output or input '${cut(head)}'.${didYouMean(head, [...outs, ...ins])}`,
      { suggestion: closest(head, [...outs, ...ins]) },
    );
  }
}

const referableCache = new WeakMap<AnyResource, { outs?: ReadonlySet<string>; ins?: ReadonlySet<string> }>();
/** A type's output and input keys, computed once per definition. */
function referable(def: AnyResource): { outs?: ReadonlySet<string>; ins?: ReadonlySet<string> } {
  let r = referableCache.get(def);
  if (!r) referableCache.set(def, (r = { outs: schemaKeys(def.outputs), ins: schemaKeys(def.inputs) }));
  return r;
}
