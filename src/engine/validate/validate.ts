// Structural validation of a stack, before any value is resolved: shapes, names, types, options,
// references and cycles. Every problem is collected; plan() throws them together.
import type { ResourceDecl } from '../decl/resource-decl.js';
import { collectRefs } from '../decl/ref.js';
import type { AnyResource } from '../provider/define.js';
import { parsePath } from '../values/path.js';
import { findCycle } from '../graph/cycle.js';
import { buildGraph, type Graph } from '../graph/graph.js';
import { schemaKeys } from './schema.js';
import { parseDuration } from '../apply/timeout.js';
import type { Issue } from './issue.js';

export type ResourceResolver = (token: string) => { readonly def: AnyResource } | undefined;

const OPTION_KEYS = new Set(['dependsOn', 'protect', 'ignoreChanges', 'replaceOnChanges', 'createBeforeDestroy', 'retainOnDelete', 'aliases', 'timeouts']);

export type StackCheck = { readonly issues: Issue[]; readonly graph: Graph };

export function validateStack(decls: readonly unknown[], resolve: ResourceResolver): StackCheck {
  const issues: Issue[] = [];
  const add = (resource: string, path: (string | number)[], code: string, message: string) => issues.push({ resource, path, code, message });
  if (!Array.isArray(decls)) {
    add('', [], 'invalid_type', 'expected an array of resource declarations');
    return { issues, graph: buildGraph([]) };
  }
  const valid: ResourceDecl[] = [];
  const seen = new Set<string>();
  decls.forEach((raw, i) => {
    const d = raw as Partial<ResourceDecl> | null;
    const label = typeof d?.name === 'string' && d.name ? d.name : `[${i}]`;
    if (!d || typeof d !== 'object') return add(label, [], 'invalid_type', 'expected a resource declaration object');
    let ok = true;
    if (typeof d.name !== 'string' || !d.name) { add(label, ['name'], 'invalid_type', 'name must be a non-empty string'); ok = false; }
    if (typeof d.type !== 'string' || !d.type) { add(label, ['type'], 'invalid_type', 'type must be an operation token string'); ok = false; }
    else if (!resolve(d.type)) { add(label, ['type'], 'unknown_type', `no provider of this engine has the resource type '${d.type}'`); ok = false; }
    if (!d.inputs || typeof d.inputs !== 'object' || Array.isArray(d.inputs)) { add(label, ['inputs'], 'invalid_type', 'inputs must be an object'); ok = false; }
    if (typeof d.name === 'string' && d.name) {
      if (seen.has(d.name)) { add(d.name, [], 'duplicate_name', `the name '${d.name}' is declared more than once`); ok = false; }
      seen.add(d.name);
    }
    ok = validateOptions(label, d.options, add) && ok;
    if (ok) valid.push(d as ResourceDecl);
  });

  const byName = new Map(valid.map((d) => [d.name, d]));
  for (const d of valid) {
    for (const alias of d.options?.aliases ?? []) {
      if (byName.has(alias) && alias !== d.name) add(d.name, ['options', 'aliases'], 'invalid_option', `alias '${alias}' is the name of another declared resource`);
    }
    for (const n of d.options?.dependsOn ?? []) {
      if (!seen.has(n)) add(d.name, ['options', 'dependsOn'], 'missing_reference', `dependsOn names '${n}', which is not declared`);
    }
    for (const { ref, at } of collectRefs(d.inputs)) {
      if (ref.resource === d.name) { add(d.name, at, 'invalid_reference', 'a resource cannot reference itself'); continue; }
      const target = byName.get(ref.resource);
      if (!target) {
        if (!seen.has(ref.resource)) add(d.name, at, 'missing_reference', `references '${ref.resource}', which is not declared`);
        continue;
      }
      const def = resolve(target.type)?.def;
      if (!def) continue;
      const head = String(parsePath(ref.path)[0] ?? '');
      const outs = schemaKeys(def.outputs);
      const ins = schemaKeys(def.inputs);
      if (head !== 'id' && outs && ins && !outs.has(head) && !ins.has(head)) {
        add(d.name, at, 'missing_output', `references '${ref.resource}.${ref.path}', but ${target.type} has no output or input '${head}'`);
      }
    }
  }
  const graph = buildGraph(valid);
  const cycle = findCycle(graph.deps);
  if (cycle) add(cycle[0]!, [], 'dependency_cycle', `dependency cycle: ${cycle.join(' -> ')}`);
  return { issues, graph };
}

function validateOptions(label: string, options: unknown, add: (r: string, p: (string | number)[], c: string, m: string) => void): boolean {
  if (options === undefined) return true;
  if (!options || typeof options !== 'object' || Array.isArray(options)) { add(label, ['options'], 'invalid_option', 'options must be an object'); return false; }
  let ok = true;
  const o = options as Record<string, unknown>;
  for (const k of Object.keys(o)) if (!OPTION_KEYS.has(k)) { add(label, ['options', k], 'invalid_option', `unknown option '${k}'; allowed: ${[...OPTION_KEYS].join(', ')}`); ok = false; }
  for (const k of ['protect', 'createBeforeDestroy', 'retainOnDelete']) {
    if (o[k] !== undefined && typeof o[k] !== 'boolean') { add(label, ['options', k], 'invalid_option', `${k} must be a boolean`); ok = false; }
  }
  for (const k of ['dependsOn', 'ignoreChanges', 'replaceOnChanges', 'aliases']) {
    const v = o[k];
    if (v !== undefined && (!Array.isArray(v) || v.some((x) => typeof x !== 'string' || !x))) { add(label, ['options', k], 'invalid_option', `${k} must be a list of non-empty strings`); ok = false; }
  }
  if (o.timeouts !== undefined) {
    if (!o.timeouts || typeof o.timeouts !== 'object') { add(label, ['options', 'timeouts'], 'invalid_option', 'timeouts must be an object'); return false; }
    for (const [k, v] of Object.entries(o.timeouts as Record<string, unknown>)) {
      if (!['create', 'update', 'delete'].includes(k)) { add(label, ['options', 'timeouts', k], 'invalid_option', `unknown timeout '${k}'; allowed: create, update, delete`); ok = false; }
      else if (typeof v !== 'string' || parseDuration(v) === undefined) { add(label, ['options', 'timeouts', k], 'invalid_option', `'${String(v)}' is not a duration like '30s', '5m' or '1h'`); ok = false; }
    }
  }
  return ok;
}
