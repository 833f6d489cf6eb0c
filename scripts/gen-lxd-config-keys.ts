// `tsx scripts/gen-lxd-config-keys.ts --git <lxd git dir> [--ref lxd-5.21.0] [--check]`: writes
// src/providers/a/wire/config-keys.ts, the table of LXD's config keys (instance, project, network
// and storage pool/volume config) with type, default, live-update and value format, from LXD's own
// documentation at that release: the generated metadata (lxd/metadata/configuration.json) and the
// hand-written `{config:option}` blocks of doc/reference/*.md (environment.*, limits.kernel.*, ...).
// Nothing of LXD's code is read; the value formats come from the key's documented type and text,
// plus the few facts the text does not state, each observed on a real daemon (OBSERVED below).
// `--check` writes nothing and exits 1 when the committed table differs.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { format } from 'prettier';

const OUT = join(import.meta.dirname, '..', 'src/providers/a/wire/config-keys.ts');
const arg = (name: string) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const gitDir = arg('--git');
const ref = arg('--ref') ?? 'lxd-5.21.0';
if (!gitDir) {
  console.error('usage: tsx scripts/gen-lxd-config-keys.ts --git <canonical/lxd git dir> [--ref lxd-5.21.0] [--check]');
  process.exit(2);
}
const show = (path: string) =>
  execFileSync('git', ['--git-dir', gitDir, 'show', `${ref}:${path}`], { encoding: 'utf8' });
const docFiles = execFileSync('git', ['--git-dir', gitDir, 'ls-tree', '--name-only', ref, 'doc/reference/'], {
  encoding: 'utf8',
})
  .split('\n')
  .filter((p) => p.endsWith('.md'));

type Doc = {
  type: string;
  defaultdesc?: string;
  liveupdate?: string;
  condition?: string;
  shortdesc?: string;
  longdesc?: string;
};
/** entity ('instance', 'network-bridge', 'storage-dir', ...) → group → key → documentation. */
const docs = new Map<string, Map<string, Map<string, Doc>>>();
const put = (entity: string, group: string, key: string, d: Doc) => {
  if (!docs.has(entity)) docs.set(entity, new Map());
  const groups = docs.get(entity)!;
  if (!groups.has(group)) groups.set(group, new Map());
  groups.get(group)!.set(key, d);
};

const metadata = JSON.parse(show('lxd/metadata/configuration.json')) as {
  configs: Record<string, Record<string, { keys: Record<string, Doc>[] }>>;
};
for (const [entity, groups] of Object.entries(metadata.configs))
  for (const [group, { keys }] of Object.entries(groups))
    for (const row of keys) for (const [key, d] of Object.entries(row)) put(entity, group, key, d);

// `{config:option} <key> <entity>-<group>` blocks written by hand in the reference pages.
const blockRe = /```\{config:option\} (\S+) (\S+)\n((?::\w+: .*\n)*)\n?([\s\S]*?)```/g;
const known = [...docs.keys()].sort((a, b) => b.length - a.length);
for (const file of docFiles) {
  for (const m of show(file).matchAll(blockRe)) {
    const [, key, scope, fields, body] = m as unknown as [string, string, string, string, string];
    const entity = known.find((e) => scope.startsWith(`${e}-`));
    if (!entity) continue;
    const d: Record<string, string> = { longdesc: body.trim() };
    for (const f of fields.matchAll(/:(\w+): "(.*)"/g)) d[f[1]!] = f[2]!;
    put(entity, scope.slice(entity.length + 1), key, d as unknown as Doc);
  }
}

// What the documentation does not say, observed on a real daemon (LXD 5.0.2 on this project's test
// machine, `lxc config set`/`create` with a bad value): the order LXD lists an enum's values in its
// refusal, the keys it accepts that no page lists, and where a key's syntax is not in its text.
const OBSERVED = {
  enumOrder: {
    'limits.memory.enforce': ['soft', 'hard'],
    'dns.mode': ['dynamic', 'managed', 'none'],
    'restricted.*': ['block', 'allow'],
  } as Record<string, string[]>,
  /**
   * image.*: the image properties LXD copies onto an instance at create, accepted and never listed;
   * volatile.cloud-init.instance-id: the spelling LXD 5.0 writes (documented as volatile.cloud_init.instance-id).
   */
  extraInstanceKeys: {
    'image.*': { type: 'string', shortdesc: 'Copy of an image property' },
    'volatile.cloud-init.instance-id': { type: 'string', shortdesc: 'cloud-init instance ID as LXD 5.0 writes it' },
  } as Record<string, Doc>,
};

