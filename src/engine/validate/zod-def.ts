// The one reader of zod's schema definitions (`schema._zod.def`): the engine walks a schema beside
// a value to find unknown keys, option paths, reference targets and stand-ins for unknowns, and
// every such walk sees wrappers, pipes, lazies and object-like unions the same way, through here.
import type { z } from 'zod';

/** The parts of a zod v4 definition the engine reads; which are set depends on `type`. */
export type Def = {
  readonly type: string;
  readonly shape?: Record<string, z.ZodType>;
  readonly catchall?: z.ZodType;
  readonly innerType?: z.ZodType;
  readonly in?: z.ZodType;
  readonly out?: z.ZodType;
  readonly element?: z.ZodType;
  readonly valueType?: z.ZodType;
  readonly options?: z.ZodType[];
  readonly left?: z.ZodType;
  readonly right?: z.ZodType;
  readonly getter?: () => z.ZodType;
  readonly items?: z.ZodType[];
  readonly rest?: z.ZodType | null;
  readonly discriminator?: string;
  readonly format?: string;
  readonly checks?: readonly { readonly _zod?: { readonly def?: CheckDef } }[];
  readonly entries?: Record<string, string | number>;
  readonly values?: readonly unknown[];
};

/** One refinement of a definition (`checks`): a format, a bound, a length. */
type CheckDef = {
  readonly check: string;
  readonly format?: string;
  readonly value?: number | bigint;
  readonly inclusive?: boolean;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly length?: number;
};

/** What a scalar or list schema's checks require: its format, bounds and lengths. */
type Facets = {
  /** `uuid`, `ipv4`, `url`, `email`, `datetime`, `safeint`, `regex`, ... */
  readonly format?: string;
  readonly min?: number;
  readonly max?: number;
  readonly minLength?: number;
  readonly maxLength?: number;
};

/** A view of an object-like schema: its keys, whether it takes others, and the schema those others follow. */
type ObjectView = {
  readonly shape: Record<string, z.ZodType>;
  readonly open: boolean;
  readonly catchall?: z.ZodType;
};

/** Wrappers whose inner type decides the value's shape. */
const WRAPPERS = new Set([
  'optional',
  'default',
  'nullable',
  'readonly',
  'nonoptional',
  'prefault',
  'catch',
  'success',
]);

/** The definition of a zod schema, or undefined for anything that is not one. */
export function defOf(schema: unknown): Def | undefined {
  return (schema as { _zod?: { def?: Def } } | undefined)?._zod?.def;
}

/** The schema that decides a value's shape, past wrappers, preprocessing, transforms and lazies. */
export function shapeSchema(schema: z.ZodType | undefined): z.ZodType | undefined {
  let s = schema;
  for (let i = 0; i < 32 && s; i++) {
    const d = defOf(s);
    if (!d) return s;
    if (WRAPPERS.has(d.type)) s = d.innerType;
    else if (d.type === 'pipe') s = defOf(d.in)?.type === 'transform' ? d.out : d.in;
    else if (d.type === 'lazy' && d.getter) s = d.getter();
    else return s;
  }
  return s;
}

/** The schema a shape gives `key`: an own property only ('constructor' and '__proto__' name no field). */
export function fieldSchema(shape: Record<string, z.ZodType>, key: PropertyKey): z.ZodType | undefined {
  return Object.prototype.hasOwnProperty.call(shape, key) ? shape[key as string] : undefined;
}

/**
 * An object schema's view, by its definition: read from the definition's own fields alone (a zod
 * definition does not change), so made once, not at every object of every declaration's inputs.
 */
const objectViews = new WeakMap<Def, ObjectView>();

/** The keys an object-like schema allows (merging intersections and unions), or undefined when it is not an object. */
export function objectView(schema: z.ZodType | undefined): ObjectView | undefined {
  const s = shapeSchema(schema);
  const d = defOf(s);
  if (!d) return undefined;
  if (d.type === 'object' && d.shape) {
    let view = objectViews.get(d);
    if (view) return view;
    const catchallType = defOf(d.catchall)?.type;
    view = {
      shape: d.shape,
      open: catchallType !== undefined && catchallType !== 'never',
      catchall: catchallType && catchallType !== 'never' ? d.catchall : undefined,
    };
    objectViews.set(d, view);
    return view;
  }
  if (d.type === 'intersection' || d.type === 'union') {
    const parts = d.type === 'intersection' ? [d.left, d.right] : (d.options ?? []);
    const views = parts.map(objectView);
    const objects = views.filter((v): v is ObjectView => !!v);
    if (!objects.length) return undefined;
    // A union with a non-object member (a string or a ref form) accepts what that member accepts.
    if (d.type === 'union' && objects.length !== views.length) return undefined;
    const shape: Record<string, z.ZodType> = {};
    for (const v of objects) Object.assign(shape, v.shape);
    // An intersection with a map (or anything not an object) takes keys no shape lists.
    return { shape, open: objects.length !== views.length || objects.some((v) => v.open) };
  }
  return undefined;
}

/** The schema at a path inside a schema (objects, lists, sets, tuples, maps), when it can be followed. */
export function schemaAt(schema: z.ZodType | undefined, path: readonly PropertyKey[]): z.ZodType | undefined {
  let s = schema;
  for (const seg of path) {
    s = shapeSchema(s);
    const d = defOf(s);
    if (!d) return undefined;
    if (d.type === 'array') s = d.element;
    else if (d.type === 'set' || d.type === 'record') s = d.valueType;
    else if (d.type === 'tuple') s = typeof seg === 'number' ? (d.items?.[seg] ?? d.rest ?? undefined) : undefined;
    else {
      const view = objectView(s);
      s = view ? (fieldSchema(view.shape, String(seg)) ?? view.catchall) : undefined;
    }
  }
  return s;
}

/** The format, bounds and lengths a schema's checks state (past wrappers). */
export function facetsOf(schema: z.ZodType | undefined): Facets {
  const d = defOf(shapeSchema(schema));
  if (!d) return {};
  const f: { -readonly [K in keyof Facets]: Facets[K] } = d.format ? { format: d.format } : {};
  for (const c of d.checks ?? []) {
    const cd = c._zod?.def;
    if (!cd) continue;
    if (cd.format && (cd.check === 'string_format' || cd.check === 'number_format')) f.format ??= cd.format;
    else if (cd.check === 'greater_than') f.min = Number(cd.value) + (cd.inclusive ? 0 : 1);
    else if (cd.check === 'less_than') f.max = Number(cd.value) - (cd.inclusive ? 0 : 1);
    else if (cd.check === 'min_length') f.minLength = cd.minimum;
    else if (cd.check === 'max_length') f.maxLength = cd.maximum;
    else if (cd.check === 'length_equals') f.minLength = f.maxLength = cd.length;
  }
  return f;
}
