// Provider A refuses at plan the config LXD refuses at apply: a table of key/value cases across
// instance (config and limits), profile, network, custom volume, pool and project config, each a
// ValidationError issue naming the resource and the field, with did-you-mean for misspelt keys,
// found before any request and all at once; and what LXD takes passes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Engine, MemoryStateStore, ValidationError, type ResourceDecl } from '../../../src/index.js';
import { prova } from '../../../src/providers/a/index.js';
import { simEnv, type SimEnv } from './sim-env.js';

type Case = {
  readonly decl: (config: Record<string, string>) => ResourceDecl;
  readonly field: 'config' | 'limits';
  readonly key: string;
  readonly value: string;
  readonly code: 'unknown_config_key' | 'invalid_config_value';
  readonly suggest?: string;
};

const instance = (config: Record<string, string>) => prova.instance('i', { name: 'cvt-k', image: 'busybox', config });
const limited = (limits: Record<string, string>) => prova.instance('i', { name: 'cvt-k', image: 'busybox', limits });
const profile = (config: Record<string, string>) => prova.profile('i', { name: 'cvt-k', config });
const network = (config: Record<string, string>) => prova.network('i', { name: 'cvt-k', config });
const volume = (config: Record<string, string>) => prova.storageVolume('i', { name: 'cvt-k', pool: 'default', config });
const pool = (config: Record<string, string>) => prova.storagePool('i', { name: 'cvt-k', driver: 'dir', config });
const project = (config: Record<string, string>) => prova.project('i', { name: 'cvt-k', config });

const bad = (
  decl: Case['decl'],
  key: string,
  value: string,
  code: Case['code'] = 'invalid_config_value',
  suggest?: string,
  field: Case['field'] = 'config',
): Case => ({ decl, field, key, value, code, suggest });
const unknown = (decl: Case['decl'], key: string, suggest?: string, field: Case['field'] = 'config') =>
  bad(decl, key, '1', 'unknown_config_key', suggest, field);

const cases: Case[] = [
  bad(instance, 'security.nesting', 'maybe'),
  bad(instance, 'security.privileged', 'sometimes'),
  bad(instance, 'boot.autostart', 'usually'),
  bad(instance, 'boot.autostart.delay', 'soon'),
  bad(instance, 'boot.host_shutdown_timeout', '30s'),
  bad(instance, 'snapshots.schedule', 'whenever'),
  bad(instance, 'snapshots.expiry', 'forever'),
  bad(instance, 'migration.stateful', 'perhaps'),
  unknown(instance, 'nosuch.key'),
  unknown(instance, 'security.nestng', 'security.nesting'),
  unknown(instance, 'boot.autostrat', 'boot.autostart'),
  unknown(instance, 'snapshot.schedule', 'snapshots.schedule'),
  bad(limited, 'memory', 'notasize', 'invalid_config_value', undefined, 'limits'),
  bad(limited, 'memory', '1.5GiB', 'invalid_config_value', undefined, 'limits'),
  bad(limited, 'cpu', 'lots', 'invalid_config_value', undefined, 'limits'),
  bad(limited, 'cpu.allowance', 'half', 'invalid_config_value', undefined, 'limits'),
  bad(limited, 'memory.enforce', 'medium', 'invalid_config_value', undefined, 'limits'),
  bad(limited, 'processes', 'many', 'invalid_config_value', undefined, 'limits'),
  unknown(limited, 'memry', 'memory', 'limits'),
  bad(profile, 'limits.cpu', 'lots'),
  bad(profile, 'limits.memory', '2 gigs'),
  bad(profile, 'security.nesting', 'maybe'),
  unknown(profile, 'limits.memroy', 'limits.memory'),
  bad(network, 'ipv4.address', '10.200.0.1/33'),
  bad(network, 'ipv4.address', 'notanip'),
  bad(network, 'ipv6.address', 'fd00::1/200'),
  bad(network, 'ipv4.nat', 'perhaps'),
  bad(network, 'bridge.mtu', 'big'),
  bad(network, 'dns.mode', 'loud'),
  unknown(network, 'ipv4.nta', 'ipv4.nat'),
  bad(volume, 'size', 'big'),
  bad(volume, 'snapshots.expiry', 'forever'),
  bad(volume, 'security.shifted', 'maybe'),
  unknown(volume, 'sise', 'size'),
  bad(pool, 'volume.size', 'big'),
  bad(pool, 'rsync.compression', 'maybe'),
  unknown(pool, 'nosuch.key'),
  bad(project, 'limits.instances', 'many'),
  bad(project, 'limits.memory', 'lots'),
  bad(project, 'features.images', 'maybe'),
  bad(project, 'restricted.containers.nesting', 'sometimes'),
  bad(project, 'images.compression_algorithm', 'zip'),
  unknown(project, 'limits.instance', 'limits.instances'),
];