type Format =
  | 'string'
  | 'bool'
  | 'integer'
  | 'uint32'
  | 'size'
  | 'size-or-percent'
  | 'cpu-limit'
  | 'cpu-allowance'
  | 'expiry'
  | 'schedule'
  | 'mtu'
  | 'cidr4'
  | 'cidr6'
  | 'enum';

function formatOf(entity: string, key: string, d: Doc): { format: Format; values?: string[] } {
  const text = `${d.shortdesc ?? ''}\n${d.longdesc ?? ''}`;
  if (d.type === 'bool') return { format: 'bool' };
  if (/(^|\.)mtu$/.test(key) && !key.startsWith('volatile.')) return { format: 'mtu' };
  if (d.type === 'integer') return { format: entity === 'project' && key.startsWith('limits.') ? 'uint32' : 'integer' };
  if (d.type !== 'string') return { format: 'string' };
  if (key === 'limits.cpu' && entity === 'instance') return { format: 'cpu-limit' };
  if (key === 'limits.cpu.allowance') return { format: 'cpu-allowance' };
  if (/(^|\.)snapshots\.expiry$/.test(key)) return { format: 'expiry' };
  if (/(^|\.)snapshots\.schedule$/.test(key)) return { format: 'schedule' };
  if (/^Percentage of the host's memory or a fixed value in bytes/.test(d.longdesc ?? ''))
    return { format: 'size-or-percent' };
  if (
    /instances-limit-units|size in bytes|value in bytes/.test(text) ||
    /(^|\.)size$/.test(key) ||
    (entity === 'project' && /^limits\.(memory|disk)$/.test(key))
  )
    return { format: 'size' };
  if (/^ipv4\.address$/.test(key) && /CIDR/.test(text)) return { format: 'cidr4' };
  if (/^ipv6\.address$/.test(key) && /CIDR/.test(text)) return { format: 'cidr6' };
  const possible = /Possible values are ([^\n]*?)(?:\.(?:\s|$)|\n|$)/.exec(text);
  if (possible && !key.includes('*')) {
    const values = [...possible[1]!.matchAll(/`([^`]+)`/g)].map((v) => v[1]!);
    const order =
      OBSERVED.enumOrder[key] ??
      (key.startsWith('restricted.') && values.length === 2 ? OBSERVED.enumOrder['restricted.*'] : undefined);
    return { format: 'enum', values: order && order.every((v) => values.includes(v)) ? order : values };
  }
  if (key === 'limits.memory.enforce') return { format: 'enum', values: OBSERVED.enumOrder[key] };
  return { format: 'string' };
}

const clean = (s: string | undefined) =>
  s === undefined ? undefined : s.replace(/`/g, '').replace(/\s+/g, ' ').trim() || undefined;

type Row = {
  key: string;
  format: Format;
  values?: string[];
  default?: string;
  liveUpdate?: string;
  condition?: string;
};
function rows(entity: string, groups: readonly string[] | 'all', extra: Record<string, Doc> = {}): Row[] {
  const out = new Map<string, Row>();
  const g = docs.get(entity);
  if (!g) throw new Error(`LXD ${ref} documents no "${entity}" config`);
  const all: [string, Doc][] = [];
  for (const [group, keys] of g) if (groups === 'all' || groups.includes(group)) all.push(...keys);
  all.push(...Object.entries(extra));
  for (const [key, d] of all) {
    const f = formatOf(entity, key, d);
    out.set(key, {
      key,
      ...f,
      ...(clean(d.defaultdesc) ? { default: clean(d.defaultdesc) } : {}),
      ...(d.liveupdate ? { liveUpdate: clean(d.liveupdate) } : {}),
      ...(d.condition ? { condition: clean(d.condition) } : {}),
    });
  }
  return [...out.values()].sort((a, b) => a.key.localeCompare(b.key));
}

const drivers = [...docs.keys()].filter((e) => e.startsWith('storage-')).map((e) => e.slice(8));
const networkTypes = [...docs.keys()].filter((e) => e.startsWith('network-')).map((e) => e.slice(8));
const tables: Record<string, Row[]> = {
  instance: rows('instance', 'all', OBSERVED.extraInstanceKeys),
  project: rows('project', 'all'),
};
for (const t of networkTypes) tables[`network-${t}`] = rows(`network-${t}`, ['network-conf']);
for (const d of drivers) {
  // A custom volume takes user.* too (the volume pages document it in prose, not as a key row).
  const volume = docs.get(`storage-${d}`)!.has('volume-conf')
    ? rows(`storage-${d}`, ['volume-conf'], {
        'user.*': { type: 'string', shortdesc: 'Free-form user key/value storage' },
      })
    : [];
  tables[`volume-${d}`] = volume;
  // A pool also takes `volume.<key>`: the default of each volume key for the pool's volumes, and user.*.
  tables[`pool-${d}`] = [
    ...rows(`storage-${d}`, ['pool-conf']),
    ...volume
      .filter((r) => !r.key.startsWith('volatile.') && r.key !== 'user.*')
      .map((r) => ({ ...r, key: `volume.${r.key}`, default: undefined, liveUpdate: undefined })),
    { key: 'user.*', format: 'string' as const },
  ].sort((a, b) => a.key.localeCompare(b.key));
}

const lit = (r: Row) =>
  `{ ${Object.entries(r)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}: ${JSON.stringify(v)}`)
    .join(', ')} },`;
const source = `// GENERATED by scripts/gen-lxd-config-keys.ts from LXD ${ref.replace(/^lxd-/, '')}'s documentation (lxd/metadata/configuration.json
// and the {config:option} blocks of doc/reference/*.md); do not edit, run the script again. One row per
// documented key: its value format (from its documented type and text), default, live-update and
// condition. A key with \`*\` matches any rest; \`<name>\` and \`NAME\` match one dotted segment or more.
/* eslint-disable max-lines -- generated data: one row per documented LXD config key */

