// Pure structural diff: prior inputs + desired inputs → the leaf paths that change. Objects are
// compared key by key, lists element by element (or, for a resource's keyed lists, element by key:
// 'devices' → 'name' makes a device added in the middle one added element `devices.eth1`, not a
// shift of every later position); undefined and absent are the same; an unknown desired value is
// always a change (it may differ once known).
import equal from 'fast-deep-equal';
import { isUnknown } from '../values/unknown.js';
import { parsePath, pathCovers, type PathSegment } from '../values/path.js';

export type Change = { readonly path: readonly PathSegment[]; readonly before: unknown; readonly after: unknown };

const hasOwn = (o: object, k: string): boolean => Object.prototype.hasOwnProperty.call(o, k);

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !isUnknown(v);
}

/**
 * Lists whose elements have an identity of their own: input path (with '*' wildcards) → the element
 * field that keys it. Such a list is diffed by key, and a change below an element is at
 * `<list>.<key value>.…` (a string segment under a list).
 */
export type KeyedLists = Readonly<Record<string, string>>;

export function diffValues(before: unknown, after: unknown, keyed?: KeyedLists): Change[] {
  const out: Change[] = [];
  const patterns = keyed ? Object.entries(keyed).map(([p, field]) => ({ path: parsePath(p), field })) : [];
  walk(before, after, [], out, patterns);
  return out;
}

/** The diff of a resource's inputs: keyed by its definition's `keyedLists`, if any. */
export function diffInputs(def: { readonly keyedLists?: KeyedLists }, before: unknown, after: unknown): Change[] {
  return diffValues(before, after, def.keyedLists);
}

type KeyedPattern = { readonly path: readonly PathSegment[]; readonly field: string };

function keyFieldAt(at: readonly PathSegment[], patterns: readonly KeyedPattern[]): string | undefined {
  for (const p of patterns) if (p.path.length === at.length && pathCovers(p.path, at)) return p.field;
  return undefined;
}

/** Elements by key, in order; undefined when an element has no usable key or two share one. */
function byKey(list: readonly unknown[], field: string): Map<string, unknown> | undefined {
  const out = new Map<string, unknown>();
  for (const el of list) {
    const k = isPlainObject(el) ? el[field] : undefined;
    if ((typeof k !== 'string' && typeof k !== 'number') || out.has(String(k))) return undefined;
    out.set(String(k), el);
  }
  return out;
}

// One path array, pushed and popped; a change copies it.
function walk(before: unknown, after: unknown, at: PathSegment[], out: Change[], keyed: readonly KeyedPattern[]): void {
  if (isUnknown(after)) {
    out.push({ path: at.slice(), before, after });
    return;
  }
  if (before === after) return;
  if (isPlainObject(before) && isPlainObject(after)) {
    // Own keys only: a key named like Object.prototype's members ('constructor', '__proto__') is data.
    for (const k in before) {
      if (!hasOwn(before, k)) continue;
      const b = before[k];
      const a = hasOwn(after, k) ? after[k] : undefined;
      // The same value (absent on both sides included) holds no change: the path grows only for what is walked.
      if (b === a && !isUnknown(a)) continue;
      at.push(k);
      walk(b, a, at, out, keyed);
      at.pop();
    }
    for (const k in after) {
      if (!hasOwn(after, k) || hasOwn(before, k)) continue;
      const a = after[k];
      if (a === undefined) continue;
      at.push(k);
      walk(undefined, a, at, out, keyed);
      at.pop();
    }
    return;
  }
  if (Array.isArray(before) && Array.isArray(after)) {
    const field = keyed.length ? keyFieldAt(at, keyed) : undefined;
    const b = field ? byKey(before, field) : undefined;
    const a = field ? byKey(after, field) : undefined;
    if (b && a) {
      for (const [k, x] of b) {
        at.push(k);
        walk(x, a.get(k), at, out, keyed);
        at.pop();
      }
      for (const [k, y] of a)
        if (!b.has(k)) {
          at.push(k);
          walk(undefined, y, at, out, keyed);
          at.pop();
        }
      return;
    }
    const n = Math.max(before.length, after.length);
    for (let i = 0; i < n; i++) {
      if (before[i] === after[i] && !isUnknown(after[i])) continue;
      at.push(i);
      walk(before[i], after[i], at, out, keyed);
      at.pop();
    }
    return;
  }
  if (typeof before !== 'object' || typeof after !== 'object' || before === null || after === null) {
    out.push({ path: at.slice(), before, after });
    return;
  }
  if (!equal(before, after)) out.push({ path: at.slice(), before, after });
}
