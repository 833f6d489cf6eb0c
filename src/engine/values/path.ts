// Input and output paths: 'interfaces.eth0.ipv4Address', 'rules[0].cidrs', 'pools.*.size'.
// A path is parsed once into segments; '*' matches any one key or index.

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

/** Returns a copy of `value` with `fn` applied to every leaf matched by `pattern` (wildcards allowed). */
export function mapPath(value: unknown, pattern: readonly PathSegment[], fn: (v: unknown) => unknown): unknown {
  if (pattern.length === 0) return fn(value);
  if (value === null || typeof value !== 'object') return value;
  const [head, ...rest] = pattern;
  if (Array.isArray(value)) {
    return value.map((v, i) => (head === '*' || String(head) === String(i) ? mapPath(v, rest, fn) : v));
  }
  const out: Record<string, unknown> = { ...(value as Record<string, unknown>) };
  for (const k of Object.keys(out)) {
    if (head === '*' || String(head) === k) out[k] = mapPath(out[k], rest, fn);
  }
  return out;
}
