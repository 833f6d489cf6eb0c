// The Civo simulator enforces the account quota (GET /v2/quota): a create that would go over the
// instances, CPU cores, RAM, disk, networks, volumes or public IPs limit is refused 403
// `quota_limit_reached`, the reason naming each exceeded quota on its own line, and nothing is made;
// the provider surfaces it as a ProviderError carrying the vendor code.
import { describe, expect, it } from 'vitest';
import { request } from 'undici';
import { ProviderError } from '../../../src/index.js';
import { harness } from './harness.js';

async function call(url: string, method: 'GET' | 'POST', path: string, body?: unknown) {
  const res = await request(`${url}${path}`, {
    method,
    headers: { authorization: 'bearer sim-token', 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.statusCode, body: (await res.body.json()) as Record<string, any> };
}

const instance = (hostname: string, size = 'g3.xsmall') => ({
  hostname,
  size,
  template_id: 'ubuntu-jammy',
  region: 'LON1',
});

describe('provb simulator quota', () => {
  it('reports limits and usage on GET /v2/quota, including the limits a test set', async () => {
    const { sim } = await harness({ quota: { instance_count: 2 } });
    await call(sim.url, 'POST', '/v2/instances', instance('q1'));
    const q = (await call(sim.url, 'GET', '/v2/quota')).body;
    expect([q.instance_count_limit, q.instance_count_usage, q.network_count_limit]).toEqual([2, 1, 10]);
  });

  it('refuses the instance over the instance count with quota_limit_reached and makes nothing', async () => {
    const { sim } = await harness({ quota: { instance_count: 1 } });
    expect((await call(sim.url, 'POST', '/v2/instances', instance('q1'))).status).toBe(200);
    const r = await call(sim.url, 'POST', '/v2/instances', instance('q2'));
    expect(r.status).toBe(403);
    expect(r.body.code).toBe('quota_limit_reached');
    expect(r.body.reason.split('\n').slice(1)).toEqual(['instances: 1 of 1 in use, 1 more requested']);
    expect([...sim.store.instances.values()].map((i) => i.hostname)).toEqual(['q1']);
  });

  it('names every exceeded quota on its own line: CPU cores, RAM and disk of a large size', async () => {
    const { sim } = await harness({ quota: { cpu_core: 2, ram_mb: 2048, disk_gb: 50 } });
    const r = await call(sim.url, 'POST', '/v2/instances', instance('big', 'g3.large'));
    expect(r.body.code).toBe('quota_limit_reached');
    expect(
      r.body.reason
        .split('\n')
        .slice(1)
        .map((l: string) => l.split(':')[0]),
    ).toEqual(['CPU cores', 'RAM (MB)', 'disk (GB)']);
  });

  it('refuses networks, reserved IPs and volumes over their limits', async () => {
    const { sim } = await harness({ quota: { network_count: 0, public_ip_address: 0, disk_volume_count: 0 } });
    const refused = await Promise.all([
      call(sim.url, 'POST', '/v2/networks', { label: 'qnet', region: 'LON1' }),
      call(sim.url, 'POST', '/v2/ips', { name: 'qip', region: 'LON1' }),
      call(sim.url, 'POST', '/v2/volumes', { name: 'qvol', size_gb: 5, region: 'LON1' }),
    ]);
    expect(refused.map((r) => [r.status, r.body.code])).toEqual([
      [403, 'quota_limit_reached'],
      [403, 'quota_limit_reached'],
      [403, 'quota_limit_reached'],
    ]);
  });

  it('reaches provider B as a ProviderError with vendorCode quota_limit_reached', async () => {
    const h = await harness({ quota: { instance_count: 0 } });
    const def = h.res('instance:Instance');
    const err = await def
      .create(h.ctx(), def.inputs.parse({ hostname: 'qv', diskImage: 'ubuntu-jammy', firewallId: '' }))
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProviderError);
    expect((err as ProviderError).vendorCode).toBe('quota_limit_reached');
  });
});
