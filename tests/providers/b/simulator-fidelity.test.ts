// Provider B's simulator against what Civo's own client (civogo) and its captured fixtures say the
// real API does (issue 14): one behaviour per test, asserting codes, statuses and fields.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { request } from 'undici';
import { harness } from './harness.js';

async function call(url: string, method: string, path: string, opts: { token?: string; body?: unknown } = {}) {
  const headers: Record<string, string> = {
    accept: 'application/json',
    authorization: `bearer ${opts.token ?? 'sim-token'}`,
  };
  if (opts.body !== undefined) headers['content-type'] = 'application/json';
  const res = await request(`${url}${path}`, {
    method: method as 'GET',
    headers,
    body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
  });
  const text = await res.body.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    /* plain text */
  }
  return { status: res.statusCode, body: body as any, headers: res.headers };
}

async function sim(transitions = {}) {
  const h = await harness({
    transitions: { instance: 10_000, cluster: 10_000, pool: 10_000, database: 10_000, ...transitions },
  });
  return h.sim;
}

const IMAGE = '9b3bda31-8c63-4c3f-9d8e-3c6b2a1d0002';

describe('provb simulator fidelity (civogo)', () => {
  it('sends built_at null (not "") while a cluster is BUILDING, a time once ACTIVE', async () => {
    const s = await sim();
    const c = await call(s.url, 'POST', '/v2/kubernetes/clusters', {
      body: { name: 'k', pools: [{ id: 'p', count: 1, size: 'g4s.kube.small' }] },
    });
    expect(c.body.status).toBe('BUILDING');
    expect(c.body.built_at).toBeNull();
    expect((await call(s.url, 'GET', `/v2/kubernetes/clusters/${c.body.id}`)).body.built_at).toBeNull();
    s.store.settleAll();
    expect(Date.parse((await call(s.url, 'GET', `/v2/kubernetes/clusters/${c.body.id}`)).body.built_at)).not.toBeNaN();
  });

  it('answers a cluster create with its nodes in instances[], pools holding full instance objects, and app titles', async () => {
    const s = await sim();
    const c = await call(s.url, 'POST', '/v2/kubernetes/clusters', {
      body: { name: 'k', pools: [{ id: 'p', count: 2, size: 'g4s.kube.small' }] },
    });
    expect(c.body.instances).toHaveLength(2);
    const node = c.body.pools[0].instances[0];
    for (const key of [
      'id',
      'hostname',
      'account_id',
      'network_id',
      'private_ip',
      'public_ip',
      'initial_password',
      'created_at',
      'status',
      'size',
    ])
      expect(node[key], key).toBeDefined();
    expect(c.body.installed_applications.every((a: { title?: unknown }) => 'title' in a)).toBe(true);
  });

  it.each([
    [
      'kubernetes cluster',
      '/v2/kubernetes/clusters',
      { name: 'kc', firewall_rule: '80,443,6443', pools: [{ id: 'p', count: 1, size: 'g4s.kube.small' }] },
      ['80', '443', '6443'],
    ],
    [
      'load balancer',
      '/v2/loadbalancers',
      { name: 'lb', firewall_rule: '80;443', backends: [{ ip: '10.0.0.5', source_port: 80, target_port: 80 }] },
      ['80', '443'],
    ],
    [
      'database',
      '/v2/databases',
      {
        name: 'db',
        size: 'g3.db.small',
        software: 'PostgreSQL',
        software_version: '14',
        nodes: 1,
        firewall_rule: '5432',
      },
      ['5432'],
    ],
  ])(
    'makes a firewall from firewall_rule for a %s with no firewall_id, in a custom network',
    async (_kind, path, body, ports) => {
      const s = await sim();
      const net = await call(s.url, 'POST', '/v2/networks', { body: { label: 'custom' } });
      const r = await call(s.url, 'POST', path, { body: { ...body, network_id: net.body.id } });
      expect(r.status).toBe(200);
      const fw = s.store.firewalls.get(r.body.firewall_id);
      expect(fw?.network_id).toBe(net.body.id);
      expect(fw?.rules.map((x: { ports: string }) => x.ports)).toEqual(ports);
    },
  );

  it('gives a cluster in the default network with only firewall_rule its own firewall, not the all-open default', async () => {
    const s = await sim();
    const def = s.store.defaultNetwork('LON1')!;
    const r = await call(s.url, 'POST', '/v2/kubernetes/clusters', {
      body: {
        name: 'k',
        network_id: def.id,
        firewall_rule: '80,443,6443',
        pools: [{ id: 'p', count: 1, size: 'g4s.kube.small' }],
      },
    });
    expect(r.body.firewall_id).not.toBe(s.store.defaultFirewall(def.id)!.id);
    expect(s.store.firewalls.get(r.body.firewall_id)?.rules).toHaveLength(3);
  });

  it('refuses a malformed firewall_rule with a civogo code', async () => {
    const s = await sim();
    const r = await call(s.url, 'POST', '/v2/loadbalancers', {
      body: { name: 'lb', firewall_rule: 'eighty', backends: [] },
    });
    expect(r.body.code).toBe('database_firewall_rules_invalid_params');
  });

  it('gives the first instance of a network a public IP even with public_ip none, later ones none', async () => {
    const s = await sim();
    const net = await call(s.url, 'POST', '/v2/networks', { body: { label: 'private' } });
    const first = await call(s.url, 'POST', '/v2/instances', {
      body: { hostname: 'a', template_id: IMAGE, network_id: net.body.id, public_ip: 'none' },
    });
    const second = await call(s.url, 'POST', '/v2/instances', {
      body: { hostname: 'b', template_id: IMAGE, network_id: net.body.id, public_ip: 'none' },
    });
    expect(first.body.public_ip).not.toBe('');
    expect(second.body.public_ip).toBe('');
  });

  it('moves an instance through STOPPING → SHUTOFF, STARTING → ACTIVE and REBOOTING → ACTIVE', async () => {
    const s = await sim();
    const i = await call(s.url, 'POST', '/v2/instances', { body: { hostname: 'p', template_id: IMAGE } });
    s.store.settleAll();
    const status = async () => (await call(s.url, 'GET', `/v2/instances/${i.body.id}`)).body.status;
    expect((await call(s.url, 'PUT', `/v2/instances/${i.body.id}/stop`)).body.result).toBe('success');
    expect(await status()).toBe('STOPPING');
    s.store.settleAll();
    expect(await status()).toBe('SHUTOFF');
    await call(s.url, 'PUT', `/v2/instances/${i.body.id}/start`);
    expect(await status()).toBe('STARTING');
    s.store.settleAll();
    await call(s.url, 'POST', `/v2/instances/${i.body.id}/hard_reboots`);
    expect(await status()).toBe('REBOOTING');
    s.store.settleAll();
    await call(s.url, 'POST', `/v2/instances/${i.body.id}/soft_reboots`);
    s.store.settleAll();
    expect(await status()).toBe('ACTIVE');
  });

  it('refuses a power action while the instance is BUILDING', async () => {
    const s = await sim();
    const i = await call(s.url, 'POST', '/v2/instances', { body: { hostname: 'p', template_id: IMAGE } });
    expect((await call(s.url, 'PUT', `/v2/instances/${i.body.id}/stop`)).body.code).toBe(
      'instance_state_must_be_active_or_shutoff',
    );
  });

  it('serves VNC, recovery mode, allowed IPs and bandwidth for an instance', async () => {
    const s = await sim({ instance: 0 });
    const i = await call(s.url, 'POST', '/v2/instances', { body: { hostname: 'p', template_id: IMAGE } });
    const id = i.body.id;
    const vnc = await call(s.url, 'PUT', `/v2/instances/${id}/vnc?duration=30m`);
    expect(vnc.body).toMatchObject({ uri: expect.stringMatching(/^https:\/\//), duration: '30m' });
    expect((await call(s.url, 'GET', `/v2/instances/${id}/vnc`)).body.uri).toBe(vnc.body.uri);
    expect((await call(s.url, 'PUT', `/v2/instances/${id}/recovery`)).body.result).toBe('success');
    expect((await call(s.url, 'PUT', `/v2/instances/${id}/recovery`)).body.code).toBe(
      'database_instance_already_in_rescue_state',
    );
    expect((await call(s.url, 'DELETE', `/v2/instances/${id}/recovery`)).body.result).toBe('success');
    await call(s.url, 'PUT', `/v2/instances/${id}/allowed_ips`, { body: { allowed_ips: ['10.0.0.1'] } });
    await call(s.url, 'PUT', `/v2/instances/${id}/network_bandwidth_limit`, { body: { network_bandwidth_limit: 100 } });
    const got = (await call(s.url, 'GET', `/v2/instances/${id}`)).body;
    expect(got).toMatchObject({ allowed_ips: ['10.0.0.1'], network_bandwidth_limit: 100 });
    expect(got.vnc).toBeUndefined();
  });

  it('serves subnet routes, object store stats, database restore, cluster instances, pool-instance delete, recycle and quota', async () => {
    const s = await sim({ cluster: 0, pool: 0, database: 0, objectStore: 0 });
    const net = await call(s.url, 'POST', '/v2/networks', { body: { label: 'n' } });
    const sub = await call(s.url, 'POST', `/v2/networks/${net.body.id}/subnets`, { body: { name: 's' } });
    expect(
      (
        await call(s.url, 'POST', `/v2/networks/${net.body.id}/subnets/${sub.body.id}/routes`, {
          body: { resource_id: 'x', resource_type: 'instance' },
        })
      ).body,
    ).toMatchObject({ subnet_id: sub.body.id, resource_id: 'x' });
    const os = await call(s.url, 'POST', '/v2/objectstores', { body: { name: 'b', max_size_gb: 500 } });
    expect((await call(s.url, 'GET', `/v2/objectstores/${os.body.id}/stats`)).body).toMatchObject({
      max_size_kb: 500 * 1024 * 1024,
      num_objects: 0,
    });
    const db = await call(s.url, 'POST', '/v2/databases', {
      body: { name: 'd', size: 'g3.db.small', software: 'MySQL', software_version: '8.0', nodes: 1 },
    });
    expect(
      (await call(s.url, 'POST', `/v2/databases/${db.body.id}/restore`, { body: { name: 'r', backup: 'b' } })).body
        .result,
    ).toBe('success');
    const c = await call(s.url, 'POST', '/v2/kubernetes/clusters', {
      body: { name: 'k', pools: [{ id: 'p', count: 2, size: 'g4s.kube.small' }] },
    });
    const nodes = (await call(s.url, 'GET', `/v2/kubernetes/clusters/${c.body.id}/instances`)).body;
    expect(nodes).toHaveLength(2);
    expect(
      (
        await call(s.url, 'POST', `/v2/kubernetes/clusters/${c.body.id}/recycle`, {
          body: { hostname: nodes[0].hostname },
        })
      ).body.result,
    ).toBe('success');
    expect(
      (await call(s.url, 'DELETE', `/v2/kubernetes/clusters/${c.body.id}/pools/p/instances/${nodes[1].id}`)).body
        .result,
    ).toBe('success');
    expect((await call(s.url, 'GET', `/v2/kubernetes/clusters/${c.body.id}/pools/p`)).body.count).toBe(1);
    const q = (await call(s.url, 'GET', '/v2/quota')).body;
    expect(q).toMatchObject({
      instance_count_limit: expect.any(Number),
      database_count_usage: 1,
      network_count_usage: 1,
    });
  });

  it('answers a bad token with database_account_not_found and no requires_authentication, as the real API does', async () => {
    const s = await sim();
    const r = await call(s.url, 'GET', '/v2/regions', { token: 'not-the-token' });
    expect(r.status).toBe(401);
    expect(r.body.code).toBe('database_account_not_found');
    expect(r.body.result).not.toBe('requires_authentication');
  });

  it('sends x-ratelimit-* headers on every answer: success, refusal, unknown route and bad token', async () => {
    const s = await sim();
    for (const r of [
      await call(s.url, 'GET', '/v2/regions'),
      await call(s.url, 'GET', '/v2/instances/nope'),
      await call(s.url, 'GET', '/v2/nothing-here'),
      await call(s.url, 'GET', '/v2/regions', { token: 'x' }),
    ]) {
      expect(Number(r.headers['x-ratelimit-limit'])).toBeGreaterThan(0);
      expect(r.headers['x-ratelimit-remaining']).toBeDefined();
      expect(r.headers['x-ratelimit-reset']).toBeDefined();
    }
    s.clearLog();
  });

  it('counts a minute window in x-ratelimit-remaining, and a new limit starts a new window', async () => {
    const s = await sim();
    s.store.rateLimitPerMinute = 5;
    const remaining = async () => Number((await call(s.url, 'GET', '/v2/regions')).headers['x-ratelimit-remaining']);
    const counted = [await remaining(), await remaining(), await remaining()];
    // counted within one minute window (a test straddling a minute boundary starts a fresh window once)
    expect([
      [4, 3, 2],
      [4, 3, 4],
      [4, 4, 3],
    ]).toContainEqual(counted);
    s.store.rateLimitPerMinute = 600;
    expect(await remaining()).toBe(599);
    s.clearLog();
  });

  it('carries the openstack_* ids and volume fields the fixtures show', async () => {
    const s = await sim({ instance: 0 });
    const i = await call(s.url, 'POST', '/v2/instances', { body: { hostname: 'p', template_id: IMAGE } });
    expect(i.body.openstack_server_id).toEqual(expect.any(String));
    expect('openstack_image_id' in i.body).toBe(true);
    const fw = (await call(s.url, 'GET', '/v2/firewalls')).body[0];
    expect('openstack_security_group_rule_id' in fw.rules[0]).toBe(true);
    const v = await call(s.url, 'POST', '/v2/volumes', { body: { name: 'v', size_gb: 10 } });
    const vol = (await call(s.url, 'GET', `/v2/volumes/${v.body.id}`)).body;
    for (const key of [
      'id',
      'name',
      'instance_id',
      'cluster_id',
      'network_id',
      'mountpoint',
      'openstack_id',
      'status',
      'volume_type',
      'size_gb',
      'bootable',
      'created_at',
    ])
      expect(key in vol, key).toBe(true);
  });
});

// Every code the simulator answers must be one civogo classifies: an invented code reaches users of the
// real client as "unknown error response".
const civogoErrors = resolve(__dirname, '../../../../shared/oracles/civogo/civogo/errors.go');
describe.skipIf(!existsSync(civogoErrors))('provb simulator error codes', () => {
  it('answers only codes that civogo errors.go knows', () => {
    const known = new Set([...readFileSync(civogoErrors, 'utf8').matchAll(/case "([a-z0-9_]+)"/g)].map((m) => m[1]));
    const dir = resolve(__dirname, '../../../src/providers/b/simulator');
    const used = new Set<string>();
    for (const f of readdirSync(dir).filter((x) => x.endsWith('.ts'))) {
      for (const m of readFileSync(join(dir, f), 'utf8').matchAll(/(?:fail|missing)\('([a-z0-9_]+)'/g)) used.add(m[1]!);
      for (const m of readFileSync(join(dir, f), 'utf8').matchAll(/code: '([a-z0-9_]+)'/g)) used.add(m[1]!);
      for (const m of readFileSync(join(dir, f), 'utf8').matchAll(/fail\([^,]*\? '([a-z0-9_]+)' : '([a-z0-9_]+)'/g)) {
        used.add(m[1]!);
        used.add(m[2]!);
      }
    }
    expect(used.size).toBeGreaterThan(30);
    expect([...used].filter((c) => !known.has(c))).toEqual([]);
  });
});
