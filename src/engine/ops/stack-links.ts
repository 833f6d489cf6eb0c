// Before a plan validates anything: the references to other stacks' outputs (stackRef) in the
// declarations' inputs and in the plan's `outputs` are read (each store once, no lock) and put in
// place, secret outputs as secret(value). What cannot be resolved is a validation issue, reported
// with the declarations' own. Declarations without a stack reference are passed on as they are.
import type { ResourceDecl } from '../decl/resource-decl.js';
import type { Issue } from '../issue.js';
import {
  hasStackRefs,
  isStackRef,
  stackOutputs,
  storeOf,
  type StackOutputs,
  type StackRef,
} from '../decl/stack-ref.js';
import type { StateStore } from '../../state/store.js';
import { secret } from '../values/secret.js';
import { unknown } from '../values/unknown.js';
import type { PathSegment } from '../values/path.js';
import { outputIssues } from '../plan/outputs.js';

type Linked = {
  /** The declarations with every stack reference resolved. */
  readonly decls: readonly ResourceDecl[];
  /** The plan's outputs, stack references resolved (undefined: none declared). */
  readonly outputs: Readonly<Record<string, unknown>> | undefined;
  /** Missing outputs, outputs that refer to undeclared resources, a malformed `outputs` option. */
  readonly issues: Issue[];
};

export async function linkStacks(
  declared: readonly ResourceDecl[],
  outputs: Readonly<Record<string, unknown>> | undefined,
  destroy: boolean,
): Promise<Linked> {
  const sites: { value: unknown; site: Site; at: number }[] = [];
  declared.forEach((d, i) => {
    if (d && typeof d === 'object' && hasStackRefs(d.inputs))
      sites.push({ value: d.inputs, site: { resource: String(d.name ?? `[${i}]`), field: 'inputs', root: [] }, at: i });
  });
  const wanted = destroy ? undefined : outputs;
  // The declared names, for the outputs' references: read only when the plan declares outputs.
  const issues = wanted === undefined ? [] : outputIssues(wanted, declaredNames(declared));
  const linkOutputs = wanted !== undefined && issues.length === 0 && hasStackRefs(wanted);
  if (linkOutputs) sites.push({ value: wanted, site: { resource: '', field: 'plan', root: ['outputs'] }, at: -1 });
  if (sites.length === 0) return { decls: declared, outputs: wanted, issues };
  const resolved = await resolveStackRefs(sites);
  const decls = [...declared];
  let linked = wanted;
  sites.forEach((s, k) => {
    const value = resolved.values[k];
    if (s.at < 0) linked = value as Record<string, unknown>;
    else decls[s.at] = { ...declared[s.at]!, inputs: value as Record<string, unknown> };
  });
  return { decls, outputs: linked, issues: [...resolved.issues, ...issues] };
}

/** The names the declarations give (those that are strings). */
function declaredNames(declared: readonly ResourceDecl[]): Set<string> {
  const names = new Set<string>();
  for (const d of declared) if (typeof d?.name === 'string') names.add(d.name);
  return names;
}

/**
 * Adds the link issues to the declarations' own, in place. An unresolved stack reference stands as
 * the unknown marker, which validation refuses at the same path: that issue is dropped, so the
 * missing output is reported once, in its own words.
 */
export function mergeLinkIssues(issues: Issue[], links: readonly Issue[]): void {
  const at = new Set(
    links.filter((i) => i.code === 'missing_stack_output').map((i) => `${i.resource}\u0000${i.path.join('\u0000')}`),
  );
  if (at.size) {
    const kept = issues.filter(
      (i) => !(i.code === 'unknown_marker' && at.has(`${i.resource}\u0000${i.path.join('\u0000')}`)),
    );
    issues.splice(0, issues.length, ...kept);
  }
  issues.push(...links);
}

/** Where a stack reference stands: a declaration's input path, or a plan option's. */
type Site = {
  readonly resource: string;
  readonly field: 'inputs' | 'plan';
  readonly root: readonly PathSegment[];
};

/**
 * Replaces every stack reference inside `values` (each with where it stands) by the output it
 * names: secret outputs as secret(value). Reads each store once, all at once; answers the issues
 * (missing outputs, references with no store) instead of throwing, for the caller to report with
 * the rest. Values without a stack reference come back as they are (the same objects).
 */
