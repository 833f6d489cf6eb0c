// The one way a reference becomes a value, used by plan, apply and import. `resolveInputs` walks a
// declaration's inputs, asks `lookup` for each reference, unwraps secret() values and notes the
// paths where a secret lands (a secret(), or a reference to a secret path); `valueOfRecord` is what a reference
// means against a recorded object, so plan (against the prior object) and apply (against the object
// just made) give the same value for the same record. `resolveDeclared` is that walk against a
// `RecordSource`, the one thing its three callers differ in: the planner's planned values, apply's
// ledger (a missing record fails the step), import's state (a missing record is unknown).
import { isRef, type Ref } from './ref.js';
import type { ResourceState } from '../../state/model.js';
import { formatPathExact, getPath, parsePath, type PathSegment } from '../values/path.js';
import { isSecret } from '../values/secret.js';
import { unknown } from '../values/unknown.js';

/** What references are resolved against: the records (recorded or planned) they name. */
export type RecordSource = {
  /** What `ref` reads: its record's value, unknown, or a throw where a missing record is an error. */
  readonly valueOf: (ref: Ref) => unknown;
  /** The secret paths ('inputs.x', 'outputs.y') of the record named `name`; none when there is no record. */
  readonly secretsOf: (name: string) => readonly string[];
};

/** A declaration's inputs resolved against a source. */
type ResolvedDeclaration = {
  /** The inputs, each reference replaced by what it reads and secret() values unwrapped. */
  readonly value: Record<string, unknown>;
  /** The secret paths given, then each input path ('inputs.x') a secret() or a secret reference lands on. */
  readonly secrets: readonly string[];
  /** Whether no reference read a known value (true when there is none). */
  readonly allUnknown: boolean;
};

type ResolvedInputs = {
  readonly value: unknown;
  /** Paths (relative to `value`, e.g. 'records[0].value') that hold a secret: a secret() or a reference `isSecretRef` calls secret. */
  readonly secrets: readonly string[];
  /** True when every reference resolved to the unknown marker (or there was none). */
  readonly allUnknown: boolean;
};

/**
 * Resolves references and unwraps secret() values in one walk, noting where each secret lands: a
 * `secret(v)` marks its own path; a reference marks the path it stands at when `isSecretRef` says
 * the referenced value is secret (so a secret follows references, as in Pulumi).
 */
export function resolveInputs(
  value: unknown,
  lookup: (ref: Ref) => unknown,
  isSecretRef: (ref: Ref) => boolean = neverSecret,
): ResolvedInputs {
  const walk: Walk = { lookup, isSecretRef, secrets: [], at: [], allUnknown: true };
  const resolved = resolveValue(walk, value, false);
  return { value: resolved, secrets: walk.secrets, allUnknown: walk.allUnknown };
}

const neverSecret = (): boolean => false;

/** One resolveInputs walk: what it asks, and what it has found so far (one path array, pushed and popped). */
type Walk = {
  readonly lookup: (ref: Ref) => unknown;
  readonly isSecretRef: (ref: Ref) => boolean;
  readonly secrets: string[];
  readonly at: PathSegment[];
  allUnknown: boolean;
};

// A function of its own, not a closure made per call: planning and apply resolve every declaration.
function resolveValue(walk: Walk, v: unknown, inSecret: boolean): unknown {
  if (v === null || typeof v !== 'object') return v;
  const { at, lookup, isSecretRef } = walk;
  if (isSecret(v)) {
    if (!inSecret) walk.secrets.push(formatPathExact(at));
    return resolveValue(walk, v.value, true);
  }
  if (isRef(v)) {
    if (!inSecret && isSecretRef(v)) walk.secrets.push(formatPathExact(at));
    const value = lookup(v);
    if (value !== unknown) walk.allUnknown = false;
    return value;
  }
  if (Array.isArray(v)) {
    let out: unknown[] | undefined;
    for (let i = 0; i < v.length; i++) {
      at.push(i);
      const r = resolveValue(walk, v[i], inSecret);
      at.pop();
      if (r !== v[i]) (out ??= v.slice())[i] = r;
    }
    return out ?? v;
  }
  let out: Record<string, unknown> | undefined;
  for (const k of Object.keys(v)) {
    const before = (v as Record<string, unknown>)[k];
    at.push(k);
    const r = resolveValue(walk, before, inSecret);
    at.pop();
    if (r !== before) {
      out ??= { ...(v as Record<string, unknown>) };
      // The copy holds k as its own data property: assigning sets it, but an own '__proto__' is
      // defined, so that no assignment can reach the prototype (and defining costs more).
      if (k === '__proto__')
        Object.defineProperty(out, k, { value: r, writable: true, enumerable: true, configurable: true });
      else out[k] = r;
    }
  }
  return out ?? v;
}

