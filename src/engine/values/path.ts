// Input and output paths: 'interfaces.eth0.ipv4Address', 'rules[0].cidrs', 'pools.*.size'.
// A path is parsed once into segments; '*' matches any one key or index.

export type PathSegment = string | number;

export function parsePath(path: string): PathSegment[] {
  const out: PathSegment[] = [];
  let i = 0;
  while (i < path.length) {
    const c = path[i];
    if (c === '.') { i++; continue; }
    if (c === '[' && path[i + 1] === '"') {
      // A quoted key (formatPathExact): ["user.token"], JSON string syntax.
      let j = i + 2;
      while (j < path.length && path[j] !== '"') j += path[j] === '\\' ? 2 : 1;
      out.push(JSON.parse(path.slice(i + 1, j + 1)) as string);
      i = j + 2;
    } else if (c === '[') {
      const j = path.indexOf(']', i);
      const t = path.slice(i + 1, j < 0 ? path.length : j);
      out.push(t === '*' ? '*' : /^\d+$/.test(t) ? Number(t) : t);
      i = j < 0 ? path.length : j + 1;
    } else {
      let j = i;
      while (j < path.length && path[j] !== '.' && path[j] !== '[') j++;
      out.push(path.slice(i, j));
      i = j;
    }
  }
  return out;
}

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
