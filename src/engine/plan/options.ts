// Resource options as the state stores them, and what changed between the stored and the declared
// ones. Options are part of what a plan decides: an option or dependency change alone is planned,
// shown and recorded (never silently dropped), although it calls no provider.
import type { ResourceOptions } from '../decl/resource-decl.js';
import type { ResourceState, StoredOptions } from '../../state/model.js';
import { diffValues, type Change } from '../diff/diff.js';

const stored = [
  'protect',
  'retainOnDelete',
  'createBeforeDestroy',
  'ignoreChanges',
  'replaceOnChanges',
  'dependsOn',
  'timeouts',
] as const;

/** The options a resource's record keeps: the declared ones, defaults left out, aliases not kept. */
export function storedOptions(options: ResourceOptions | undefined): StoredOptions {
  const out: Record<string, unknown> = {};
  for (const k of stored) {
    const v = options?.[k];
    if (v === undefined || v === false) continue;
    if (Array.isArray(v) && v.length === 0) continue;
    if (k === 'timeouts' && Object.keys(v as object).length === 0) continue;
    out[k] = Array.isArray(v) ? [...v] : typeof v === 'object' ? { ...(v as object) } : v;
  }
  return out as StoredOptions;
}

/**
 * What differs between the record and the declaration in options and dependencies, as changes at
 * `options.<name>` and `dependencies`. Dependency order does not count; a missing option equals
 * its default.
 */
export function stateChanges(
  prior: Pick<ResourceState, 'options' | 'dependencies'>,
  options: StoredOptions,
  deps: readonly string[],
): Change[] {
  // The common case, nothing set and the same dependencies in the same order, allocates nothing.
  if (isEmpty(prior.options) && isEmpty(options) && sameOrder(prior.dependencies, deps)) return NONE;
  const out: Change[] = [];
  for (const c of diffValues(normalise(prior.options), normalise(options)))
    out.push({ path: ['options', ...c.path], before: c.before, after: c.after });
  const before = [...prior.dependencies].sort();
  const after = [...deps].sort();
  if (before.length !== after.length || before.some((d, i) => d !== after[i]))
    out.push({ path: ['dependencies'], before, after });
  return out;
}

function normalise(o: StoredOptions): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of stored) {
    const v = o[k];
    if (v === undefined || v === false || (Array.isArray(v) && v.length === 0)) continue;
    out[k] = k === 'dependsOn' && Array.isArray(v) ? [...v].sort() : v;
  }
  return out;
}

const NONE: Change[] = [];

function isEmpty(o: object): boolean {
  for (const _ in o) return false;
  return true;
}

function sameOrder(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