/** `resolveInputs` against a source: its values, and its records' secret paths for what references read. */
export function resolveFrom(value: unknown, source: RecordSource): ResolvedInputs {
  return resolveInputs(value, source.valueOf, (ref) => refReadsSecret(source.secretsOf(ref.resource), ref.path));
}

/**
 * A declaration's inputs against `source`, the one resolution plan, apply and import share; each
 * parses the value against the schema its own way (with unknowns at plan and import, whole at apply).
 * `secrets` are the paths already secret (the definition's, or the plan's for the step).
 */
export function resolveDeclared(
  inputs: unknown,
  source: RecordSource,
  secrets: readonly string[] = [],
): ResolvedDeclaration {
  const resolved = resolveFrom(inputs, source);
  return {
    value: resolved.value as Record<string, unknown>,
    secrets: withPropagated(secrets, resolved.secrets),
    allUnknown: resolved.allUnknown,
  };
}

/**
 * A source over recorded objects (`get`): a reference reads `valueOfRecord`; `missing` says what a
 * reference to a name with no record reads (or throws).
 */
export function recordSource(
  get: (name: string) => Pick<ResourceState, 'id' | 'inputs' | 'outputs' | 'secrets'> | undefined,
  missing: (ref: Ref) => unknown,
): RecordSource {
  // Methods rather than arrow properties: a build that keeps function names (keepNames) names each
  // arrow property with a defineProperty call, here once per step of an apply.
  return {
    valueOf(ref) {
      const r = get(ref.resource);
      return r ? valueOfRecord(r, parsePath(ref.path)) : missing(ref);
    },
    secretsOf(name) {
      return get(name)?.secrets ?? [];
    },
  };
}

/** The secret paths `own` and the input paths a secret() or a secret reference lands on ('x' becomes 'inputs.x'). */
function withPropagated(own: readonly string[], landed: readonly string[]): readonly string[] {
  // Nothing landed (most declarations): the paths given, not a copy (every caller copies or only reads).
  if (!landed.length) return own;
  const out = [...own];
  for (const p of landed) if (p && !out.includes(`inputs.${p}`)) out.push(`inputs.${p}`);
  return out;
}

/**
 * Whether a reference to `path` of a record whose secret paths are `secretPaths` ('inputs.x',
 * 'outputs.y') reads a secret: the path is under a secret path, or holds one below it.
 */
function refReadsSecret(secretPaths: readonly string[], path: string): boolean {
  if (!secretPaths.length) return false;
  const segs = parsePath(path);
  for (const p of secretPaths) {
    const [root, ...rest] = parsePath(p);
    if (root !== 'inputs' && root !== 'outputs') continue;
    if (rest.length === 0) return true;
    const n = Math.min(rest.length, segs.length);
    let same = true;
    for (let i = 0; i < n && same; i++) same = rest[i] === '*' || String(rest[i]) === String(segs[i]);
    if (same) return true;
  }
  return false;
}

/**
 * What `ref(name, path)` means against a recorded object: the output at `path`, else the input.
 * `id` is the output named id when the object has one (Gcore's numeric ids), else the state's id:
 * the same rule at plan and at apply, so a value never changes type between the two.
 */
export function valueOfRecord(
  record: Pick<ResourceState, 'id' | 'inputs' | 'outputs'>,
  path: readonly PathSegment[],
): unknown {
  if (path.length === 1 && path[0] === 'id') return record.outputs.id !== undefined ? record.outputs.id : record.id;
  const out = getPath(record.outputs, path);
  return out !== undefined ? out : getPath(record.inputs, path);
}