async function resolveStackRefs<T>(
  values: readonly { readonly value: T; readonly site: Site }[],
): Promise<{ readonly values: T[]; readonly issues: Issue[] }> {
  // Only the values holding one are walked with paths (a 10,000-resource stack holds few).
  const found: { ref: StackRef; at: PathSegment[]; index: number }[] = [];
  values.forEach((v, index) => {
    if (hasStackRefs(v.value)) collect(v.value, [], (ref, at) => found.push({ ref, at, index }));
  });
  if (found.length === 0) return { values: values.map((v) => v.value), issues: [] };
  const byStore = new Map<StateStore, Promise<StackOutputs>>();
  const issues: Issue[] = [];
  for (const f of found) {
    const store = storeOf(f.ref);
    if (store && !byStore.has(store)) byStore.set(store, stackOutputs(store));
  }
  const read = new Map<StateStore, StackOutputs>();
  for (const [store, p] of byStore) read.set(store, await p);
  const replaced = new Map<unknown, unknown>();
  for (const f of found) {
    const site = values[f.index]!.site;
    const issue = (message: string): Issue => ({
      resource: site.resource,
      field: site.field,
      path: [...site.root, ...f.at],
      code: 'missing_stack_output',
      message,
    });
    const store = storeOf(f.ref);
    // Unresolved, it stands as unknown: validation reports the issue above and nothing of its own.
    replaced.set(f.ref, unknown);
    if (!store) {
      issues.push(
        issue(
          `a reference to output '${f.ref.output}' of ${f.ref.stack} needs its store: make it with stackRef(store, name)`,
        ),
      );
      continue;
    }
    const outs = read.get(store)!;
    if (!Object.hasOwn(outs.outputs, f.ref.output)) {
      const has = Object.keys(outs.outputs);
      issues.push(
        issue(
          outs.exists
            ? `the stack at ${outs.stack} has no output '${f.ref.output}' (${has.length ? `it has ${has.map((h) => `'${h}'`).join(', ')}` : 'it has none'}; apply that stack with the output first)`
            : `the stack at ${outs.stack} has no state, so no output '${f.ref.output}' (apply that stack first)`,
        ),
      );
      continue;
    }
    replaced.set(f.ref, outs.outputs[f.ref.output]);
  }
  return { values: values.map((v) => substitute(v.value, replaced) as T), issues };
}

// A value may contain itself (it is not JSON, and validation reports it at its path): collect stops
// where it meets an object it is inside of, and substitute ties such a loop back to the copy it
// makes, so the loop stands where it stood. An object met twice side by side is walked at each
// place, so a reference is found at every path it stands at.

function collect(
  v: unknown,
  at: PathSegment[],
  found: (ref: StackRef, at: PathSegment[]) => void,
  inside = new Set<object>(),
): void {
  if (v === null || typeof v !== 'object' || inside.has(v)) return;
  if (isStackRef(v)) return found(v, [...at]);
  inside.add(v);
  if ((v as { '@converge'?: unknown })['@converge'] === 'secret')
    collect((v as { value: unknown }).value, at, found, inside);
  else if (Array.isArray(v)) v.forEach((x, i) => collect(x, [...at, i], found, inside));
  else for (const k of Object.keys(v)) collect((v as Record<string, unknown>)[k], [...at, k], found, inside);
  inside.delete(v);
}

/**
 * `v` with each reference in `replaced` swapped for its value; copies only along the way to one.
 * `inside` maps each object on the way down to the copy a loop back to it stands for (made when
 * one is met), which becomes that object's copy.
 */
function substitute(
  v: unknown,
  replaced: ReadonlyMap<unknown, unknown>,
  inside = new Map<object, object | undefined>(),
): unknown {
  if (v === null || typeof v !== 'object') return v;
  if (replaced.has(v)) return replaced.get(v);
  if (inside.has(v)) {
    const loop = inside.get(v) ?? (Array.isArray(v) ? [] : {});
    inside.set(v, loop);
    return loop;
  }
  inside.set(v, undefined);
  try {
    if (Array.isArray(v)) {
      const out = v.map((x) => substitute(x, replaced, inside));
      const loop = inside.get(v) as unknown[] | undefined;
      if (loop) {
        loop.length = out.length;
        out.forEach((x, i) => (loop[i] = x));
        return loop;
      }
      return out.some((x, i) => x !== v[i]) ? out : v;
    }
    const o = v as Record<string, unknown>;
    const changed = new Map<string, unknown>();
    for (const k of Object.keys(o)) {
      const after = substitute(o[k], replaced, inside);
      if (after !== o[k]) changed.set(k, after);
    }
    const loop = inside.get(v) as Record<string | symbol, unknown> | undefined;
    if (!loop && changed.size === 0) return v;
    const out = loop ?? {};
    for (const k of Reflect.ownKeys(o))
      if (Object.prototype.propertyIsEnumerable.call(o, k))
        Object.defineProperty(out, k, {
          value: typeof k === 'string' && changed.has(k) ? changed.get(k) : o[k as string],
          enumerable: true,
          writable: true,
          configurable: true,
        });
    // secret() values keep their non-enumerable inspect hook only through secret(): rebuild it
    // (not for a secret that contains itself: its copy is the one the loop points to).
    return o['@converge'] === 'secret' && !loop ? secret(out.value) : out;
  } finally {
    inside.delete(v);
  }
}
