// `tsx scripts/gen-gcore-request-schemas.ts [--specs <dir>] [--check]`: writes
// src/providers/c/simulator/request-schemas.ts, the request schemas of exactly the operations the
// Gcore simulator routes (its route table's method + path, matched to the spec's path template):
// path and query parameters and the JSON body, from Gcore's OpenAPI specs (cdn_api.yaml,
// cloud_api.yaml; default ../shared/specs/gcore). $refs are resolved: a component used once is
// inlined, one used more often is kept once in the API's `defs` and referenced as `<api>#/$defs/X`.
// Annotations (descriptions, examples, defaults, titles) are dropped; what validates is kept.
// `--check` writes nothing and exits 1 when the committed file differs.
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { format } from 'prettier';
import YAML from 'yaml';
import { gcoreRoutes } from '../src/providers/c/simulator/routes.js';
import { CHECKED_FORMATS } from '../src/providers/c/simulator/spec-formats.js';

type Node = Record<string, unknown>;
type Api = 'cdn' | 'cloud';
const ROOT = join(import.meta.dirname, '..');
const OUT = join(ROOT, 'src/providers/c/simulator/request-schemas.ts');
const arg = (name: string) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const specDir = arg('--specs') ?? join(ROOT, '..', 'shared', 'specs', 'gcore');
const FILES: Record<Api, string> = { cdn: 'cdn_api.yaml', cloud: 'cloud_api.yaml' };
/** A spec parsed, through the cache tests/providers/c/helpers/spec.ts keeps (parsing 3.4 MB of YAML takes seconds). */
function load(file: string): Node {
  const path = join(specDir, file);
  const st = statSync(path);
  const cache = join(tmpdir(), 'converge-provc-specs', `${file}.${st.size}.${Math.floor(st.mtimeMs)}.json`);
  if (existsSync(cache)) return JSON.parse(readFileSync(cache, 'utf8')) as Node;
  const doc = YAML.parse(readFileSync(path, 'utf8'), { maxAliasCount: -1 }) as Node;
  mkdirSync(dirname(cache), { recursive: true });
  writeFileSync(cache, JSON.stringify(doc));
  return doc;
}
const docs = Object.fromEntries(
  (Object.entries(FILES) as [Api, string][]).map(([api, file]) => [api, load(file)]),
) as Record<Api, Node>;
const versionOf = (api: Api) => String((docs[api].info as Node).version);

// What validates. Anything else in a schema that is not an annotation stops the script, so a new
// keyword in a later spec is looked at rather than silently ignored.
// prettier-ignore
const KEEP = new Set([
  'type', 'enum', 'const', 'pattern', 'format', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum',
  'multipleOf', 'minLength', 'maxLength', 'minItems', 'maxItems', 'uniqueItems', 'required', 'properties',
  'additionalProperties', 'patternProperties', 'propertyNames', 'minProperties', 'maxProperties', 'items',
  'anyOf', 'allOf', 'not', '$ref',
]);
// prettier-ignore
const ANNOTATIONS = new Set([
  'description', 'title', 'example', 'examples', 'default', 'deprecated', 'readOnly', 'writeOnly',
  'externalDocs', 'xml', 'discriminator', '$comment', 'contentEncoding',
]);
const notes = { formats: new Set<string>(), patterns: new Set<string>() };

const refName = (ref: string) => {
  const m = /^#\/components\/schemas\/(.+)$/.exec(ref);
  if (!m) throw new Error(`unsupported $ref ${ref}`);
  return decodeURIComponent(m[1]!);
};
const componentOf = (api: Api, name: string) => {
  const s = ((docs[api].components as Node).schemas as Node)[name];
  if (s === undefined) throw new Error(`${api}: no schema ${name}`);
  return s as Node;
};

/** Counts how often each component schema is reached from the routed operations (refs inside a ref count once per use). */
function countRefs(api: Api, node: unknown, counts: Map<string, number>, stack: string[] = []): void {
  if (Array.isArray(node)) return node.forEach((n) => countRefs(api, n, counts, stack));
  if (!node || typeof node !== 'object') return;
  for (const [k, v] of Object.entries(node as Node)) {
    if (ANNOTATIONS.has(k) || k.startsWith('x-')) continue;
    if (k === '$ref') {
      const name = refName(String(v));
      counts.set(name, (counts.get(name) ?? 0) + (stack.includes(name) ? 2 : 1));
      if ((counts.get(name) ?? 0) <= 1 && !stack.includes(name))
        countRefs(api, componentOf(api, name), counts, [...stack, name]);
    } else countRefs(api, v, counts, stack);
  }
}

