import { describe, expect, it } from 'vitest';
import { request } from 'undici';
import { harness } from './harness.js';
import { manualClock } from '../../../src/kit/sim/clock.js';

async function call(url: string, method: string, path: string, opts: { token?: string | null; body?: unknown } = {}) {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (opts.token !== null) headers.authorization = `bearer ${opts.token ?? 'sim-token'}`;
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

describe('provb simulator', () => {
  it('answers 401 with the vendor account code when the token is missing or wrong', async () => {
    const { sim } = await harness();
    for (const token of [null, 'wrong']) {
      const r = await call(sim.url, 'GET', '/v2/regions', { token });
      expect(r.status).toBe(401);
      expect(r.body.code).toBe('database_account_not_found');
    }
  });

  it('compares the bearer scheme case-insensitively', async () => {
    const { sim } = await harness();
    const res = await request(`${sim.url}/v2/regions`, { headers: { authorization: `Bearer ${sim.token}` } });
    expect(res.statusCode).toBe(200);
    await res.body.text();
  });

  it('seeds one default network and a default firewall in it per region', async () => {
    const { sim } = await harness();
    for (const region of ['LON1', 'FRA1']) {
      const nets = (await call(sim.url, 'GET', `/v2/networks?region=${region}`)).body;
      expect(nets.filter((n: any) => n.default)).toHaveLength(1);
      const fws = (await call(sim.url, 'GET', `/v2/firewalls?region=${region}`)).body;
      expect(fws.some((f: any) => f.network_id === nets[0].id)).toBe(true);
    }
  });

  it('pages the instance list with the {page, per_page, pages, items} envelope', async () => {
    const { sim } = await harness();
    for (let i = 0; i < 5; i++)
      await call(sim.url, 'POST', '/v2/instances?region=LON1', {
        body: { hostname: `h${i}`, template_id: 'ubuntu-jammy', size: 'g3.xsmall' },
      });
    const p1 = (await call(sim.url, 'GET', '/v2/instances?region=LON1&page=1&per_page=2')).body;
    expect(p1).toMatchObject({ page: 1, per_page: 2, pages: 3 });
    expect(p1.items).toHaveLength(2);
    const p3 = (await call(sim.url, 'GET', '/v2/instances?region=LON1&page=3&per_page=2')).body;
    expect(p3.items).toHaveLength(1);
    expect((await call(sim.url, 'GET', '/v2/instances?region=FRA1')).body.items).toHaveLength(0);
  });

  it('takes the region from the query, else the body, case-insensitively', async () => {
    const { sim } = await harness();
    const created = (await call(sim.url, 'POST', '/v2/volumes', { body: { name: 'v1', size_gb: 10, region: 'fra1' } }))
      .body;
    expect(sim.store.volumes.get(created.id)?.region).toBe('FRA1');
    expect((await call(sim.url, 'GET', `/v2/volumes/${created.id}?region=LON1`)).body.code).toBe(
      'database_volume_not_found',
    );
    expect((await call(sim.url, 'GET', `/v2/volumes/${created.id}?region=fra1`)).status).toBe(200);
  });

  it('answers not-found with the exact vendor codes', async () => {
    const { sim } = await harness();
    const cases: [string, string][] = [
      ['/v2/instances/nope', 'database_instance_find'],
      ['/v2/kubernetes/clusters/nope', 'database_kubernetes_cluster_not_found'],
      ['/v2/networks/nope', 'database_network_not_found'],
      ['/v2/volumes/nope', 'database_volume_not_found'],
      ['/v2/ips/nope', 'database_ip_find'],
    ];
    for (const [path, code] of cases) {
      const r = await call(sim.url, 'GET', path);
      expect(r.status).toBe(404);
      expect(r.body).toMatchObject({ code, result: 'Resource not found' });
      expect(r.body.reason).toMatch(/Failed to find the .* (within|in) the internal database/);
    }
  });

  it('routes the /v2/vpc aliases to the same objects as the classic paths', async () => {
    const { sim } = await harness();
    const net = (await call(sim.url, 'POST', '/v2/vpc/networks?region=LON1', { body: { label: 'blue' } })).body;
    expect((await call(sim.url, 'GET', `/v2/networks/${net.id}?region=LON1`)).body.label).toBe('blue');
    const fw = (await call(sim.url, 'POST', '/v2/firewalls?region=LON1', { body: { name: 'fw1', network_id: net.id } }))
      .body;
    const viaVpc = (await call(sim.url, 'GET', '/v2/vpc/firewalls?region=LON1')).body;
    expect(viaVpc.find((f: any) => f.id === fw.id)?.rules).toHaveLength(3);
  });

  it('moves an instance from BUILDING to ACTIVE after the configured time (a manual clock: no sleep)', async () => {
    const clock = manualClock();
    const { sim } = await harness({ transitions: { instance: 250 }, clock });
    const inst = (
      await call(sim.url, 'POST', '/v2/instances?region=LON1', {
        body: { hostname: 'slow', template_id: 'ubuntu-jammy' },
      })
    ).body;
    expect(inst.status).toBe('BUILDING');
    clock.advance(249);
    expect((await call(sim.url, 'GET', `/v2/instances/${inst.id}`)).body.status).toBe('BUILDING');
    clock.advance(1);
    expect((await call(sim.url, 'GET', `/v2/instances/${inst.id}`)).body.status).toBe('ACTIVE');
  });

  it('applies DNS defaults and rejects a CNAME at the apex', async () => {
    const { sim } = await harness();
    const d = (await call(sim.url, 'POST', '/v2/dns', { body: { name: 'example.com' } })).body;
    const mx = (
      await call(sim.url, 'POST', `/v2/dns/${d.id}/records`, {
        body: { type: 'MX', name: '@', value: 'mail.example.com', priority: 0, ttl: 0 },
      })
    ).body;
    expect(mx).toMatchObject({ ttl: 600, priority: 10, domain_id: d.id });
    const bad = await call(sim.url, 'POST', `/v2/dns/${d.id}/records`, {
      body: { type: 'CNAME', name: '@', value: 'x.example.com', priority: 0, ttl: 600 },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('parameter_dns_record_cname_apex');
  });

  it('refuses to delete the default network and to shrink or resize an attached volume', async () => {
    const { sim } = await harness();
    const def = [...sim.store.networks.values()].find((n) => n.default && n.region === 'LON1')!;
    expect((await call(sim.url, 'DELETE', `/v2/networks/${def.id}`)).body.code).toBe('network_delete_default');
    const v = (await call(sim.url, 'POST', '/v2/volumes', { body: { name: 'v', size_gb: 20 } })).body;
    expect((await call(sim.url, 'PUT', `/v2/volumes/${v.id}/resize`, { body: { size_gb: 10 } })).body.code).toBe(
      'parameter_volume_size_must_increase',
    );
  });

  it('answers an unknown route with a plain-text 404 and records it as unmatched', async () => {
    const { sim } = await harness();
    const r = await call(sim.url, 'GET', '/v2/nothing-here');
    expect(r.status).toBe(404);
    expect(r.body).toBe('404 page not found');
    expect(sim.unmatched).toHaveLength(1);
    sim.clearLog();
  });

  it('injects faults deterministically from the seed', async () => {
    const statuses = async () => {
      const { sim } = await harness({ faults: { rate: 0.5, kinds: ['429', '500'] }, seed: 42 });
      const out: number[] = [];
      for (let i = 0; i < 20; i++) out.push((await call(sim.url, 'GET', '/v2/regions')).status);
      return out;
    };
    const a = await statuses();
    expect(a).toEqual(await statuses());
    expect(a.some((s) => s === 429)).toBe(true);
    expect(a.some((s) => s === 500)).toBe(true);
    expect(a.some((s) => s === 200)).toBe(true);
  });

  it('sends Retry-After and a vendor body with an injected 429', async () => {
    const { sim } = await harness({ faults: { rate: 1, kinds: ['429'], retryAfterSeconds: 0 } });
    const r = await call(sim.url, 'GET', '/v2/regions');
    expect(r.status).toBe(429);
    expect(r.headers['retry-after']).toBe('0');
    // The API documents no code for 429 (civogo knows none): the body carries a reason, no code.
    expect(r.body).toMatchObject({ reason: expect.any(String) });
    expect(r.body.code).toBeUndefined();
    expect(r.headers['x-ratelimit-limit']).toBeDefined();
  });

  it('keeps a request log', async () => {
    const { sim } = await harness();
    await call(sim.url, 'GET', '/v2/sizes');
    expect(sim.requests.at(-1)).toMatchObject({ method: 'GET', path: '/v2/sizes', status: 200, route: '/v2/sizes' });
  });
});
