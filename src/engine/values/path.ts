// Input and output paths: 'interfaces.eth0.ipv4Address', 'rules[0].cidrs', 'pools.*.size'.
// A path is parsed once into segments; '*' matches any one key or index.

export type PathSegment = string | number;

export function parsePath(path: string): PathSegment[] {
  const out: PathSegment[] = [];
  for (const part of path.split('.')) {
    const re = /([^[\]]+)|\[(\d+|\*)\]/g;
    let m: RegExpExecArray | null;
    while ((m = re.exec(part))) {
      if (m[1] !== undefined) out.push(m[1]);
      else out.push(m[2] === '*' ? '*' : Number(m[2]));
    }
  }
  return out;
}

export function formatPath(path: readonly PathSegment[]): string {
  let s = '';
  for (const p of path) s += typeof p === 'number' ? `[${p}]` : s ? `.${p}` : p;
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