/** A spec schema as Ajv reads it: refs inlined or pointing at `defs`, OpenAPI 3.0's `nullable` and `oneOf` rewritten, annotations gone. */
function clean(api: Api, node: unknown, shared: Set<string>, stack: string[] = []): unknown {
  if (typeof node === 'boolean') return node;
  if (!node || typeof node !== 'object' || Array.isArray(node))
    throw new Error(`not a schema: ${JSON.stringify(node)}`);
  const src = node as Node;
  if (typeof src.$ref === 'string') {
    const name = refName(src.$ref);
    const rest = Object.fromEntries(Object.entries(src).filter(([k]) => k !== '$ref'));
    const target = shared.has(name)
      ? { $ref: `${api}#/$defs/${name}` }
      : clean(api, componentOf(api, name), shared, [...stack, name]);
    const siblings = clean(api, rest, shared, stack) as Node;
    return Object.keys(siblings).length ? { allOf: [target, siblings] } : target;
  }
  const out: Node = {};
  for (const [k, v] of Object.entries(src)) {
    if (ANNOTATIONS.has(k) || k.startsWith('x-') || k === 'nullable') continue;
    if (k === 'contentMediaType' || k === 'contentSchema') continue; // JSON-in-a-string: handled with the parameter
    const key = k === 'oneOf' ? 'anyOf' : k;
    if (!KEEP.has(key)) throw new Error(`${api}: keyword ${k} is not handled (${JSON.stringify(src).slice(0, 200)})`);
    if (key === 'properties' || key === 'patternProperties') {
      const props = v as Node;
      // A read-only property is the server's to fill: Django REST ignores it in a request.
      out[key] = Object.fromEntries(
        Object.entries(props).map(([p, s]) => [p, (s as Node).readOnly === true ? true : clean(api, s, shared, stack)]),
      );
    } else if (key === 'required') {
      const props = (src.properties ?? {}) as Node;
      const req = (v as string[]).filter((p) => (props[p] as Node | undefined)?.readOnly !== true);
      if (req.length) out.required = req;
    } else if (key === 'anyOf' || key === 'allOf') out[key] = (v as unknown[]).map((s) => clean(api, s, shared, stack));
    else if (['items', 'additionalProperties', 'not', 'propertyNames'].includes(key))
      out[key] = clean(api, v, shared, stack);
    else if (key === 'format') {
      if (CHECKED_FORMATS.includes(String(v))) out.format = v;
      else notes.formats.add(String(v));
    } else if (key === 'pattern') {
      try {
        new RegExp(String(v), 'u');
        out.pattern = v;
      } catch {
        notes.patterns.add(String(v));
      }
    } else out[key] = v;
  }
  return simplify(src.nullable === true ? nullable(out) : out);
}

/** OpenAPI 3.0's `nullable: true` (the CDN spec still writes it): null is one more allowed value. */
function nullable(s: Node): Node {
  if (typeof s.type === 'string')
    return { ...s, type: [s.type, 'null'], ...(s.enum ? { enum: withNull(s.enum) } : {}) };
  if (Array.isArray(s.type)) return { ...s, type: [...new Set([...(s.type as string[]), 'null'])] };
  if (s.enum) return { ...s, enum: withNull(s.enum) };
  return { anyOf: [s, { type: 'null' }] };
}
const withNull = (e: unknown) => ((e as unknown[]).includes(null) ? e : [...(e as unknown[]), null]);

/** `allOf: [X]` is X; `anyOf: [X, {type: null}]` with a typed X is X with null among its types. */
function simplify(s: Node): Node {
  const keys = Object.keys(s);
  if (keys.length === 1 && Array.isArray(s.allOf) && s.allOf.length === 1) return s.allOf[0] as Node;
  if (keys.length === 1 && Array.isArray(s.anyOf)) {
    const branches = s.anyOf as Node[];
    const nonNull = branches.filter((b) => !(Object.keys(b).length === 1 && b.type === 'null'));
    if (nonNull.length === 1 && branches.length === 2 && nonNull[0]!.type !== undefined) return nullable(nonNull[0]!);
    if (branches.length === 1) return branches[0]!;
  }
  return s;
}

const norm = (p: string) => p.replace(/\{[^}]+\}|:[A-Za-z_]+/g, '{}');
const paramNames = (p: string) => [...p.matchAll(/\{([^}]+)\}|:([A-Za-z_]+)/g)].map((m) => m[1] ?? m[2]!);

