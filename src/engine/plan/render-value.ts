// How render.ts shows values: scalars (unknown and sensitive markers in words, long strings folded),
// multi-line strings as heredocs (a line diff when both sides are), and nested maps and lists diffed
// element by element against the step's changes, with unchanged parts counted and hidden.
import type { StepChange } from './step.js';
import { isUnknown } from '../values/unknown.js';
import { isSensitive } from '../values/secret.js';
import { formatPath, parsePath, type PathSegment } from '../values/path.js';

export type Sym = '+' | '-' | '~' | ' ';

export type ValueStyle = {
  /** Single-line strings longer than this are folded (start…end, length). */
  readonly width: number;
  /** Heredocs with more lines than this show their first lines and a count. */
  readonly maxLines: number;
  /** Paints a symbol (colour on a TTY). */
  readonly sym: (s: Sym) => string;
};

export type DiffInput = ValueStyle & {
  /** The step's changes by path. */
  readonly changes: ReadonlyMap<string, StepChange>;
  /** Every proper prefix of a changed path. */
  readonly above: ReadonlySet<string>;
};

/** A value as lines: the text after `key = ` and the lines that follow it (closing brackets included). */
type Shown = { head: string; rest: string[] };

const IDENT = /^[A-Za-z_][A-Za-z0-9_-]*$/;
const isMarker = (v: unknown) => isUnknown(v) || isSensitive(v);
const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && !isMarker(v);
const isHeredoc = (v: unknown): v is string => typeof v === 'string' && v.includes('\n');

export function keyText(k: string): string {
  return IDENT.test(k) ? k : JSON.stringify(k);
}

/** One scalar as a person reads it: "(known after apply)", "(sensitive value)", a folded long string. */
export function scalarText(v: unknown, width: number): string {
  if (isUnknown(v)) return '(known after apply)';
  if (isSensitive(v)) return '(sensitive value)';
  if (v === undefined || v === null) return 'null';
  if (typeof v === 'string') {
    if (v.length <= width) return JSON.stringify(v);
    const head = JSON.stringify(v.slice(0, Math.max(8, width - 40))).slice(0, -1);
    const tail = JSON.stringify(v.slice(-16)).slice(1);
    return `${head}…${tail} (${v.length} characters)`;
  }
  if (typeof v === 'object') return JSON.stringify(v);
  if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint') return String(v);
  return `(${typeof v})`; // a function or symbol: not a JSON value
}

function heredoc(text: string, indent: string, style: ValueStyle): Shown {
  const lines = text.replace(/\n$/, '').split('\n');
  const shown = lines.length > style.maxLines ? lines.slice(0, Math.max(1, style.maxLines - 4)) : lines;
  const rest = shown.map((l) => `${indent}      ${l}`);
  if (shown.length < lines.length) rest.push(`${indent}      # (${lines.length - shown.length} more lines hidden)`);
  rest.push(`${indent}  EOT`);
  return { head: '<<-EOT', rest };
}

/** A whole value with `sym` on every nested line (creates and deletes). */
export function showValue(v: unknown, sym: Sym, indent: string, style: ValueStyle): Shown {
  if (isHeredoc(v)) return heredoc(v, indent, style);
  const inner = `${indent}    `;
  if (Array.isArray(v)) {
    if (v.length === 0) return { head: '[]', rest: [] };
    const rest: string[] = [];
    for (const x of v) {
      const s = showValue(x, sym, inner, style);
      push(rest, `${inner}${style.sym(sym)} `, s, ',');
    }
    rest.push(`${indent}  ]`);
    return { head: '[', rest };
  }
  if (isObject(v)) {
    const entries = Object.entries(v).filter(([, x]) => x !== undefined);
    if (entries.length === 0) return { head: '{}', rest: [] };
    const rest: string[] = [];
    for (const [k, x] of entries)
      push(rest, `${inner}${style.sym(sym)} ${keyText(k)} = `, showValue(x, sym, inner, style), '');
    rest.push(`${indent}  }`);
    return { head: '{', rest };
  }
  return { head: scalarText(v, style.width), rest: [] };
}

