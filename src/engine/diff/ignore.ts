// ignoreChanges: the desired value at an ignored path is the prior value, so no change is planned
// there and apply sends what the object already has (Terraform's ignore_changes).
import { getPath, parsePath, type PathSegment } from '../values/path.js';

export function applyIgnoreChanges(
  desired: Record<string, unknown>,
  prior: Record<string, unknown> | undefined,
  paths: readonly string[] | undefined,
): Record<string, unknown> {
  if (!prior || !paths?.length) return desired;
  let out: unknown = desired;
  for (const p of paths) {
    const segs = parsePath(p);
    out = copyFrom(out, prior, segs, []);
  }
  return out as Record<string, unknown>;
}

function copyFrom(value: unknown, prior: unknown, pattern: readonly PathSegment[], at: PathSegment[]): unknown {
  if (pattern.length === 0) return getPath(prior, at);
  // Neither side has anything here: nothing to copy, and no empty object is made on the way down.
  if (!isObject(value) && !isObject(getPath(prior, at))) return value;
  const [head, ...rest] = pattern;
  const keys =
    head === '*'
      ? new Set([...Object.keys((value as object) ?? {}), ...Object.keys((getPath(prior, at) as object) ?? {})])
      : new Set([String(head)]);
  if (Array.isArray(value)) {
    const copy = [...value];
    for (const k of keys) copy[Number(k)] = copyFrom(copy[Number(k)], prior, rest, [...at, Number(k)]);
    // Elements the prior list does not have are dropped, as absent keys are: no undefined (null on the wire) at the end.
    while (copy.length && copy[copy.length - 1] === undefined) copy.pop();
    return copy;
  }
  const obj: Record<string, unknown> = { ...((value as Record<string, unknown>) ?? {}) };
  for (const k of keys) {
    const v = copyFrom(obj[k], prior, rest, [...at, k]);
    // defineProperty, not assignment: a key '__proto__' is data and must not set the prototype.
    if (v === undefined) delete obj[k];
    else Object.defineProperty(obj, k, { value: v, writable: true, enumerable: true, configurable: true });
  }
  return obj;
}

function isObject(v: unknown): v is object {
  return typeof v === 'object' && v !== null;
}
