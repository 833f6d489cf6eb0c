import { describe, expect, it } from 'vitest';
import { LookupError } from '../../../src/engine/errors.js';
import type { AnyLookup } from '../../../src/engine/provider/define.js';
import { harness, type Harness } from './harness.js';

const token = (fn: string) => `provb:index/${fn}:${fn}`;

async function run(h: Harness, fn: string, raw: Record<string, unknown>) {
  const def = h.provider.lookups.get(token(fn)) as AnyLookup;
  const args = def.args.parse(raw);
  const issues = def.check?.(args, h.provider.config) ?? [];
  if (issues.length) return { issues };
  return def.run(h.ctx({ operation: 'lookup', token: token(fn) }), args);
}

function seedInstance(h: Harness, id: string, hostname: string, extra: Record<string, unknown> = {}) {
  h.sim.store.instances.set(id, {
    id,
    hostname,
    region: 'LON1',
    status: 'ACTIVE',
    tags: [],
    size: 'g3.xsmall',
    cpu_cores: 1,
    ram_mb: 1024,
    disk_gb: 25,
    network_id: 'n',
    firewall_id: 'f',
    template_id: 't',
    initial_user: 'civo',
    initial_password: 'pw-1234',
    private_ip: '192.168.1.2',
    public_ip: '74.220.0.2',
    pseudo_ip: '',
    script: '',
    created_at: '2024',
    ...extra,
  });
}

