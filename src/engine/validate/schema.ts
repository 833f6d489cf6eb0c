// What the engine needs to know of a zod schema: its top-level keys (to check a reference names a
// real output), and parsing a value that holds unknowns (validate what is known, keep the markers).
import type { z } from 'zod';
import { isUnknown, unknown as unknownMarker } from '../values/unknown.js';
import type { PathSegment } from '../values/path.js';
import { objectView, schemaAt } from './zod-def.js';

const keysCache = new WeakMap<z.ZodType, ReadonlySet<string> | undefined>();

/**
 * The top-level keys of an object schema, or undefined when the schema does not say: not an object,
 * or a union or intersection with a part that takes any key (an object's own catchall keeps its keys).
 * Read once per schema (planning asks at every reference).
 */
export function schemaKeys(schema: z.ZodType): ReadonlySet<string> | undefined {
  if (keysCache.has(schema)) return keysCache.get(schema);
  const view = objectView(schema);
  const keys = !view || (view.open && !view.catchall) ? undefined : new Set(Object.keys(view.shape));
  keysCache.set(schema, keys);
  return keys;
}

const SAMPLES: unknown[] = [
  'x',
  'a',
  '0.0.0.0',
  '00000000-0000-4000-8000-000000000000',
  'x.example',
  'http://x.example',
  '10.0.0.0/24',
  1,
  0,
  600,
  true,
  false,
  [],
  {},
  '0',
];

const sampleCache = new WeakMap<z.ZodType, { ok: boolean; value?: unknown }>();

/** A value the schema accepts, to stand in for an unknown while the rest is parsed (found once per schema). */
function sampleFor(schema: z.ZodType | undefined): { ok: boolean; value?: unknown } {
  if (!schema) return { ok: false };
  let found = sampleCache.get(schema);
  if (found) return found;
  found = { ok: false };
  for (const v of SAMPLES)
    if (schema.safeParse(v).success) {
      found = { ok: true, value: v };
      break;
    }
  sampleCache.set(schema, found);
  return found;
}

function unknownPaths(value: unknown, at: PathSegment[] = [], into: PathSegment[][] = []): PathSegment[][] {
  if (value === null || typeof value !== 'object') return into;
  if (isUnknown(value)) into.push(at.slice());
  else if (Array.isArray(value))
    for (let i = 0; i < value.length; i++) {
      at.push(i);
      unknownPaths(value[i], at, into);
      at.pop();
    }
  else
    for (const k in value) {
      at.push(k);
      unknownPaths((value as Record<string, unknown>)[k], at, into);
      at.pop();
    }
  return into;
}

function setAt(value: unknown, path: readonly PathSegment[], leaf: unknown): unknown {
  if (path.length === 0) return leaf;
  const [head, ...rest] = path;
  if (Array.isArray(value)) {
    const copy = [...value];
    copy[head as number] = setAt(copy[head as number], rest, leaf);
    return copy;
  }
  const obj = (value && typeof value === 'object' ? value : {}) as Record<string, unknown>;
  return { ...obj, [head as string]: setAt(obj[head as string], rest, leaf) };
}

function related(a: readonly PropertyKey[], b: readonly PropertyKey[]): boolean {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (String(a[i]) !== String(b[i])) return false;
  return true;
}

type SchemaIssue = {
  readonly path: readonly (string | number)[];
  readonly code: string;
  readonly message: string;
  readonly keys?: readonly string[];
};

const toIssue = (i: z.core.$ZodIssue): SchemaIssue => ({
  path: i.path.map((p) => (typeof p === 'number' ? p : String(p))),
  code: i.code,
  message: i.message,
  ...(i.code === 'unrecognized_keys' ? { keys: i.keys } : {}),
});

/**
 * Parses `value` with `schema`, treating unknown markers as valid placeholders: issues about an
 * unknown value are dropped, defaults are applied, and the markers stand in the result.
 */
export function parseWithUnknowns(
  schema: z.ZodType,
  value: unknown,
): { readonly data: unknown; readonly issues: readonly SchemaIssue[] } {
  const unknowns = unknownPaths(value);
  if (unknowns.length === 0) {
    const r = schema.safeParse(value);
    return r.success ? { data: r.data, issues: [] } : { data: value, issues: r.error.issues.map(toIssue) };
  }
  let probe = value;
  for (const p of unknowns) {
    const sample = sampleFor(schemaAt(schema, p));
    probe = sample.ok ? setAt(probe, p, sample.value) : setAt(probe, p, undefined);
  }
  const result = schema.safeParse(probe);
  const issues: SchemaIssue[] = [];
  if (!result.success) {
    for (const i of result.error.issues) {
      if (unknowns.some((u) => related(u, i.path))) continue;
      issues.push(toIssue(i));
    }
  }
  if (!result.success) return { data: value, issues };
  let data: unknown = result.data;
  for (const p of unknowns) data = setAt(data, p, unknownMarker);
  return { data, issues };
}