/** How a value is checked: bool, integer, a byte size (1GiB, 500MB), a size or percentage, a CIDR, one of \`values\`, ... */
export type ConfigKeyFormat =
${['string', 'bool', 'integer', 'uint32', 'size', 'size-or-percent', 'cpu-limit', 'cpu-allowance', 'expiry', 'schedule', 'mtu', 'cidr4', 'cidr6', 'enum'].map((f) => `  | '${f}'`).join('\n')};

/** One documented key. \`liveUpdate\` is LXD's own column ("yes", "no", "yes (exec)"), absent where it has none. */
export type ConfigKey = {
  readonly key: string;
  readonly format: ConfigKeyFormat;
  readonly values?: readonly string[];
  readonly default?: string;
  readonly liveUpdate?: string;
  readonly condition?: string;
};

/** The LXD release the table was generated from. */
export const LXD_CONFIG_RELEASE = ${JSON.stringify(ref.replace(/^lxd-/, ''))};

/** The tables: instance (and profile) config, project config, network config by network type, pool and custom volume config by driver. */
export const configKeys = {
${Object.entries(tables)
  .map(([name, list]) => `  ${JSON.stringify(name)}: [\n${list.map((r) => `    ${lit(r)}`).join('\n')}\n  ],`)
  .join('\n')}
} as const satisfies Record<string, readonly ConfigKey[]>;

export type ConfigTable = keyof typeof configKeys;
`;

const formatted = await format(source, {
  parser: 'typescript',
  filepath: OUT,
  ...JSON.parse(readFileSync(join(import.meta.dirname, '..', '.prettierrc.json'), 'utf8')),
});
const count = Object.values(tables).reduce((n, t) => n + t.length, 0);
if (process.argv.includes('--check')) {
  const current = readFileSync(OUT, 'utf8');
  if (current !== formatted) {
    console.error(`${OUT} is not what LXD ${ref}'s documentation gives (run the script without --check)`);
    process.exit(1);
  }
  console.log(`config-keys.ts is current (${count} rows from LXD ${ref})`);
} else {
  writeFileSync(OUT, formatted);
  console.log(`config-keys.ts: ${count} rows in ${Object.keys(tables).length} tables from LXD ${ref}`);
}