function push(into: string[], prefix: string, s: Shown, suffix: string): void {
  if (s.rest.length === 0) {
    into.push(`${prefix}${s.head}${suffix}`);
    return;
  }
  into.push(`${prefix}${s.head}`, ...s.rest.slice(0, -1), `${s.rest[s.rest.length - 1]}${suffix}`);
}

/** Lines of a heredoc diff: unchanged lines more than two away from a change are counted, not shown. */
function heredocDiff(before: string, after: string, indent: string, style: ValueStyle): Shown {
  const a = before.replace(/\n$/, '').split('\n');
  const b = after.replace(/\n$/, '').split('\n');
  const ops = lineDiff(a, b);
  const near = ops.map((_, i) => ops.slice(Math.max(0, i - 2), i + 3).some((o) => o.sym !== ' '));
  const rest: string[] = [];
  let hidden = 0;
  const flush = () => {
    if (hidden) rest.push(`${indent}      # (${hidden} unchanged lines hidden)`);
    hidden = 0;
  };
  ops.forEach((o, i) => {
    if (o.sym === ' ' && !near[i]) {
      hidden++;
      return;
    }
    flush();
    rest.push(`${indent}    ${style.sym(o.sym)} ${o.line}`);
  });
  flush();
  rest.push(`${indent}  EOT`);
  return { head: '<<-EOT', rest };
}

/** A longest-common-subsequence line diff; falls back to all-removed-then-added for huge texts. */
function lineDiff(a: string[], b: string[]): { sym: Sym; line: string }[] {
  if (a.length * b.length > 250_000)
    return [...a.map((line) => ({ sym: '-' as Sym, line })), ...b.map((line) => ({ sym: '+' as Sym, line }))];
  const n = a.length;
  const m = b.length;
  const lcs: number[][] = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0));
  for (let i = n - 1; i >= 0; i--)
    for (let j = m - 1; j >= 0; j--)
      lcs[i]![j] = a[i] === b[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
  const out: { sym: Sym; line: string }[] = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (a[i] === b[j]) {
      out.push({ sym: ' ', line: a[i]! });
      i++;
      j++;
    } else if (lcs[i + 1]![j]! >= lcs[i]![j + 1]!) out.push({ sym: '-', line: a[i++]! });
    else out.push({ sym: '+', line: b[j++]! });
  }
  while (i < n) out.push({ sym: '-', line: a[i++]! });
  while (j < m) out.push({ sym: '+', line: b[j++]! });
  return out;
}

/**
 * The lines of one changed node at `path` (`key` undefined for a list element), or undefined when
 * nothing at or below it changed. `before` and `after` are the step's redacted values at that path.
 */
