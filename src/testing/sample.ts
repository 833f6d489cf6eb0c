// Deterministic stand-ins for what a vendor answers: a value of an output schema's type for one
// resource, the same on every run (derived from a hash of the resource's address), and an id in the
// shape of the vendor's ids. A schema is read once, through the engine's one zod walker
// (zod-def.ts), into a generator: a function from a seed to a value, cheap enough for 10,000 objects.
import type { z } from 'zod';
import { defOf, facetsOf, objectView, shapeSchema } from '../engine/validate/zod-def.js';

/** A fixed time for every timestamp a mock makes, so snapshots and assertions never see the clock. */
export const MOCK_TIME = '2026-01-01T00:00:00.000Z';

/**
 * What a value is derived from: a text, hashed as one string, made of a parent seed's text and a
 * tail of its own without joining them (an object's seed, then `/<field>` for each field it makes).
 * A root seed, and one that has children, keeps FNV-1a's running state after its text, per salt, so
 * an object's part is hashed once for its id and all its fields, not once per field and salt.
 */
export class Seed {
  #states: number[] | undefined;
  #shared = false;
  constructor(
    readonly tail: string,
    readonly parent?: Seed,
  ) {}

  /**
   * FNV-1a's state (before the final avalanche) after this seed's whole text, started from `salt`,
   * as a signed 32-bit number: the same bits as the unsigned one, and a small integer to V8 (an
   * unsigned one above 2^31 is a boxed number per character until the JIT compiles the loop).
   */
  state(salt: number): number {
    const kept = this.#states?.[salt];
    if (kept !== undefined) return kept;
    let h = this.parent ? this.parent.state(salt) : 0x811c9dc5 ^ salt;
    const t = this.tail;
    for (let i = 0; i < t.length; i++) h = Math.imul(h ^ t.charCodeAt(i), 0x01000193);
    if (this.#shared || !this.parent) (this.#states ??= [])[salt] = h;
    return h;
  }

  /** The seed whose text is this one's followed by `tail`. */
  child(tail: string): Seed {
    this.#shared = true;
    return new Seed(tail, this);
  }
}

/** FNV-1a, 32 bits: the same seed gives the same number on every run and machine. */
function fnv(seed: Seed, salt = 0): number {
  return avalanche(seed.state(salt));
}

/** A final avalanche, so seeds that differ in their last character differ in every digit (unsigned 32 bits). */
function avalanche(h: number): number {
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** The character codes of the lowercase hex digits. */
const DIGITS = Array.from('0123456789abcdef', (c) => c.charCodeAt(0));

/**
 * 8 lowercase hex digits of a 32-bit number (as toString(16).padStart(8, '0'), without its slow
 * radix path): one string made from its codes, not eight made one character longer each time.
 */
function hex(n: number): string {
  return String.fromCharCode(
    DIGITS[(n >>> 28) & 15]!,
    DIGITS[(n >>> 24) & 15]!,
    DIGITS[(n >>> 20) & 15]!,
    DIGITS[(n >>> 16) & 15]!,
    DIGITS[(n >>> 12) & 15]!,
    DIGITS[(n >>> 8) & 15]!,
    DIGITS[(n >>> 4) & 15]!,
    DIGITS[n & 15]!,
  );
}
const hex8 = (seed: Seed, salt = 0): string => hex(fnv(seed, salt));

/** 32 hex digits derived from `seed`: hex8 with salts 1 to 4. */
export function hashHex(seed: string): string {
  const parts = hashParts(new Seed(seed));
  return String.fromCharCode(...Array.from({ length: 32 }, (_, k) => digitCode(parts, k)));
}

/** hashHex's four 32-bit parts: FNV-1a of `seed` with salts 1 to 4. */
function hashParts(seed: Seed): readonly number[] {
  return [fnv(seed, 1), fnv(seed, 2), fnv(seed, 3), fnv(seed, 4)];
}

/** The character code of hashHex's digit `k` (0 to 31), from its four parts (8 digits each, high first). */
function digitCode(parts: readonly number[], k: number): number {
  return DIGITS[(parts[k >> 3]! >>> (28 - 4 * (k & 7))) & 15]!;
}

/**
 * Where each character of a UUID comes from: a digit of hashHex (0 to 31), or the character itself
 * (as its code, above 31).
 */
const UUID_LAYOUT: readonly number[] = [
  ...[0, 1, 2, 3, 4, 5, 6, 7],
  '-',
  ...[8, 9, 10, 11],
  '-',
  '4',
  ...[13, 14, 15],
  '-',
  'a',
  ...[17, 18, 19],
  '-',
  ...[20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31],
].map((x) => (typeof x === 'number' ? x : x.charCodeAt(0)));

/** uuidOf's character codes, filled in place for each UUID (one list for all: a mock makes two per instance). */
const uuidCodes: number[] = new Array<number>(UUID_LAYOUT.length).fill(0);

/**
 * A UUID (version 4 layout) derived from `seed`: hashHex's digits 0-7, 8-11, 13-15, 17-19 and 20-31
 * with its dashes, 4 and a. Made from its codes in one string: V8 keeps a template's concatenation
 * as a tree of pieces (about 370 bytes a UUID, against 65 flat), and a mock keeps its ids and
 * outputs for as long as the test's state.
 */
function uuidOf(seed: Seed): string {
  const parts = hashParts(seed);
  for (let i = 0; i < UUID_LAYOUT.length; i++) {
    const x = UUID_LAYOUT[i]!;
    uuidCodes[i] = x < 32 ? digitCode(parts, x) : x;
  }
  return String.fromCharCode.apply(null, uuidCodes);
}

/** A number from `seed` in [lo, hi]. */
function intOf(seed: Seed, lo: number, hi: number): number {
  return lo + (fnv(seed) % (hi - lo + 1));
}

/**
 * The id a mock gives a new object, in the vendor's shape where that is cheap: Civo's UUIDs
 * (provb), Gcore's numbers (provc), LXD's names (prova); `<noun>-<hex>` for any other provider.
 */
export function mockId(provider: string, token: string, seed: Seed, inputs: Record<string, unknown>): string {
  if (provider === 'provb') return uuidOf(seed);
  if (provider === 'provc') return String(intOf(seed, 100_000, 999_999));
  if (provider === 'prova' && typeof inputs.name === 'string') return inputs.name;
  return `${nounOf(token)}-${hex8(seed)}`;
}

/** The lowerCamel noun of a token: `provb:index/sshKey:SshKey` → `sshKey`. */
export function nounOf(token: string): string {
  return token.split(':')[1]?.split('/').pop() ?? token;
}

/**
 * `parts` as one flat string: a template's result of 13 characters or more is kept by V8 as a tree
 * of its pieces (a mock keeps its outputs for as long as the test's state), a join's is not.
 */
function flat(...parts: (string | number)[]): string {
  return parts.join('');
}

/** Makes a value from a seed. */
export type Generator = (seed: Seed) => unknown;

/** The generator of strings for the field `key`: in the format the schema states, else one its name suggests. */
function stringGenerator(schema: z.ZodType, key: string): Generator {
  const f = facetsOf(schema);
  const lower = key.toLowerCase();
  const ip = (s: Seed) => flat('10.', fnv(s, 5) & 255, '.', fnv(s, 6) & 255, '.', 1 + (fnv(s, 7) % 254));
  const host = (s: Seed) => flat(lower, '-', hex8(s).slice(0, 6), '.example.test');
  const make: (s: Seed) => string = (() => {
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
        return () => `${lower}@example.test`;
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
    return (s) => flat(key || 'value', '-', hex8(s).slice(0, 6));
  })();
  const { minLength, maxLength } = f;
  const tail = `/${key}`;
  if (minLength === undefined && maxLength === undefined) return (seed) => make(seed.child(tail));
  return (seed) => {
    let v = make(seed.child(tail));
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
      const tail = `/${key}`;
      return (seed) => intOf(seed.child(tail), lo, Math.max(lo, hi));
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
      return (seed) => Array.from({ length: n }, (_, i) => item(seed.child(`[${i}]`)));
    }
    case 'tuple': {
      const items = (d.items ?? []).map((it) => generatorOf(it, key, depth + 1));
      return (seed) => items.map((g, i) => g(seed.child(`[${i}]`)));
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
        .map(([k, field]) => [k, generatorOf(field, k, depth + 1), `.${k}`] as const);
      return (seed) => {
        const out: Record<string, unknown> = {};
        for (const [k, g, tail] of fields) out[k] = g(seed.child(tail));
        return out;
      };
    }
    default:
      return () => null;
  }
}
