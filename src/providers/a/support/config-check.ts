// LXD's config keys checked against the table generated from its documentation (config-keys.ts):
// which row a key is (patterns `user.*`, `volatile.<name>.hwaddr`, `tunnel.NAME.id`), whether a
// value has the row's format, with the words LXD itself refuses it with, and the nearest known key
// for a misspelt one. Used by the fake LXD to refuse and by the resources' plan-time checks.
import { configKeys, type ConfigKey, type ConfigTable } from '../wire/config-keys.js';

/** A key LXD would refuse: unknown, or known with a value not of its format. */
export type ConfigProblem = {
  readonly key: string;
  readonly value: string;
  readonly kind: 'unknown' | 'invalid';
  /** LXD's own words for the value (`Invalid value for a boolean "maybe"`), or for the key (`Unknown configuration key: x`). */
  readonly reason: string;
  /** What the key takes, for a person ("a size like 1GiB or 500MB, or a percentage"). */
  readonly expected?: string;
  /** The nearest documented key, for an unknown one. */
  readonly suggestion?: string;
};

const compiled = new Map<ConfigTable, { exact: Map<string, ConfigKey>; patterns: [RegExp, ConfigKey][] }>();
function indexOf(table: ConfigTable) {
  let ix = compiled.get(table);
  if (ix) return ix;
  ix = { exact: new Map(), patterns: [] };
  for (const row of configKeys[table] as readonly ConfigKey[]) {
    if (!/[*<]|NAME/.test(row.key)) ix.exact.set(row.key, row);
    else {
      const re = row.key
        .split(/(\*|<name>|NAME)/)
        .map((part) => (part === '*' ? '.+' : part === '<name>' || part === 'NAME' ? '[^.]+' : escape(part)))
        .join('');
      ix.patterns.push([new RegExp(`^${re}$`), row]);
    }
  }
  compiled.set(table, ix);
  return ix;
}
const escape = (s: string) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&');

/** The documented row of `key` in any of `tables` (first wins), or undefined when LXD does not know it. */
export function findConfigKey(tables: readonly ConfigTable[], key: string): ConfigKey | undefined {
  for (const t of tables) {
    const ix = indexOf(t);
    const row = ix.exact.get(key) ?? ix.patterns.find(([re]) => re.test(key))?.[1];
    if (row) return row;
  }
  return undefined;
}

const SIZE = /^(\d+)\s*(B|kB|MB|GB|TB|PB|EB|KiB|MiB|GiB|TiB|PiB|EiB)?$/;
const BOOL = new Set(['true', 'false', '1', '0', 'yes', 'no', 'on', 'off']);
const SCHEDULE_ALIASES = new Set([
  '@hourly',
  '@daily',
  '@midnight',
  '@weekly',
  '@monthly',
  '@annually',
  '@yearly',
  '@startup',
  '@never',
]);

const describe: Record<ConfigKey['format'], string> = {
  string: 'a string',
  bool: 'a boolean (true or false)',
  integer: 'an integer',
  uint32: 'a whole number from 0 to 4294967295',
  size: 'a size like 1GiB or 500MB',
  'size-or-percent': 'a size like 1GiB or 500MB, or a percentage like 50%',
  'cpu-limit': 'a CPU count like 2 or a CPU set like 0-3,5',
  'cpu-allowance': 'a percentage like 50% or a time slice like 25ms/100ms',
  expiry: 'an expiry like 2w or 1d 6H (units M H d w m y)',
  schedule: 'a cron expression of five fields or @hourly, @daily, ...',
  mtu: 'an MTU (an integer)',
  cidr4: 'an IPv4 address in CIDR notation like 10.0.0.1/24, none or auto',
  cidr6: 'an IPv6 address in CIDR notation like fd42::1/64, none or auto',
  enum: 'one of the documented values',
};

/** What `row` takes, for a person. */
export function expectedOf(row: ConfigKey): string {
  return row.format === 'enum' ? `one of ${(row.values ?? []).join(', ')}` : describe[row.format];
}

function isCidr(v: string, family: 4 | 6): boolean {
  const [addr, prefix, ...rest] = v.split('/');
  if (rest.length || prefix === undefined || !/^\d+$/.test(prefix)) return false;
  if (family === 4) {
    const parts = addr!.split('.');
    return parts.length === 4 && parts.every((p) => /^\d{1,3}$/.test(p) && Number(p) < 256) && Number(prefix) <= 32;
  }
  return (
    /^[0-9a-fA-F:]+$/.test(addr!) &&
    addr!.includes(':') &&
    (addr!.match(/::/g) ?? []).length <= 1 &&
    Number(prefix) <= 128
  );
}

const isCpuSet = (v: string) =>
  v
    .split(',')
    .every(
      (part) =>
        /^\d+(-\d+)?$/.test(part) && (!part.includes('-') || Number(part.split('-')[0]) <= Number(part.split('-')[1])),
    );