export function diffNode(
  key: string | undefined,
  path: PathSegment[],
  before: unknown,
  after: unknown,
  indent: string,
  d: DiffInput,
): string[] | undefined {
  const p = formatPath(path);
  const label = key === undefined ? '' : `${keyText(key)} = `;
  const suffix = key === undefined ? ',' : '';
  const change = d.changes.get(p);
  const lines: string[] = [];
  if (change) {
    const b = change.before;
    const a = change.after;
    if (b === undefined) push(lines, `${indent}${d.sym('+')} ${label}`, showValue(a, '+', indent, d), suffix);
    else if (a === undefined)
      push(
        lines,
        `${indent}${d.sym('-')} ${label}`,
        showValue(b, '-', indent, d),
        key === undefined ? ',' : ' -> null',
      );
    else if (isHeredoc(b) && isHeredoc(a))
      push(lines, `${indent}${d.sym('~')} ${label}`, heredocDiff(b, a, indent, d), suffix);
    // A secret that changed: Terraform's single "(sensitive value)", no arrow between two of them.
    else if (isSensitive(b) && isSensitive(a)) lines.push(`${indent}${d.sym('~')} ${label}(sensitive value)${suffix}`);
    else {
      const sb = showValue(b, '-', indent, d);
      const sa = showValue(a, '+', indent, d);
      if (sb.rest.length === 0) push(lines, `${indent}${d.sym('~')} ${label}${sb.head} -> `, sa, suffix);
      else {
        lines.push(`${indent}${d.sym('~')} ${label}${sb.head}`, ...sb.rest.slice(0, -1));
        push(lines, `${sb.rest[sb.rest.length - 1]} -> `, sa, suffix);
      }
    }
    if (change.forcesReplacement) lines[0] += ' # forces replacement';
    return lines;
  }
  if (!d.above.has(p)) return undefined;
  const inner = `${indent}    `;
  const body: string[] = [];
  let hidden = 0;
  if (Array.isArray(before) || Array.isArray(after)) {
    const bl = Array.isArray(before) ? before : [];
    const al = Array.isArray(after) ? after : [];
    const keyed = keyedElements(path, bl, al, d);
    if (keyed) {
      for (const [k, [b, a]] of keyed) {
        const sub = diffNode(undefined, [...path, k], b, a, inner, d);
        if (sub) body.push(...sub);
        else hidden++;
      }
    } else {
      for (let i = 0; i < Math.max(bl.length, al.length); i++) {
        const sub = diffNode(undefined, [...path, i], bl[i], al[i], inner, d);
        if (sub) body.push(...sub);
        else hidden++;
      }
    }
    if (hidden) body.push(`${inner}  # (${hidden} unchanged element${hidden === 1 ? '' : 's'} hidden)`);
    lines.push(`${indent}${d.sym('~')} ${label}[`, ...body, `${indent}  ]${suffix}`);
    return lines;
  }
  const bo = isObject(before) ? before : {};
  const ao = isObject(after) ? after : {};
  const keys = [...new Set([...Object.keys(ao), ...Object.keys(bo)])];
  for (const k of keys) {
    const sub = diffNode(k, [...path, k], bo[k], ao[k], inner, d);
    if (sub) body.push(...sub);
    else if (bo[k] !== undefined || ao[k] !== undefined) hidden++;
  }
  if (hidden) body.push(`${inner}  # (${hidden} unchanged attribute${hidden === 1 ? '' : 's'} hidden)`);
  lines.push(`${indent}${d.sym('~')} ${label}{`, ...body, `${indent}  }${suffix}`);
  return lines;
}

/**
 * A keyed list (a resource's `keyedLists`: changes under it are at `<list>.<key>`, a string segment)
 * as key → [before element, after element], matched by the element field holding those keys; undefined
 * for a list diffed by position.
 */
function keyedElements(
  path: PathSegment[],
  bl: readonly unknown[],
  al: readonly unknown[],
  d: DiffInput,
): Map<string, [unknown, unknown]> | undefined {
  const keys = new Set<string>();
  for (const q of [...d.changes.keys(), ...d.above]) {
    const segs = parsePath(q);
    if (
      segs.length > path.length &&
      typeof segs[path.length] === 'string' &&
      formatPath(segs.slice(0, path.length)) === formatPath(path)
    )
      keys.add(segs[path.length] as string);
  }
  if (keys.size === 0) return undefined;
  const all = [...bl, ...al].filter(isObject);
  const field = all
    .flatMap((el) => Object.keys(el))
    .find(
      (f) =>
        all.some((el) => keys.has(String(el[f]))) && all.every((el) => ['string', 'number'].includes(typeof el[f])),
    );
  if (!field) return undefined;
  const out = new Map<string, [unknown, unknown]>();
  for (const el of bl) if (isObject(el)) out.set(String(el[field]), [el, undefined]);
  for (const el of al) if (isObject(el)) out.set(String(el[field]), [out.get(String(el[field]))?.[0], el]);
  return out;
}

/** Every proper prefix of the changed paths, as formatted paths. */
export function prefixesOf(paths: readonly PathSegment[][]): Set<string> {
  const out = new Set<string>();
  for (const path of paths) for (let i = 0; i < path.length; i++) out.add(formatPath(path.slice(0, i)));
  return out;
}