let env: SimEnv;
beforeAll(async () => {
  env = await simEnv();
});
afterAll(async () => {
  await env.close();
});

async function issuesOf(decl: ResourceDecl) {
  const engine = new Engine({ providers: [env.provider], state: new MemoryStateStore() });
  const err = await engine.plan([decl]).catch((e: unknown) => e);
  if (!(err instanceof ValidationError)) return [];
  return err.issues.filter((i) => i.code === 'unknown_config_key' || i.code === 'invalid_config_value');
}

describe('provider A refuses at plan the config LXD refuses at apply', () => {
  it(`has ${cases.length} cases across instance, limits, profile, network, volume, pool and project config`, () => {
    expect(cases.length).toBeGreaterThanOrEqual(30);
  });

  for (const c of cases) {
    const decl = c.decl({ [c.key]: c.value });
    it(`${decl.type.split(':')[1]}: ${c.field}.${c.key}=${c.value} is ${c.code}${c.suggest ? ` (did you mean ${c.suggest})` : ''}`, async () => {
      env.sim.clearLog();
      const issues = await issuesOf(decl);
      expect(issues.map((i) => ({ resource: i.resource, path: i.path, code: i.code }))).toEqual([
        { resource: 'i', path: [c.field, c.key], code: c.code },
      ]);
      if (c.suggest) expect(issues[0]!.message).toContain(`did you mean "${c.suggest}"`);
      expect(env.sim.requests).toEqual([]);
    });
  }

  it('reports every refused key of a declaration at once', async () => {
    const issues = await issuesOf(instance({ 'security.nesting': 'maybe', 'nosuch.key': '1', 'boot.autostart': 'x' }));
    expect(issues.map((i) => i.path.join('.')).sort()).toEqual([
      'config.boot.autostart',
      'config.nosuch.key',
      'config.security.nesting',
    ]);
  });

  it('passes what LXD takes: user.*, environment.*, sizes, percentages, CIDRs, none and enums', async () => {
    const engine = new Engine({ providers: [env.provider], state: new MemoryStateStore() });
    const plan = await engine.plan([
      prova.instance('a', {
        name: 'cvt-ok',
        image: 'busybox',
        config: { 'user.anything': 'x', 'environment.FOO': 'bar', 'security.nesting': 'true', 'boot.autostart': '1' },
        limits: { memory: '50%', cpu: '0-1,3', 'cpu.allowance': '25ms/100ms', 'memory.enforce': 'soft' },
      }),
      prova.network('n', { name: 'cvt-okn', config: { 'ipv4.address': '10.9.0.1/24', 'ipv6.address': 'none' } }),
      prova.storageVolume('v', { name: 'cvt-okv', pool: 'default', config: { size: '1GiB', 'user.k': 'v' } }),
      prova.project('p', { name: 'cvt-okp', config: { 'limits.instances': '5', 'limits.memory': '4GB' } }),
    ]);
    expect(plan.summary.create).toBe(4);
  });
});
