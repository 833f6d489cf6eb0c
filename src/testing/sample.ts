// Deterministic stand-ins for what a vendor answers: a value of an output schema's type for one
// resource, the same on every run (derived from a hash of the resource's address), and an id in the
// shape of the vendor's ids. A schema is read once, through the engine's one zod walker
// (zod-def.ts), into a generator: a function from a seed to a value, cheap enough for 10,000 objects.
import type { z } from 'zod';
import { defOf, facetsOf, objectView, shapeSchema } from '../engine/validate/zod-def.js';

/** A fixed time for every timestamp a mock makes, so snapshots and assertions never see the clock. */
export const MOCK_TIME = '2026-01-01T00:00:00.000Z';

/** FNV-1a, 32 bits: the same seed gives the same number on every run and machine. */
function fnv(seed: string, salt = 0): number {
  let h = (0x811c9dc5 ^ salt) >>> 0;
  for (let i = 0; i < seed.length; i++) h = Math.imul(h ^ seed.charCodeAt(i), 0x01000193) >>> 0;
  return avalanche(h);
}

/** A final avalanche, so seeds that differ in their last character differ in every digit. */
function avalanche(h: number): number {
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b) >>> 0;
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35) >>> 0;
  return (h ^ (h >>> 16)) >>> 0;
}

const DIGITS = '0123456789abcdef';
/** 8 lowercase hex digits of a 32-bit number (as toString(16).padStart(8, '0'), without its slow radix path). */
function hex(n: number): string {
  let s = '';
  for (let shift = 28; shift >= 0; shift -= 4) s += DIGITS[(n >>> shift) & 15];
  return s;
}
const hex8 = (seed: string, salt = 0): string => hex(fnv(seed, salt));

/** 32 hex digits derived from `seed`: hex8 with salts 1 to 4, in one pass over the seed. */
export function hashHex(seed: string): string {
  let a = (0x811c9dc5 ^ 1) >>> 0;
  let b = (0x811c9dc5 ^ 2) >>> 0;
  let c = (0x811c9dc5 ^ 3) >>> 0;
  let d = (0x811c9dc5 ^ 4) >>> 0;
  for (let i = 0; i < seed.length; i++) {
    const x = seed.charCodeAt(i);
    a = Math.imul(a ^ x, 0x01000193) >>> 0;
    b = Math.imul(b ^ x, 0x01000193) >>> 0;
    c = Math.imul(c ^ x, 0x01000193) >>> 0;
    d = Math.imul(d ^ x, 0x01000193) >>> 0;
  }
  return hex(avalanche(a)) + hex(avalanche(b)) + hex(avalanche(c)) + hex(avalanche(d));
}