type Param = {
  name: string;
  in: string;
  required?: boolean;
  schema?: Node;
  content?: Node;
  explode?: boolean;
  style?: string;
};

function resolveParam(api: Api, p: Node): Param {
  if (typeof p.$ref !== 'string') return p as unknown as Param;
  const name = /^#\/components\/parameters\/(.+)$/.exec(p.$ref)?.[1];
  const found = name && ((docs[api].components as Node).parameters as Node)[name];
  if (!found) throw new Error(`${api}: unresolved parameter ${p.$ref}`);
  return found as unknown as Param;
}

/** The schema of a parameter's value, and whether it travels as JSON text. */
function paramSchema(p: Param): { schema: Node; json: boolean } {
  const media = p.content && ((p.content['application/json'] as Node | undefined)?.schema as Node | undefined);
  if (media) return { schema: media, json: true };
  const s = p.schema ?? {};
  if (s.contentMediaType === 'application/json' && s.contentSchema)
    return { schema: s.contentSchema as Node, json: true };
  return { schema: s, json: false };
}

const isArray = (s: Node): boolean =>
  s.type === 'array' ||
  (Array.isArray(s.type) && s.type.includes('array')) ||
  (Array.isArray(s.anyOf) && (s.anyOf as Node[]).some(isArray));

type Op = { api: Api; template: string; method: string; params: Param[]; body?: { required: boolean; schema: Node } };

function operationOf(method: string, path: string): Op {
  const api: Api = path.startsWith('/cloud/') ? 'cloud' : 'cdn';
  const paths = docs[api].paths as Record<string, Node>;
  const m = method.toLowerCase();
  const hits = Object.keys(paths).filter((t) => norm(t) === norm(path) && paths[t]![m]);
  // The CDN spec declares PATCH /cdn/resources/{id} and {res_id} (Let's Encrypt) over {resource_id}: the route's names decide.
  const same = hits.filter((t) => paramNames(t).join() === paramNames(path).join());
  const template = hits.length === 1 ? hits[0] : same.length === 1 ? same[0] : undefined;
  if (!template) throw new Error(`${method} ${path}: ${hits.length} operations in ${FILES[api]} (${hits.join(', ')})`);
  const item = paths[template]!;
  const op = item[m] as Node;
  const byKey = new Map<string, Param>();
  for (const p of [...((item.parameters ?? []) as Node[]), ...((op.parameters ?? []) as Node[])]) {
    const r = resolveParam(api, p);
    byKey.set(`${r.in}:${r.name}`, r);
  }
  let rb = op.requestBody as Node | undefined;
  if (rb && typeof rb.$ref === 'string')
    rb = ((docs[api].components as Node).requestBodies as Node)[rb.$ref.split('/').pop()!] as Node;
  const content = rb?.content as Record<string, Node> | undefined;
  const media = content?.['application/json'] ?? Object.entries(content ?? {}).find(([t]) => t.includes('json'))?.[1];
  const body = media?.schema ? { required: rb!.required === true, schema: media.schema as Node } : undefined;
  return { api, template, method, params: [...byKey.values()], body };
}

const ops = new Map<string, Op>();
for (const r of gcoreRoutes()) ops.set(`${r.method} ${r.path}`, operationOf(r.method, r.path));

// Components reached more than once (or recursively) are kept once per API; the rest are inlined.
const shared: Record<Api, Set<string>> = { cdn: new Set(), cloud: new Set() };
for (const api of ['cdn', 'cloud'] as const) {
  const counts = new Map<string, number>();
  for (const op of ops.values()) if (op.api === api && op.body) countRefs(api, op.body.schema, counts);
  for (const [name, n] of counts) if (n > 1) shared[api].add(name);
  // A small one ({type: string, maxLength: 255}) is clearer written where it is used than referenced.
  for (const name of [...shared[api]])
    if (counts.get(name)! < 100 && JSON.stringify(clean(api, componentOf(api, name), shared[api], [name])).length < 80)
      shared[api].delete(name);
}

const objectOf = (params: { name: string; schema: unknown; required?: boolean }[]) => {
  const required = params.filter((p) => p.required).map((p) => p.name);
  return {
    type: 'object',
    properties: Object.fromEntries(params.map((p) => [p.name, p.schema])),
    ...(required.length ? { required } : {}),
  };
};

