// Orphans: recorded objects no declaration claims (removed from the stack, or everything in a
// destroy), and deposed objects left by create-first replacements. Each becomes a delete step, or
// a forget step when its recorded options say retainOnDelete or refresh found it already gone.
// Only recorded objects are ever planned for deletion: converge deletes nothing it did not create
// or adopt on purpose.
import type { DeposedObject, ResourceState, State } from '../../state/model.js';
import type { Issue } from '../issue.js';
import type { Step } from './step.js';
import type { Draft } from './execution.js';
import type { Resolved } from './work.js';
import { redactPaths } from '../values/redact.js';
import { strip } from './secrets.js';
import { missingInstanceIssue } from './instances.js';
import { isLookupResource } from '../provider/lookup-resource.js';

type OrphanInput = {
  readonly state: State;
  /** State names some declaration claims (its own name or an alias). */
  readonly claimed: ReadonlySet<string>;
  readonly refreshed: ReadonlyMap<string, ResourceState | null>;
  readonly resolve: (token: string, instance?: string) => Resolved | undefined;
  /** Base order for the drafts made here. */
  readonly base: number;
};

type OrphanOutput = {
  readonly drafts: Draft[];
  readonly issues: Issue[];
  readonly protectedHits: { address: string; action: 'delete' | 'replace' }[];
};

export function planOrphans(input: OrphanInput): OrphanOutput {
  const { state, resolve } = input;
  const drafts: Draft[] = [];
  const issues: Issue[] = [];
  const protectedHits: OrphanOutput['protectedHits'] = [];
  let base = input.base;
  const handler = (r: ResourceState, name: string): Resolved | undefined => {
    const resolved = resolve(r.type, r.instance);
    // A record that names its instance (or its settings): the plan names the instance it needs.
    if (!resolved && (r.instance !== undefined || r.instanceSettings)) issues.push(missingInstanceIssue(name, r));
    else if (!resolved)
      issues.push({
        resource: name,
        path: ['type'],
        code: 'unknown_type',
        message: `the state holds a ${r.type}, but no provider of this engine has that type; add its provider to delete it`,
      });
    return resolved;
  };
  for (const name of Object.keys(state.resources)) {
    if (input.claimed.has(name)) continue;
    const r = state.resources[name]!;
    const resolved = handler(r, name);
    if (!resolved) continue;
    const retain = r.options.retainOnDelete ?? false;
    const gone = input.refreshed.get(name) === null;
    if (r.options.protect && !retain && !gone) protectedHits.push({ address: name, action: 'delete' });
    // A declared lookup made nothing: no longer declared, its recorded answer is dropped.
    const lookup = isLookupResource(resolved.def);
    const action = retain || gone || lookup ? 'forget' : 'delete';
    drafts.push({
      kind: action,
      base: base++,
      step: {
        ...orphanStep(r, name, action, gone ? 'gone' : retain ? 'retained' : 'removed'),
        ...(lookup ? { lookup: {} } : {}),
      },
      def: resolved.def,
      provider: resolved.provider,
      prior: input.refreshed.get(name) ?? r,
      priorName: name,
      secrets: r.secrets,
      deps: [],
    });
  }
  for (const key of Object.keys(state.deposed)) {
    const d: DeposedObject = state.deposed[key]!;
    const resolved = handler(d, d.name);
    if (!resolved) continue;
    drafts.push({
      kind: 'delete-deposed',
      base: base++,
      step: { ...orphanStep(d, d.name, 'delete', 'deposed'), deposedKey: key },
      def: resolved.def,
      provider: resolved.provider,
      deposed: d,
      secrets: d.secrets,
      deps: [],
    });
  }
  return { drafts, issues, protectedHits };
}

function orphanStep(r: ResourceState, address: string, action: 'delete' | 'forget', cause: Step['cause']): Step {
  return {
    address,
    type: r.type,
    provider: r.provider,
    ...(r.instance !== undefined ? { instance: r.instance } : {}),
    action,
    reasons: [],
    cause,
    changes: [],
    before: redactPaths(r.inputs, strip('inputs.', r.secrets)) as Record<string, unknown>,
    after: undefined,
    dependsOn: [],
    id: r.id,
  };
}