describe('provb single lookups', () => {
  it('finds an instance by hostname or id, and lists the matches when a hostname is ambiguous', async () => {
    const h = await harness();
    seedInstance(h, 'id-1', 'web');
    seedInstance(h, 'id-2', 'db');
    expect(await run(h, 'getInstance', { hostname: 'web' })).toMatchObject({
      id: 'id-1',
      hostname: 'web',
      region: 'LON1',
      privateIp: '192.168.1.2',
      publicIp: '74.220.0.2',
    });
    expect(await run(h, 'getInstance', { id: 'id-2' })).toMatchObject({ hostname: 'db' });
    seedInstance(h, 'id-3', 'web');
    const err = await run(h, 'getInstance', { hostname: 'web' }).catch((e) => e);
    expect(err).toBeInstanceOf(LookupError);
    expect(err).toMatchObject({ reason: 'ambiguous', token: token('getInstance') });
    expect(err.matches).toEqual(['web (id-1)', 'web (id-3)']);
    const missing = await run(h, 'getInstance', { hostname: 'nothing' }).catch((e) => e);
    expect(missing).toMatchObject({ reason: 'not_found' });
    expect(missing.criteria).toContain("hostname 'nothing'");
  });

  it('requires exactly one of id and hostname', async () => {
    const h = await harness();
    expect(await run(h, 'getInstance', {})).toMatchObject({ issues: [{ path: ['id'] }] });
    expect(await run(h, 'getInstance', { id: 'a', hostname: 'b' })).toMatchObject({ issues: [{ path: ['id'] }] });
  });

  it('requires a region when the provider has none', async () => {
    const h = await harness({}, { region: '' });
    expect(await run(h, 'getVolume', { name: 'x' })).toEqual({
      issues: [expect.objectContaining({ path: ['region'], code: 'missing_region' })],
    });
    expect(await run(h, 'getSshKey', { name: 'x' }).catch((e) => e)).toMatchObject({ reason: 'not_found' });
  });

  it('matches database and cluster names case-insensitively, and errors on duplicates', async () => {
    const h = await harness();
    h.sim.store.databases.set('d1', {
      id: 'd1',
      name: 'Orders',
      region: 'LON1',
      software: 'mysql',
      software_version: '8.0',
      nodes: 1,
      port: 3306,
      status: 'Ready',
      size: 'g3.db.small',
      network_id: 'n',
      firewall_id: 'f',
      username: 'root',
      password: 'pw',
    });
    expect(await run(h, 'getDatabase', { name: 'orders' })).toMatchObject({
      id: 'd1',
      engine: 'mysql',
      dnsEndpoint: 'd1.db.civo.com',
    });
    h.sim.store.databases.set('d2', {
      id: 'd2',
      name: 'orders',
      region: 'LON1',
      software: 'mysql',
      software_version: '8.0',
      nodes: 1,
      port: 3306,
      status: 'Ready',
      size: 'g3.db.small',
      network_id: 'n',
      firewall_id: 'f',
      username: 'root',
      password: 'pw',
    });
    expect(await run(h, 'getDatabase', { name: 'ORDERS' }).catch((e) => e)).toMatchObject({
      reason: 'ambiguous',
      matches: ['Orders (d1)', 'orders (d2)'],
    });
    expect(await run(h, 'getDatabase', { id: 'd2', name: 'Orders' })).toMatchObject({ id: 'd2' });
    for (const id of ['c1', 'c2'])
      h.sim.store.clusters.set(id, {
        id,
        name: id === 'c1' ? 'Prod' : 'prod',
        region: 'LON1',
        pools: [],
        installed_applications: [],
        status: 'ACTIVE',
        ready: true,
        network_id: 'n',
        firewall_id: 'f',
        tags: [],
      });
    expect(await run(h, 'getKubernetesCluster', { name: 'prod' }).catch((e) => e)).toMatchObject({
      reason: 'ambiguous',
    });
    expect(await run(h, 'getKubernetesCluster', { id: 'c1' })).toMatchObject({ name: 'Prod', ready: true });
  });

  it('errors naming the missing domain, record, SSH key, volume or load balancer', async () => {
    const h = await harness();
    const cases: [string, Record<string, unknown>, string][] = [
      ['getDnsDomainName', { name: 'nope.example' }, "name 'nope.example'"],
      ['getSshKey', { name: 'nokey' }, "name 'nokey'"],
      ['getVolume', { name: 'novol' }, "name 'novol'"],
      ['getLoadbalancer', { name: 'nolb' }, "name 'nolb'"],
      ['getVpcLoadbalancer', { id: 'nolb' }, "id 'nolb'"],
    ];
    for (const [fn, args, what] of cases) {
      const err = await run(h, fn, args).catch((e) => e);
      expect(err, fn).toBeInstanceOf(LookupError);
      expect(err.reason).toBe('not_found');
      expect(err.criteria).toContain(what);
    }
    const d = await h.provider.config.client.createDomain(h.ctx(), 'has.example');
    const rec = await run(h, 'getDnsDomainRecord', { domainId: d.id, name: 'www' }).catch((e) => e);
    expect(rec).toMatchObject({ reason: 'not_found' });
    expect(rec.criteria).toContain("name 'www'");
  });

  it('finds DNS records by exact name and reports the API defaults', async () => {
    const h = await harness();
    const d = await h.provider.config.client.createDomain(h.ctx(), 'ok.example');
    await h.provider.config.client.createRecord(h.ctx(), d.id, {
      type: 'MX',
      name: 'mail',
      value: 'mx.ok.example',
      priority: 0,
      ttl: 0,
    });
    await h.provider.config.client.createRecord(h.ctx(), d.id, {
      type: 'A',
      name: 'mail2',
      value: '192.0.2.9',
      priority: 0,
      ttl: 900,
    });
    expect(await run(h, 'getDnsDomainRecord', { domainId: d.id, name: 'mail' })).toMatchObject({
      type: 'MX',
      ttl: 600,
      priority: 10,
      domainId: d.id,
    });
    expect(await run(h, 'getDnsDomainName', { name: 'ok.example' })).toEqual({ id: d.id, name: 'ok.example' });
  });

  it('finds networks, firewalls, subnets, reserved IPs, volumes, keys, stores and credentials', async () => {
    const h = await harness();
    const c = h.provider.config.client,
      ctx = h.ctx();
    const net = await c.createNetwork(ctx, 'LON1', { label: 'lk-net' });
    expect(await run(h, 'getVpcNetwork', { label: 'lk-net' })).toMatchObject({
      id: net.id,
      default: false,
      name: 'lk-net',
    });
    expect(await run(h, 'getNetwork', { id: net.id })).toMatchObject({ label: 'lk-net' });
    const fw = await c.createFirewall(ctx, 'LON1', { name: 'lk-fw', network_id: net.id });
    expect(await run(h, 'getFirewall', { name: 'lk-fw' })).toEqual({
      id: fw.id,
      name: 'lk-fw',
      networkId: net.id,
      region: 'LON1',
    });
    expect(await run(h, 'getVpcFirewall', { id: fw.id })).toMatchObject({ name: 'lk-fw' });
    h.sim.store.subnets.set('s1', {
      id: 's1',
      name: 'sub',
      network_id: net.id,
      subnet_size: '/24',
      status: 'available',
      region: 'LON1',
    });
    expect(await run(h, 'getVpcSubnet', { networkId: net.id, name: 'sub' })).toMatchObject({
      id: 's1',
      subnetSize: '/24',
    });
    const ip = await c.createIp(ctx, 'LON1', 'lk-ip');
    h.sim.store.settleAll();
    expect(await run(h, 'getReservedIp', { name: 'lk-ip' })).toMatchObject({ id: ip.id, instanceId: '' });
    expect(await run(h, 'getVpcReservedIp', { id: ip.id })).toMatchObject({ name: 'lk-ip' });
    const vol = await c.createVolume(ctx, 'LON1', { name: 'lk-vol', size_gb: 5 });
    expect(await run(h, 'getVolume', { name: 'lk-vol' })).toMatchObject({ id: vol.id, sizeGb: 5 });
    const key = await c.createSshKey(ctx, 'lk-key', 'ssh-ed25519 AAAA');
    expect(await run(h, 'getSshKey', { id: key.id })).toMatchObject({ name: 'lk-key' });
    const store = await c.createObjectStore(ctx, 'LON1', { name: 'lk-bucket', max_size_gb: 100 });
    expect(await run(h, 'getObjectStore', { name: 'lk-bucket' })).toMatchObject({ id: store.id, maxSizeGb: 100 });
    expect(await run(h, 'getObjectStoreCredential', { id: store.owner_info.access_key_id })).toMatchObject({
      accessKeyId: store.owner_info.access_key_id,
    });
    h.sim.store.loadbalancers.set('lb1', {
      id: 'lb1',
      name: 'front',
      region: 'LON1',
      public_ip: '74.220.9.9',
      state: 'available',
      algorithm: 'round_robin',
      backends: [],
      network_id: 'n',
      firewall_id: 'f',
    });
    expect(await run(h, 'getLoadbalancer', { name: 'front', id: 'other' })).toMatchObject({
      id: 'lb1',
      publicIp: '74.220.9.9',
    });
    expect(await run(h, 'getVpcLoadbalancer', { id: 'lb1' })).toMatchObject({ state: 'available' });
  });

  it('accepts a unique id prefix, as the vendor Find does, but not an ambiguous one', async () => {
    const h = await harness();
    seedInstance(h, 'abc-111', 'one');
    seedInstance(h, 'abc-222', 'two');
    expect(await run(h, 'getInstance', { id: 'abc-1' })).toMatchObject({ hostname: 'one' });
    expect(await run(h, 'getInstance', { id: 'abc' }).catch((e) => e)).toMatchObject({ reason: 'ambiguous' });
  });
});

