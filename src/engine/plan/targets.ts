// Targets, excludes and requested replacements as names: each must name something in the stack or
// the state (a typo is a ValidationError with the closest name as a suggestion, never a plan that
// silently does nothing), and an exclude list becomes the target list that keeps everything else
// (OpenTofu's -exclude: the excluded resources and what depends on them are left out; in a
// destroy, the excluded resources and what they depend on are kept).
import type { ResourceDecl } from '../decl/resource-decl.js';
import type { State } from '../../state/model.js';
import type { Graph } from '../graph/graph.js';
import type { Issue } from '../validate/issue.js';

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

/** The known name nearest to `name` (edit distance at most a third of its length, at least 2), if any. */
export function closest(name: string, known: Iterable<string>): string | undefined {
  let best: string | undefined;
  let bestD = Math.max(2, Math.floor(name.length / 3)) + 1;
  for (const k of known) {
    const d = distance(name.toLowerCase(), k.toLowerCase());
    if (d < bestD) {
      bestD = d;
      best = k;
    }
  }
  return best;
}

function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const cur = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = cur;
    }
  }
  return row[b.length]!;
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
