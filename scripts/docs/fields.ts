// The fields of a zod schema as reference-table rows: path, type, required, default, description
// and constraints, read from zod's own JSON Schema export (so `.describe()` and `.meta()` show up
// as `description`). Nested objects, list items and map values get rows of their own, with paths
// in the engine's notation ('rules[*].cidrs', 'config.*'), so replaceOn and secrets match them.
import { z } from 'zod';

export type Field = {
  /** 'ingressRules[*].protocol'; a map's values are 'config.*'. */
  readonly path: string;
  readonly type: string;
  readonly required: boolean;
  /** JSON of the default, or undefined when there is none. */
  readonly defaultJson: string | undefined;
  readonly description: string | undefined;
  readonly constraints: readonly string[];
};

type Json = {
  type?: string | string[];
  properties?: Record<string, Json>;
  required?: string[];
  additionalProperties?: Json | boolean;
  items?: Json;
  prefixItems?: Json[];
  anyOf?: Json[];
  oneOf?: Json[];
  allOf?: Json[];
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  description?: string;
  $ref?: string;
  $defs?: Record<string, Json>;
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minItems?: number;
  maxItems?: number;
};

/** The schema as JSON Schema: 'input' shows what a declaration may omit, 'output' what a read returns. */
export function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output'): Json {
  return z.toJSONSchema(schema, { io, unrepresentable: 'any', cycles: 'ref', reused: 'inline' }) as Json;
}

/** The description of the schema itself (a resource's or lookup's summary), if it has one. */
export function schemaDescription(schema: z.ZodType): string | undefined {
  return jsonSchemaOf(schema, 'input').description;
}

/** Every field of an object schema, depth first, parents before their children. */
export function fieldsOf(schema: z.ZodType, io: 'input' | 'output'): Field[] {
  const root = jsonSchemaOf(schema, io);
  const out: Field[] = [];
  walkObject(root, root, '', out, 0);
  return out;
}

function deref(node: Json, root: Json): Json {
  if (!node.$ref) return node;
  const name = node.$ref.replace(/^#\/\$defs\//, '');
  const target = root.$defs?.[name];
  return target ? { ...target, ...withoutRef(node) } : node;
}

function withoutRef(node: Json): Json {
  const { $ref: _ref, ...rest } = node;
  return rest;
}

/** Drops `null` from a union, so an optional-or-null field reads as its type. */
function nonNull(node: Json): Json {
  const alts = node.anyOf ?? node.oneOf;
  if (!alts) return node;
  const rest = alts.filter((a) => a.type !== 'null');
  return rest.length === 1 ? { ...rest[0]!, description: node.description ?? rest[0]!.description, default: node.default ?? rest[0]!.default } : node;
}

function walkObject(node: Json, root: Json, prefix: string, out: Field[], depth: number): void {
  const obj = nonNull(deref(node, root));
  if (depth > 6 || !obj.properties) return;
  const required = new Set(obj.required ?? []);
  for (const [key, raw] of Object.entries(obj.properties)) {
    const child = nonNull(deref(raw, root));
    const path = prefix ? `${prefix}.${key}` : key;
    out.push({
      path,
      type: typeOf(child, root, 0),
      required: required.has(key),
      defaultJson: child.default === undefined ? undefined : JSON.stringify(child.default),
      description: raw.description ?? child.description,
      constraints: constraintsOf(child),
    });
    walkChildren(child, root, path, out, depth + 1);
  }
}

function walkChildren(node: Json, root: Json, path: string, out: Field[], depth: number): void {
  if (node.properties) return walkObject(node, root, path, out, depth);
  if (node.items) {
    const item = nonNull(deref(node.items, root));
    if (item.properties) walkObject(item, root, `${path}[*]`, out, depth);
    return;
  }
  if (node.additionalProperties && typeof node.additionalProperties === 'object') {
    const value = nonNull(deref(node.additionalProperties, root));
    if (value.properties) walkObject(value, root, `${path}.*`, out, depth);
  }
}

/** A short type: string, integer, 'tcp' | 'udp', list<string>, map<string, string>, object. */
export function typeOf(raw: Json, root: Json, depth: number): string {
  const node = nonNull(deref(raw, root));
  if (depth > 4) return 'object';
  if (node.const !== undefined) return JSON.stringify(node.const).replaceAll('"', "'");
  if (node.enum) return node.enum.map((v) => JSON.stringify(v).replaceAll('"', "'")).join(' | ');
  const alts = node.anyOf ?? node.oneOf;
  if (alts) return [...new Set(alts.map((a) => typeOf(a, root, depth + 1)))].join(' | ');
  if (node.allOf?.length === 1) return typeOf(node.allOf[0]!, root, depth + 1);
  const type = Array.isArray(node.type) ? node.type.filter((t) => t !== 'null').join(' | ') : node.type;
  switch (type) {
    case 'array':
      if (node.prefixItems) return `[${node.prefixItems.map((p) => typeOf(p, root, depth + 1)).join(', ')}]`;
      return `list<${node.items ? typeOf(node.items, root, depth + 1) : 'any'}>`;
    case 'object':
      if (node.properties) return 'object';
      if (node.additionalProperties && typeof node.additionalProperties === 'object') return `map<string, ${typeOf(node.additionalProperties, root, depth + 1)}>`;
      return 'object';
    case undefined:
      return 'any';
    default:
      return node.format ? `${type} (${node.format})` : type;
  }
}

function constraintsOf(node: Json): string[] {
  const c: string[] = [];
  if (node.minLength !== undefined) c.push(`min length ${node.minLength}`);
  if (node.maxLength !== undefined) c.push(`max length ${node.maxLength}`);
  // zod gives every integer the safe-integer bounds; only a bound of the schema's own is news.
  const own = (n: number | undefined): n is number => n !== undefined && Math.abs(n) < Number.MAX_SAFE_INTEGER;
  if (own(node.minimum)) c.push(`≥ ${node.minimum}`);
  if (own(node.exclusiveMinimum)) c.push(`> ${node.exclusiveMinimum}`);
  if (own(node.maximum)) c.push(`≤ ${node.maximum}`);
  if (own(node.exclusiveMaximum)) c.push(`< ${node.exclusiveMaximum}`);
  if (node.minItems !== undefined) c.push(`at least ${node.minItems} item${node.minItems === 1 ? '' : 's'}`);
  if (node.maxItems !== undefined) c.push(`at most ${node.maxItems} items`);
  // A format's own pattern (date-time, email, ...) says less than the format's name in the type.
  if (node.pattern !== undefined && node.format === undefined) c.push(`matches \`${node.pattern}\``);
  return c;
}