const table: Record<string, unknown> = {};
for (const [key, op] of ops) {
  // Parameters are small: everything in them is inlined.
  const params = (where: string) =>
    op.params
      .filter((p) => p.in === where)
      .map((p) => {
        const { schema, json } = paramSchema(p);
        const cleaned = clean(op.api, schema, new Set()) as Node;
        const csv = where === 'query' && p.explode === false;
        return { name: p.name, required: p.required === true, schema: cleaned, json, csv, array: isArray(cleaned) };
      });
  const path = params('path');
  const query = params('query');
  const names = paramNames(op.template);
  table[key] = {
    api: op.api,
    operation: `${op.method} ${op.template}`,
    ...(path.length ? { path: { names, schema: objectOf(path) } } : {}),
    ...(query.length
      ? {
          query: {
            arrays: query.filter((q) => q.array && !q.csv).map((q) => q.name),
            ...(query.some((q) => q.csv) ? { csv: query.filter((q) => q.csv).map((q) => q.name) } : {}),
            ...(query.some((q) => q.json) ? { json: query.filter((q) => q.json).map((q) => q.name) } : {}),
            schema: objectOf(query),
          },
        }
      : {}),
    ...(op.body ? { body: { required: op.body.required, schema: clean(op.api, op.body.schema, shared[op.api]) } } : {}),
  };
}
const defs = Object.fromEntries(
  (['cdn', 'cloud'] as const).map((api) => [
    api,
    Object.fromEntries(
      [...shared[api]].sort().map((name) => [name, clean(api, componentOf(api, name), shared[api], [name])]),
    ),
  ]),
);

const lit = (v: unknown) => JSON.stringify(v);
const source = `// GENERATED by scripts/gen-gcore-request-schemas.ts from Gcore's OpenAPI specs (cdn_api.yaml ${versionOf('cdn')},
// cloud_api.yaml ${versionOf('cloud')}); do not edit, run the script again. The request schemas of exactly the
// operations the simulator routes, keyed by the route table's method and path: path and query parameters (as
// objects) and the JSON body, as JSON Schema for Ajv. $refs are resolved: a component used once is inlined, one
// used more often is in REQUEST_DEFS and referenced as '<api>#/$defs/<name>'. OpenAPI 3.0's nullable is folded
// into the types, oneOf is read as anyOf (the vendor's alternatives overlap, and Django REST and the Cloud API
// pick one by its fields, not by exclusivity). Not checked, having no definition a validator could apply:
// formats ${[...notes.formats].sort().map(lit).join(', ') || 'none'}; patterns that are not ECMAScript ${[...notes.patterns].map(lit).join(', ') || 'none'}.
/* eslint-disable max-lines -- generated data: one entry per simulator route */

/** A JSON Schema as Ajv reads it. */
export type JsonSchema = boolean | { readonly [keyword: string]: unknown };

export type RequestSchema = {
  readonly api: 'cdn' | 'cloud';
  /** The vendor's operation: method and the spec's path template. */
  readonly operation: string;
  /** Path parameters as an object keyed by the spec's names, which \`names\` lists in path order. */
  readonly path?: { readonly names: readonly string[]; readonly schema: JsonSchema };
  /** Query parameters as an object; \`arrays\` repeat the key, \`csv\` join with commas, \`json\` hold JSON text. */
  readonly query?: {
    readonly arrays: readonly string[];
    readonly csv?: readonly string[];
    readonly json?: readonly string[];
    readonly schema: JsonSchema;
  };
  readonly body?: { readonly required: boolean; readonly schema: JsonSchema };
};

/** Component schemas used by more than one request, per API. */
export const REQUEST_DEFS: Readonly<Record<'cdn' | 'cloud', Readonly<Record<string, JsonSchema>>>> = ${lit(defs)};

/** '<METHOD> <route path>' → the operation's request schemas. */
export const REQUEST_SCHEMAS: Readonly<Record<string, RequestSchema>> = ${lit(table)};
`;

const formatted = await format(source, {
  parser: 'typescript',
  filepath: OUT,
  ...JSON.parse(readFileSync(join(ROOT, '.prettierrc.json'), 'utf8')),
});
const summary = `${ops.size} routes, ${Object.values(table).filter((t) => (t as Node).body).length} bodies, ${shared.cdn.size + shared.cloud.size} shared components, ${Math.round(formatted.length / 1024)} KiB`;
if (process.argv.includes('--check')) {
  let current = '';
  try {
    current = readFileSync(OUT, 'utf8');
  } catch {
    // absent: stale
  }
  if (current !== formatted) {
    console.error(
      `${OUT} is not what the specs in ${specDir} and the route table give (run the script without --check)`,
    );
    process.exit(1);
  }
  console.log(`request-schemas.ts is current (${summary})`);
} else {
  writeFileSync(OUT, formatted);
  console.log(`request-schemas.ts: ${summary}`);
}