/** LXD's words refusing `value` for `row`, or null when LXD takes it (an empty value always unsets). */
export function valueError(row: ConfigKey, value: string): string | null {
  if (value === '') return null;
  switch (row.format) {
    case 'string':
      return null;
    case 'bool':
      return BOOL.has(value.toLowerCase()) ? null : `Invalid value for a boolean "${value}"`;
    case 'integer':
      return /^[+-]?\d+$/.test(value) && Number.isSafeInteger(Number(value))
        ? null
        : `Invalid value for an integer "${value}"`;
    case 'uint32':
      if (!/^\d+$/.test(value))
        return `Invalid value for uint32 "${value}": strconv.ParseUint: parsing "${value}": invalid syntax`;
      return Number(value) <= 4294967295
        ? null
        : `Invalid value for uint32 "${value}": strconv.ParseUint: parsing "${value}": value out of range`;
    case 'size':
      return SIZE.test(value) ? null : `Invalid value: ${value}`;
    case 'size-or-percent':
      return SIZE.test(value) || /^\d+%$/.test(value) ? null : `Invalid value: ${value}`;
    case 'cpu-limit':
      return isCpuSet(value) ? null : 'Invalid CPU limit syntax';
    case 'cpu-allowance':
      return /^\d+%$/.test(value) || /^\d+ms\/\d+ms$/.test(value) ? null : `Invalid allowance: ${value}`;
    case 'expiry':
      return /^\d+[MHdwmy]( \d+[MHdwmy])*$/.test(value) ? null : 'Invalid expiry expression';
    case 'schedule': {
      const ok =
        value.split(',').every((a) => SCHEDULE_ALIASES.has(a.trim())) ||
        (value.trim().split(/\s+/).length === 5 &&
          value
            .trim()
            .split(/\s+/)
            .every((f) => /^[\d*/,\-A-Za-z]+$/.test(f)));
      return ok ? null : 'Schedule must be of the form: <minute> <hour> <day-of-month> <month> <day-of-week>';
    }
    case 'mtu':
      return /^\d+$/.test(value) ? null : `Invalid MTU "${value}"`;
    case 'cidr4':
    case 'cidr6':
      return value === 'none' || value === 'auto' || isCidr(value, row.format === 'cidr4' ? 4 : 6)
        ? null
        : `invalid CIDR address: ${value}`;
    case 'enum':
      return row.values?.includes(value)
        ? null
        : `Invalid value "${value}" (not one of [${(row.values ?? []).join(' ')}])`;
  }
}

/** Edit distance, for the nearest key. */
function distance(a: string, b: string): number {
  const prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let diag = prev[0]!;
    prev[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const up = prev[j]!;
      prev[j] = Math.min(prev[j]! + 1, prev[j - 1]! + 1, diag + (a[i - 1] === b[j - 1] ? 0 : 1));
      diag = up;
    }
  }
  return prev[b.length]!;
}

/** The documented key nearest to a misspelt `key` (at most a third of its length away), if any. */
export function suggestConfigKey(tables: readonly ConfigTable[], key: string): string | undefined {
  let best: { key: string; d: number } | undefined;
  for (const t of tables)
    for (const row of configKeys[t] as readonly ConfigKey[]) {
      if (/[*<]|NAME/.test(row.key) || row.key.startsWith('volatile.')) continue;
      const d = distance(key, row.key);
      if (!best || d < best.d) best = { key: row.key, d };
    }
  return best && best.d > 0 && best.d <= Math.max(2, Math.floor(key.length / 3)) ? best.key : undefined;
}

/** Every key of `config` LXD would refuse under `tables`, in key order. */
export function configProblems(
  tables: readonly ConfigTable[],
  config: Readonly<Record<string, string>>,
): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  for (const key of Object.keys(config).sort()) {
    const value = config[key]!;
    const row = findConfigKey(tables, key);
    if (!row) {
      const suggestion = suggestConfigKey(tables, key);
      problems.push({
        key,
        value,
        kind: 'unknown',
        reason: `Unknown configuration key: ${key}`,
        ...(suggestion ? { suggestion } : {}),
      });
      continue;
    }
    const reason = valueError(row, value);
    if (reason) problems.push({ key, value, kind: 'invalid', reason, expected: expectedOf(row) });
  }
  return problems;
}

/** The tables of an object kind: a network by its type, a pool by its driver, a volume by its pool's driver (all drivers when unknown). */
export function tablesFor(kind: 'instance' | 'project' | 'network' | 'pool' | 'volume', sub?: string): ConfigTable[] {
  if (kind === 'instance' || kind === 'project') return [kind];
  const prefix = `${kind === 'network' ? 'network' : kind}-`;
  const all = (Object.keys(configKeys) as ConfigTable[]).filter((t) => t.startsWith(prefix));
  if (sub === undefined) return all;
  const one = `${prefix}${sub}` as ConfigTable;
  return all.includes(one) ? [one] : [];
}
