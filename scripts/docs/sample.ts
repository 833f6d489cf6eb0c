// A sample value for a schema, for the generated examples: the required fields only, each given the
// first allowed value, its minimum, or a placeholder string. The generator checks that the sample
// parses with the schema, so an example on a page is always a valid declaration.
import type { z } from 'zod';
import { jsonSchemaOf } from './fields.js';

type Json = Record<string, unknown> & {
  type?: string | string[];
  properties?: Record<string, Json>;
  required?: string[];
  additionalProperties?: Json | boolean;
  items?: Json;
  anyOf?: Json[];
  oneOf?: Json[];
  enum?: unknown[];
  const?: unknown;
  minimum?: number;
  exclusiveMinimum?: number;
  minItems?: number;
  format?: string;
};

/** The required fields of an object schema, sampled; `keys` adds optional fields worth showing. */
export function sampleOf(schema: z.ZodType, keys: readonly string[] = []): Record<string, unknown> {
  const root = jsonSchemaOf(schema, 'input') as Json;
  return sampleObject(root, keys, 0);
}

function sampleObject(node: Json, extra: readonly string[], depth: number): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const required = new Set([...(node.required ?? []), ...extra]);
  for (const [key, child] of Object.entries(node.properties ?? {})) {
    if (required.has(key)) out[key] = sampleValue(key, child, depth + 1);
  }
  return out;
}

function sampleValue(key: string, node: Json, depth: number): unknown {
  if (node.const !== undefined) return node.const;
  if (node.enum) return node.enum[0];
  const alts = node.anyOf ?? node.oneOf;
  if (alts) return sampleValue(key, alts.find((a) => a.type !== 'null') ?? alts[0]!, depth);
  const type = Array.isArray(node.type) ? node.type[0] : node.type;
  switch (type) {
    case 'string':
      return stringFor(key, node.format, (node as { pattern?: string }).pattern);
    case 'integer':
    case 'number':
      return node.minimum ?? (node.exclusiveMinimum !== undefined ? node.exclusiveMinimum + 1 : 1);
    case 'boolean':
      return true;
    case 'array':
      return node.minItems && node.items ? [sampleValue(key, node.items, depth + 1)] : [];
    case 'object':
      if (depth > 4) return {};
      if (node.properties) return sampleObject(node, [], depth);
      return {};
    default:
      return 'example';
  }
}

function stringFor(key: string, format: string | undefined, pattern?: string): string {
  if (format === 'ipv4' || /ip(v4)?(address)?$/i.test(key)) return '198.18.0.10';
  if (format === 'uuid' || pattern?.includes('{8}-')) return '00000000-0000-4000-8000-000000000000';
  if (format === 'uri' || format === 'url') return 'https://example.com';
  if (format === 'email') return 'ops@example.com';
  if (/cidr/i.test(key)) return '198.18.0.0/24';
  if (/path$/i.test(key)) return '/etc/example.conf';
  if (/id$/i.test(key)) return `<${key}>`;
  return 'example';
}
