// Deterministic stand-ins for what a vendor answers: a value of an output schema's type for one
// resource, the same on every run (derived from a hash of the resource's address), and an id in the
// shape of the vendor's ids. The schema is read through the engine's one zod walker (zod-def.ts).
import { createHash } from 'node:crypto';
import type { z } from 'zod';
import { defOf, facetsOf, objectView, shapeSchema } from '../engine/validate/zod-def.js';

/** A fixed time for every timestamp a mock makes, so snapshots and assertions never see the clock. */
export const MOCK_TIME = '2026-01-01T00:00:00.000Z';

/** 32 hex digits derived from `seed`: the same seed gives the same digits on every run and machine. */
export function hashHex(seed: string): string {
  return createHash('sha256').update(seed).digest('hex').slice(0, 32);
}

/** A UUID (version 4 layout) derived from `seed`. */
function uuidOf(seed: string): string {
  const h = hashHex(seed);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** A number from `seed` in [lo, hi]. */
function intOf(seed: string, lo: number, hi: number): number {
  const n = parseInt(hashHex(seed).slice(0, 8), 16);
  return lo + (n % (hi - lo + 1));
}

/**
 * The id a mock gives a new object, in the vendor's shape where that is cheap: Civo's UUIDs
 * (provb), Gcore's numbers (provc), LXD's names (prova); `<noun>-<hex>` for any other provider.
 */
export function mockId(provider: string, token: string, seed: string, inputs: Record<string, unknown>): string {
  if (provider === 'provb') return uuidOf(seed);
  if (provider === 'provc') return String(intOf(seed, 100_000, 999_999));
  if (provider === 'prova' && typeof inputs.name === 'string') return inputs.name;
  return `${nounOf(token)}-${hashHex(seed).slice(0, 8)}`;
}

/** The lowerCamel noun of a token: `provb:index/sshKey:SshKey` → `sshKey`. */
export function nounOf(token: string): string {
  return token.split(':')[1]?.split('/').pop() ?? token;
}

/** A string for `key`, in the format the schema states, else one its name suggests. */
function stringFor(schema: z.ZodType, key: string, seed: string): string {
  const f = facetsOf(schema);
  const s = `${seed}/${key}`;
  const ip = () => `10.${intOf(`${s}1`, 0, 255)}.${intOf(`${s}2`, 0, 255)}.${intOf(`${s}3`, 1, 254)}`;
  const host = () => `${key.toLowerCase()}-${hashHex(s).slice(0, 6)}.example.test`;
  let v: string;
  switch (f.format) {
    case 'uuid':
    case 'guid':
      v = uuidOf(s);
      break;
    case 'ipv4':
      v = ip();
      break;
    case 'ipv6':
      v = `fd00::${hashHex(s).slice(0, 4)}`;
      break;
    case 'cidrv4':
      v = `${ip().replace(/\.\d+$/, '.0')}/24`;
      break;
    case 'email':
      v = `${key.toLowerCase()}@example.test`;
      break;
    case 'url':
      v = `https://${host()}/`;
      break;
    case 'datetime':
      v = MOCK_TIME;
      break;
    case 'date':
      v = MOCK_TIME.slice(0, 10);
      break;
    case 'hostname':
      v = host();
      break;
    default:
      v = /cidr/i.test(key)
        ? `${ip().replace(/\.\d+$/, '.0')}/24`
        : /^mac/i.test(key)
          ? `00:16:3e:${hashHex(s)
              .slice(0, 6)
              .replace(/(..)(?=.)/g, '$1:')}`
          : /ipv6/i.test(key)
            ? `fd00::${hashHex(s).slice(0, 4)}`
            : /(^ip|ip$|Ip$|address$|Address$)/.test(key) && !/mac/i.test(key)
              ? ip()
              : /(url|endpoint)$/i.test(key)
                ? `https://${host()}/`
                : /(fqdn|hostname|domain|dns)$/i.test(key)
                  ? host()
                  : /(At|Time|Date)$/.test(key)
                    ? MOCK_TIME
                    : /(^id|Id|ID)$/.test(key)
                      ? uuidOf(s)
                      : `${key || 'value'}-${hashHex(s).slice(0, 6)}`;
  }
  if (f.minLength !== undefined && v.length < f.minLength) v = v.padEnd(f.minLength, '0');
  if (f.maxLength !== undefined && v.length > f.maxLength) v = v.slice(0, f.maxLength);
  return v;
}

/**
 * A value of `schema`'s type for the field `key`, derived from `seed`: formats and bounds honoured,
 * optional fields left out, lists empty (or as long as their minimum), the first member of a union
 * or an enum. Values are JSON (no Date, Map or bigint).
 */
export function sampleValue(schema: z.ZodType | undefined, key: string, seed: string, depth = 0): unknown {
  const s = shapeSchema(schema);
  const d = defOf(s);
  if (!d || !s || depth > 12) return null;
  const f = facetsOf(s);
  switch (d.type) {
    case 'string':
      return stringFor(s, key, seed);
    case 'number': {
      const lo = f.min ?? 0;
      const hi = f.max ?? Math.max(lo + 999, lo);
      return intOf(`${seed}/${key}`, Math.ceil(lo), Math.floor(hi));
    }
    case 'bigint':
      return intOf(`${seed}/${key}`, 0, 999);
    case 'boolean':
      return false;
    case 'date':
      return MOCK_TIME;
    case 'null':
    case 'undefined':
    case 'void':
    case 'any':
    case 'unknown':
      return null;
    case 'literal':
      return d.values?.[0] ?? null;
    case 'enum':
      return Object.values(d.entries ?? {})[0] ?? null;
    case 'array': {
      const n = f.minLength ?? 0;
      return Array.from({ length: n }, (_, i) => sampleValue(d.element, key, `${seed}[${i}]`, depth + 1));
    }
    case 'tuple':
      return (d.items ?? []).map((item, i) => sampleValue(item, key, `${seed}[${i}]`, depth + 1));
    case 'record':
    case 'map':
      return {};
    case 'set':
      return [];
    case 'union':
      return sampleValue(d.options?.[0], key, seed, depth + 1);
    default: {
      const view = objectView(s);
      if (!view) return null;
      const out: Record<string, unknown> = {};
      for (const [k, field] of Object.entries(view.shape)) {
        if (defOf(field)?.type === 'optional') continue;
        out[k] = sampleValue(field, k, `${seed}.${k}`, depth + 1);
      }
      return out;
    }
  }
}
