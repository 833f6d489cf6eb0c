// Targets, excludes and requested replacements as names: each must name something in the stack or
// the state (a typo is a ValidationError with the closest name as a suggestion, never a plan that
// silently does nothing), and an exclude list becomes the target list that keeps everything else
// (OpenTofu's -exclude: the excluded resources and what depends on them are left out; in a
// destroy, the excluded resources and what they depend on are kept).
import type { ResourceDecl } from '../decl/resource-decl.js';
import type { State } from '../../state/model.js';
import type { Graph } from '../graph/graph.js';
import type { Issue } from '../issue.js';
import { closest } from '../validate/suggest.js';

// One "did you mean" for the whole engine (validate/suggest.ts); state-ops.ts still imports it from here.
export { closest };

export const TARGETING_WARNING =
  'targeting is in effect: this plan may be incomplete. Plan without targets or excludes afterwards to see the whole stack.';

/** Issues for names that name nothing; `known` are the names they may use. */
export function unknownNames(
  option: 'targets' | 'exclude' | 'replace',
  names: readonly unknown[] | undefined,
  known: ReadonlySet<string>,
  what: string,
): Issue[] {
  const issues: Issue[] = [];
  (names ?? []).forEach((n, i) => {
    if (typeof n !== 'string' || !n) {
      issues.push({
        resource: '',
        path: [option, i],
        code: 'invalid_type',
        message: `${option} must be resource names`,
      });
      return;
    }
    if (known.has(n)) return;
    const near = closest(n, known);
    issues.push({
      resource: n,
      path: [option, i],
      code: 'unknown_name',
      message: `'${n}' names nothing ${what}${near ? `; did you mean '${near}'?` : ''}`,
      ...(near ? { suggestion: near } : {}),
    });
  });
  return issues;
}

/**
 * The targets that keep everything but the excluded names: in a plan, the excluded resources and
 * every resource that depends on them (declared or recorded) are left out; in a destroy, the
 * excluded resources and everything they depend on are kept (they would break).
 */
export function targetsExcluding(
  exclude: readonly string[],
  within: readonly string[] | undefined,
  decls: readonly ResourceDecl[],
  state: State,
  graph: Graph,
  destroy: boolean,
): string[] {
  const deps = new Map<string, Set<string>>();
  const add = (from: string, to: string) => {
    let s = deps.get(from);
    if (!s) deps.set(from, (s = new Set()));
    s.add(to);
  };
  for (const [n, ds] of graph.deps) for (const d of ds) add(n, d);
  for (const [n, r] of Object.entries(state.resources)) for (const d of r.dependencies) add(n, d);
  const dependents = new Map<string, Set<string>>();
  for (const [n, ds] of deps)
    for (const d of ds) {
      let s = dependents.get(d);
      if (!s) dependents.set(d, (s = new Set()));
      s.add(n);
    }
  const walk = destroy ? deps : dependents;
  const out = new Set<string>();
  const stack = [...exclude];
  while (stack.length) {
    const n = stack.pop()!;
    if (out.has(n)) continue;
    out.add(n);
    stack.push(...(walk.get(n) ?? []));
  }
  const all = within?.length ? within : [...new Set([...decls.map((d) => d.name), ...Object.keys(state.resources)])];
  return all.filter((n) => !out.has(n));
}
