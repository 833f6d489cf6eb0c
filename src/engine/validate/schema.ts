// What the engine needs to know of a zod schema: its top-level keys (to check a reference names a
// real output), and parsing a value that holds unknowns (validate what is known, keep the markers).
import type { z } from 'zod';
import { isUnknown, unknown as unknownMarker } from '../values/unknown.js';
import type { PathSegment } from '../values/path.js';
import { defOf, fieldSchema, objectView, schemaAt } from './zod-def.js';

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

// The path grows only to step into an object or list: a scalar holds no unknown, and a marker
// is listed at its path without growing it (most inputs are scalars and references: no list grown).
function unknownPaths(value: unknown, at: PathSegment[] = [], into: PathSegment[][] = []): PathSegment[][] {
  if (value === null || typeof value !== 'object') return into;
  if (isUnknown(value)) into.push(at.slice());
  else if (Array.isArray(value))
    for (let i = 0; i < value.length; i++) {
      const v: unknown = value[i];
      if (v === null || typeof v !== 'object') continue;
      if (isUnknown(v)) into.push([...at, i]);
      else {
        at.push(i);
        unknownPaths(v, at, into);
        at.pop();
      }
    }
  else
    for (const k in value) {
      const v = (value as Record<string, unknown>)[k];
      if (v === null || typeof v !== 'object') continue;
      if (isUnknown(v)) into.push([...at, k]);
      else {
        at.push(k);
        unknownPaths(v, at, into);
        at.pop();
      }
    }
  return into;
}

/**
 * `value` with `leaves[i]` at `paths[i]`, as setting each in turn would leave it (copying along the
 * path, a missing or scalar container becoming an object), but each container copied once for all
 * the paths through it. The paths are listed as unknownPaths() lists them: none is a prefix of
 * another, and the paths through one container come one after another (taken as a run here).
 */
function setAll(
  value: unknown,
  paths: readonly PathSegment[][],
  leaves: readonly unknown[],
  from = 0,
  to = paths.length,
  depth = 0,
): unknown {
  if (from >= to) return value;
  if (paths[from]!.length === depth) return leaves[from];
  const copy = (Array.isArray(value) ? [...value] : { ...(value && typeof value === 'object' ? value : {}) }) as Record<
    PropertyKey,
    unknown
  >;
  const isArray = Array.isArray(copy);
  for (let i = from; i < to;) {
    const head = paths[i]![depth]!;
    let j = i + 1;
    while (j < to && paths[j]![depth] === head) j++;
    const next = setAll(copy[head as string], paths, leaves, i, j, depth + 1);
    // An own '__proto__' key is defined, as an object literal's computed key does; others assigned.
    if (isArray || head !== '__proto__') copy[head as string] = next;
    else
      Object.defineProperty(copy, head, {
        value: next,
        writable: true,
        enumerable: true,
        configurable: true,
      });
    i = j;
  }
  return copy;
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
  const probe = setAll(
    value,
    unknowns,
    unknowns.map((p) => {
      const sample = sampleFor(schemaAt(schema, p));
      return sample.ok ? sample.value : undefined;
    }),
  );
  const result = schema.safeParse(probe);
  const issues: SchemaIssue[] = [];
  if (!result.success) {
    for (const i of result.error.issues) {
      if (unknowns.some((u) => related(u, i.path))) continue;
      issues.push(toIssue(i));
    }
  }
  if (!result.success) return { data: value, issues };
  const data = setAll(
    result.data,
    unknowns,
    unknowns.map(() => unknownMarker),
  );
  return { data, issues };
}

/** Wrappers that hand a present value to their inner schema as it is (a default or prefault applies only to a missing one). */
const PASSING = new Set(['optional', 'nullable', 'default', 'prefault', 'readonly', 'nonoptional']);

/**
 * The schema of the value at `path`, when every schema above it is a plain object or list: no
 * refinement, transform, union, lazy or catch that could judge or reshape the value there together
 * with the rest. Undefined otherwise.
 */
function plainSchemaAt(schema: z.ZodType, path: readonly PathSegment[]): z.ZodType | undefined {
  let s: z.ZodType | undefined = schema;
  for (const seg of path) {
    let d = defOf(s);
    while (d && PASSING.has(d.type)) {
      s = d.innerType;
      d = defOf(s);
    }
    if (!d || d.checks?.length) return undefined;
    if (d.type === 'object' && d.shape) {
      const catchall = defOf(d.catchall)?.type;
      s = fieldSchema(d.shape, String(seg)) ?? (catchall && catchall !== 'never' ? d.catchall : undefined);
    } else if (d.type === 'array' && typeof seg === 'number') s = d.element;
    else return undefined;
    if (!s) return undefined;
  }
  return s;
}

/**
 * What parseWithUnknowns(schema, value) gives, from `parsed`: that function's result for the same
 * inputs with unknowns where `value` now holds known values (validation's parse, references as
 * unknowns), without parsing the whole again — when each such value is a scalar that its own schema
 * accepts as it is and nothing above it is more than a plain object or list (so nothing else in the
 * result depends on it). Undefined when that cannot be told: the caller parses `value` whole.
 */
export function parsedWithKnown(schema: z.ZodType, parsed: unknown, value: unknown): unknown {
  const paths = unknownPaths(parsed);
  const known: PathSegment[][] = [];
  const values: unknown[] = [];
  for (const p of paths) {
    let v: unknown = value;
    for (const seg of p) {
      if (v === null || typeof v !== 'object') return undefined;
      v = (v as Record<PropertyKey, unknown>)[seg];
    }
    if (isUnknown(v)) continue;
    if (v === null || (typeof v !== 'string' && typeof v !== 'number' && typeof v !== 'boolean')) return undefined;
    const leaf = plainSchemaAt(schema, p);
    if (!leaf) return undefined;
    const r = leaf.safeParse(v);
    if (!r.success || !Object.is(r.data, v)) return undefined;
    known.push(p);
    values.push(v);
  }
  return known.length ? setAll(parsed, known, values) : parsed;
}