describe('provb list lookups', () => {
  it('filters sizes (non-selectable dropped) with exact, substring and re, and sorts them', async () => {
    const h = await harness();
    const all = (await run(h, 'getSize', {})) as { sizes: { name: string; type: string; selectable: boolean }[] };
    expect(all.sizes.every((s) => s.selectable)).toBe(true);
    expect(all.sizes.some((s) => s.name === 'g3.legacy')).toBe(false);
    const kube = (await run(h, 'getSize', {
      filters: [{ key: 'type', values: ['KUBERNETES'] }],
      sorts: [{ key: 'ram', direction: 'desc' }],
    })) as { sizes: { name: string; ram: number }[] };
    expect(kube.sizes.map((s) => s.name)).toEqual([
      'g4s.kube.large',
      'g4s.kube.medium',
      'g4s.kube.small',
      'g4s.kube.xsmall',
    ]);
    const re = (await run(h, 'getSize', { filters: [{ key: 'name', values: ['db.small'], matchBy: 're' }] })) as {
      sizes: { name: string }[];
    };
    expect(re.sizes.map((s) => s.name)).toEqual(['g3.db.small']);
    const sub = (await run(h, 'getSize', { filters: [{ key: 'name', values: ['KUBE'], matchBy: 'substring' }] })) as {
      sizes: unknown[];
    };
    expect(sub.sizes).toEqual([]);
    const cpu = (await run(h, 'getSize', {
      filters: [
        { key: 'cpu', values: ['2'] },
        { key: 'type', values: ['instance'] },
      ],
    })) as { sizes: { name: string }[] };
    expect(cpu.sizes.map((s) => s.name)).toEqual(['g3.medium']);
  });

  it('validates filter and sort keys, directions and values, listing what is allowed', async () => {
    const h = await harness();
    const bad = (await run(h, 'getRegion', {
      filters: [{ key: 'colour', values: ['x'] }],
      sorts: [{ key: 'planet' }],
    })) as { issues: { path: unknown[]; message: string }[] };
    expect(bad.issues.map((i) => i.path)).toEqual([
      ['filters', 0, 'key'],
      ['sorts', 0, 'key'],
    ]);
    expect(bad.issues[0]!.message).toContain('code, name, country, default');
    const def = h.provider.lookups.get(token('getRegion'))!;
    const dir = def.args.safeParse({ sorts: [{ key: 'code', direction: 'up' }] });
    expect(dir.success).toBe(false);
    expect(dir.error!.issues[0]!.path).toEqual(['sorts', 0, 'direction']);
    expect(
      ((await run(h, 'getRegion', { filters: [{ key: 'default', values: ['maybe'] }] })) as { issues: unknown[] })
        .issues,
    ).toHaveLength(1);
    expect(((await run(h, 'getInstances', { sorts: [{ key: 'tags' }] })) as { issues: unknown[] }).issues).toHaveLength(
      1,
    );
  });

  it('lists regions, Kubernetes versions by cluster type, database versions and disk images', async () => {
    const h = await harness();
    const regions = (await run(h, 'getRegion', { filters: [{ key: 'default', values: ['true'] }] })) as {
      regions: { code: string }[];
      id: string;
    };
    expect(regions.regions.map((r) => r.code)).toEqual(['LON1']);
    expect(regions.id).toMatch(/^[0-9a-f]{16}$/);
    const talos = (await run(h, 'getKubernetesVersion', { filters: [{ key: 'type', values: ['talos'] }] })) as {
      versions: { version: string }[];
    };
    expect(talos.versions.map((v) => v.version)).toEqual(['talos-v1.7.0']);
    const dbv = (await run(h, 'getDatabaseVersion', {
      sorts: [{ key: 'engine', direction: 'desc' }, { key: 'version' }],
    })) as { versions: { engine: string; version: string }[] };
    expect(dbv.versions.map((v) => `${v.engine}:${v.version}`)).toEqual([
      'postgresql:14',
      'postgresql:15',
      'mysql:8.0',
    ]);
    const images = (await run(h, 'getDiskImage', {})) as { diskimages: { name: string }[]; region: string };
    expect(images.region).toBe('LON1');
    expect(images.diskimages.some((i) => /k3s|talos/.test(i.name))).toBe(false);
  });

  it('filters instances on tags with any-element semantics and all=true', async () => {
    const h = await harness();
    seedInstance(h, 'i1', 'a', { tags: ['web', 'prod'] });
    seedInstance(h, 'i2', 'b', { tags: ['web'] });
    seedInstance(h, 'i3', 'c', { tags: [] });
    const any = (await run(h, 'getInstances', { filters: [{ key: 'tags', values: ['prod', 'web'] }] })) as {
      instances: { id: string }[];
    };
    expect(any.instances.map((i) => i.id)).toEqual(['i1', 'i2']);
    const all = (await run(h, 'getInstances', { filters: [{ key: 'tags', values: ['prod', 'web'], all: true }] })) as {
      instances: { id: string }[];
    };
    expect(all.instances.map((i) => i.id)).toEqual(['i1']);
    const none = (await run(h, 'getInstances', { filters: [{ key: 'hostname', values: ['zzz'] }] })) as {
      instances: unknown[];
    };
    expect(none.instances).toEqual([]);
    const sorted = (await run(h, 'getInstances', { sorts: [{ key: 'hostname', direction: 'desc' }] })) as {
      instances: { hostname: string }[];
    };
    expect(sorted.instances.map((i) => i.hostname)).toEqual(['c', 'b', 'a']);
  });
});
