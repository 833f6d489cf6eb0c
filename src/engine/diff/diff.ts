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

export function diffValues(before: unknown, after: unknown): Change[] {
  const out: Change[] = [];
  walk(before, after, [], out);
  return out;
}

// One path array, pushed and popped; a change copies it.
function walk(before: unknown, after: unknown, at: PathSegment[], out: Change[]): void {
  if (isUnknown(after)) { out.push({ path: at.slice(), before, after }); return; }
  if (before === after) return;
  if (isPlainObject(before) && isPlainObject(after)) {
    for (const k in before) {
      const b = before[k];
      const a = after[k];
      if (b === undefined && a === undefined) continue;
      at.push(k); walk(b, a, at, out); at.pop();
    }
    for (const k in after) {
      if (k in before) continue;
      const a = after[k];
      if (a === undefined) continue;
      at.push(k); walk(undefined, a, at, out); at.pop();
    }
    return;
  }
  if (Array.isArray(before) && Array.isArray(after)) {
    const n = Math.max(before.length, after.length);
    for (let i = 0; i < n; i++) { at.push(i); walk(before[i], after[i], at, out); at.pop(); }
    return;
  }
  if (typeof before !== 'object' || typeof after !== 'object' || before === null || after === null) {
    out.push({ path: at.slice(), before, after });
    return;
  }
  if (!equal(before, after)) out.push({ path: at.slice(), before, after });
}
