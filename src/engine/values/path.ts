// Input and output paths: 'interfaces.eth0.ipv4Address', 'rules[0].cidrs', 'pools.*.size'.
// A path is parsed once into segments; '*' matches any one key or index.

import { isPlainObject } from './plain.js';
import { parsePath, type PathSegment } from '../../state/path.js';

export { parsePath, type PathSegment };

export function formatPath(path: readonly PathSegment[]): string {
  let s = '';
  for (const p of path) s += typeof p === 'number' ? `[${p}]` : s ? `.${p}` : p;
  return s;
}

/** Like formatPath, but a key holding '.', '[', ']' or '"' is quoted (["user.token"]), so parsePath gives the same segments back. */
export function formatPathExact(path: readonly PathSegment[]): string {
  let s = '';
  for (const p of path) {
    if (typeof p === 'number') s += `[${p}]`;
    else if (p === '' || /[.[\]"]/.test(p)) s += `[${JSON.stringify(p)}]`;
    else s += s ? `.${p}` : p;
  }
  return s;
}

/** Reads a value at a path; undefined when any step is missing. */
export function getPath(value: unknown, path: readonly PathSegment[]): unknown {
  let cur: unknown = value;
  for (const seg of path) {
    if (cur === null || typeof cur !== 'object' || !Object.prototype.hasOwnProperty.call(cur, seg)) return undefined;
    cur = (cur as Record<string | number, unknown>)[seg];
  }
  return cur;
}

/** True when `pattern` (with '*' wildcards) equals `path` or is a prefix of it. */
export function pathCovers(pattern: readonly PathSegment[], path: readonly PathSegment[]): boolean {
  if (pattern.length > path.length) return false;
  for (let i = 0; i < pattern.length; i++) {
    const p = pattern[i];
    if (p === '*') continue;
    if (String(p) !== String(path[i])) return false;
  }
  return true;
}

/**
 * Returns a copy of `value` with `fn` applied to every leaf matched by `pattern` (wildcards allowed).
 * A plain object the pattern names no key of is handed back as it is: a secret path the value does
 * not hold (a resource's secret output, asked of its inputs) costs no copy.
 */
export function mapPath(value: unknown, pattern: readonly PathSegment[], fn: (v: unknown) => unknown): unknown {
  return mapPathFrom(value, pattern, 0, fn);
}

/** mapPath for the pattern's segments from `at` on (one pattern array, no copy of its rest at each level). */
function mapPathFrom(
  value: unknown,
  pattern: readonly PathSegment[],
  at: number,
  fn: (v: unknown) => unknown,
): unknown {
  if (at === pattern.length) return fn(value);
  if (value === null || typeof value !== 'object') return value;
  const head = pattern[at]!;
  if (head !== '*' && isPlainObject(value) && !isOwnKey(value, String(head))) return value;
  if (Array.isArray(value)) {
    return value.map((v, i) => (head === '*' || String(head) === String(i) ? mapPathFrom(v, pattern, at + 1, fn) : v));
  }
  const out: Record<string, unknown> = { ...(value as Record<string, unknown>) };
  for (const k of Object.keys(out)) {
    if (head === '*' || String(head) === k) out[k] = mapPathFrom(out[k], pattern, at + 1, fn);
  }
  return out;
}

/** Whether `key` is among the keys `{ ...value }` copies and Object.keys lists (own, enumerable). */
function isOwnKey(value: object, key: string): boolean {
  // hasOwnProperty first: the common answer (no such key) without the slower enumerability check.
  return Object.prototype.hasOwnProperty.call(value, key) && Object.prototype.propertyIsEnumerable.call(value, key);
}
