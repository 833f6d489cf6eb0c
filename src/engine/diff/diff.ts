// Pure structural diff: prior inputs + desired inputs → the leaf paths that change. Objects are
// compared key by key, lists element by element; undefined and absent are the same; an unknown
// desired value is always a change (it may differ once known).
import equal from 'fast-deep-equal';
import { isUnknown } from '../values/unknown.js';
import type { PathSegment } from '../values/path.js';

export type Change = { readonly path: readonly PathSegment[]; readonly before: unknown; readonly after: unknown };

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !isUnknown(v);
}

export function diffValues(before: unknown, after: unknown, at: PathSegment[] = [], out: Change[] = []): Change[] {
  if (isUnknown(after)) { out.push({ path: at, before, after }); return out; }
  if (before === after) return out;
  if (isPlainObject(before) && isPlainObject(after)) {
    const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
    for (const k of keys) {
      const b = before[k];
      const a = after[k];
      if (b === undefined && a === undefined) continue;
      diffValues(b, a, [...at, k], out);
    }
    return out;
  }
  if (Array.isArray(before) && Array.isArray(after)) {
    const n = Math.max(before.length, after.length);
    for (let i = 0; i < n; i++) diffValues(before[i], after[i], [...at, i], out);
    return out;
  }
  if (!equal(before, after)) out.push({ path: at, before, after });
  return out;
}