/** A UUID (version 4 layout) derived from `seed`. */
function uuidOf(seed: string): string {
  const h = hashHex(seed);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** A number from `seed` in [lo, hi]. */
function intOf(seed: string, lo: number, hi: number): number {
  return lo + (fnv(seed) % (hi - lo + 1));
}

/**
 * The id a mock gives a new object, in the vendor's shape where that is cheap: Civo's UUIDs
 * (provb), Gcore's numbers (provc), LXD's names (prova); `<noun>-<hex>` for any other provider.
 */
export function mockId(provider: string, token: string, seed: string, inputs: Record<string, unknown>): string {
  if (provider === 'provb') return uuidOf(seed);
  if (provider === 'provc') return String(intOf(seed, 100_000, 999_999));
  if (provider === 'prova' && typeof inputs.name === 'string') return inputs.name;
  return `${nounOf(token)}-${hex8(seed)}`;
}

/** The lowerCamel noun of a token: `provb:index/sshKey:SshKey` → `sshKey`. */
export function nounOf(token: string): string {
  return token.split(':')[1]?.split('/').pop() ?? token;
}

/** Makes a value from a seed. */
export type Generator = (seed: string) => unknown;

/** The generator of strings for the field `key`: in the format the schema states, else one its name suggests. */
function stringGenerator(schema: z.ZodType, key: string): Generator {
  const f = facetsOf(schema);
  const ip = (s: string) => `10.${fnv(s, 5) & 255}.${fnv(s, 6) & 255}.${1 + (fnv(s, 7) % 254)}`;
  const host = (s: string) => `${key.toLowerCase()}-${hex8(s).slice(0, 6)}.example.test`;
  const make: (s: string) => string = (() => {
    switch (f.format) {
      case 'uuid':
      case 'guid':
        return uuidOf;
      case 'ipv4':
        return ip;
      case 'ipv6':
        return (s) => `fd00::${hex8(s).slice(0, 4)}`;
      case 'cidrv4':
        return (s) => `${ip(s).replace(/\.\d+$/, '.0')}/24`;
      case 'email':
        return () => `${key.toLowerCase()}@example.test`;
      case 'url':
        return (s) => `https://${host(s)}/`;
      case 'datetime':
        return () => MOCK_TIME;
      case 'date':
        return () => MOCK_TIME.slice(0, 10);
      case 'hostname':
        return host;
    }
    if (/cidr/i.test(key)) return (s) => `${ip(s).replace(/\.\d+$/, '.0')}/24`;
    if (/^mac/i.test(key))
      return (s) =>
        `00:16:3e:${hex8(s)
          .slice(0, 6)
          .replace(/(..)(?=.)/g, '$1:')}`;
    if (/ipv6/i.test(key)) return (s) => `fd00::${hex8(s).slice(0, 4)}`;
    if (/(^ip|ip$|Ip$|address$|Address$)/.test(key)) return ip;
    if (/(url|endpoint)$/i.test(key)) return (s) => `https://${host(s)}/`;
    if (/(fqdn|hostname|domain|dns)$/i.test(key)) return host;
    if (/(At|Time|Date)$/.test(key)) return () => MOCK_TIME;
    if (/(^id|Id|ID)$/.test(key)) return uuidOf;
    return (s) => `${key || 'value'}-${hex8(s).slice(0, 6)}`;
  })();
  const { minLength, maxLength } = f;
  if (minLength === undefined && maxLength === undefined) return (seed) => make(`${seed}/${key}`);
  return (seed) => {
    let v = make(`${seed}/${key}`);
    if (minLength !== undefined && v.length < minLength) v = v.padEnd(minLength, '0');
    if (maxLength !== undefined && v.length > maxLength) v = v.slice(0, maxLength);
    return v;
  };
}

/**
 * The generator of values of `schema`'s type for the field `key`: formats and bounds honoured,
 * optional fields left out, lists empty (or as long as their minimum), the first member of a union
 * or an enum. Values are JSON (no Date, Map or bigint).
 */
export function generatorOf(schema: z.ZodType | undefined, key: string, depth = 0): Generator {
  const s = shapeSchema(schema);
  const d = defOf(s);
  if (!d || !s || depth > 12) return () => null;
  const f = facetsOf(s);
  switch (d.type) {
    case 'string':
      return stringGenerator(s, key);
    case 'number':
    case 'bigint': {
      const lo = Math.ceil(f.min ?? 0);
      const hi = Math.floor(f.max ?? lo + 999);
      return (seed) => intOf(`${seed}/${key}`, lo, Math.max(lo, hi));
    }
    case 'boolean':
      return () => false;
    case 'date':
      return () => MOCK_TIME;
    case 'literal': {
      const v = d.values?.[0] ?? null;
      return () => v;
    }
    case 'enum': {
      const v = Object.values(d.entries ?? {})[0] ?? null;
      return () => v;
    }
    case 'array': {
      const n = f.minLength ?? 0;
      if (!n) return () => [];
      const item = generatorOf(d.element, key, depth + 1);
      return (seed) => Array.from({ length: n }, (_, i) => item(`${seed}[${i}]`));
    }
    case 'tuple': {
      const items = (d.items ?? []).map((it) => generatorOf(it, key, depth + 1));
      return (seed) => items.map((g, i) => g(`${seed}[${i}]`));
    }
    case 'record':
    case 'map':
      return () => ({});
    case 'set':
      return () => [];
    case 'union':
      return generatorOf(d.options?.[0], key, depth + 1);
    case 'object':
    case 'intersection': {
      const view = objectView(s);
      if (!view) return () => null;
      const fields = Object.entries(view.shape)
        .filter(([, field]) => defOf(field)?.type !== 'optional')
        .map(([k, field]) => [k, generatorOf(field, k, depth + 1)] as const);
      return (seed) => {
        const out: Record<string, unknown> = {};
        for (const [k, g] of fields) out[k] = g(`${seed}.${k}`);
        return out;
      };
    }
    default:
      return () => null;
  }
}
