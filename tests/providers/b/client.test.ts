import { describe, expect, it } from 'vitest';
import { ProviderError } from '../../../src/engine/errors.js';
import { harness } from './harness.js';

describe('provb client', () => {
  it('reads every page of a paginated list', async () => {
    const h = await harness();
    for (let i = 0; i < 130; i++)
      h.sim.store.instances.set(`i-${i}`, {
        id: `i-${i}`,
        hostname: `h${i}`,
        region: 'LON1',
        status: 'ACTIVE',
        tags: [],
        size: 'g3.xsmall',
        network_id: 'n',
        firewall_id: 'f',
        initial_user: 'civo',
        cpu_cores: 1,
        ram_mb: 1024,
        disk_gb: 25,
        created_at: '2024-01-01T00:00:00Z',
      });
    const all = await h.provider.config.client.listInstances(h.ctx(), 'LON1');
    expect(all).toHaveLength(130);
    const pages = h.sim.requests
      .filter((r) => r.path === '/v2/instances')
      .map((r) => new URLSearchParams(r.query).get('page'));
    expect(pages).toEqual(['1', '2']);
  });

  it('sends the bearer token and the region in the query', async () => {
    const h = await harness();
    await h.provider.config.client.listVolumes(h.ctx(), 'FRA1');
    expect(h.sim.requests.at(-1)?.query).toContain('region=FRA1');
  });

  it('maps a vendor error body to a ProviderError with the code, and not-found by the code', async () => {
    const h = await harness();
    const err = await h.provider.config.client.getInstance(h.ctx(), 'LON1', 'missing').catch((e) => e);
    expect(err).toBeInstanceOf(ProviderError);
    expect(err).toMatchObject({
      vendorCode: 'database_instance_find',
      notFound: true,
      status: 404,
      pathTemplate: '/v2/instances/{id}',
      retryable: false,
    });
    expect(err.message).not.toContain('missing');
  });

  it('does not treat a 404 without a vendor code as not-found', async () => {
    const h = await harness();
    h.sim.use({ method: 'GET', path: '/v2/volumes/:id', handler: () => ({ status: 404, raw: '404 page not found' }) });
    const err = await h.provider.config.client.getVolume(h.ctx(), 'LON1', 'x').catch((e) => e);
    expect(err).toMatchObject({ status: 404, notFound: false });
  });

  it('maps a duplicate-name error to a non-retryable ProviderError', async () => {
    const h = await harness();
    await h.provider.config.client.createSshKey(h.ctx(), 'k', 'ssh-ed25519 AAAA');
    const err = await h.provider.config.client.createSshKey(h.ctx(), 'k', 'ssh-ed25519 AAAA').catch((e) => e);
    expect(err).toMatchObject({
      vendorCode: 'database_ssh_key_duplicate_name',
      status: 400,
      retryable: false,
      notFound: false,
    });
  });

  it('retries a 429 with Retry-After 0 and a 500 on reads', async () => {
    const h = await harness({ faults: { rate: 1, kinds: ['429'], retryAfterSeconds: 0 } });
    let calls = 0;
    const ctx = h.ctx({
      report: (r) => {
        if (r.kind === 'retry') {
          calls++;
          if (calls === 2) h.sim.setFaults({ rate: 1, kinds: ['500'] });
          if (calls === 3) h.sim.setFaults(undefined);
        }
      },
    });
    const regions = await h.provider.config.client.regions(ctx);
    expect(regions.length).toBeGreaterThan(0);
    expect(calls).toBe(3);
    expect(h.sim.requests.map((r) => r.status)).toEqual([429, 429, 500, 200]);
  });

  it('never re-sends a create whose connection dropped after it took effect', async () => {
    const h = await harness({ faults: { rate: 1, kinds: ['drop_after'], methods: ['POST'] } });
    const err = await h.provider.config.client.createSshKey(h.ctx(), 'once', 'ssh-ed25519 AAAA').catch((e) => e);
    expect(err).toBeInstanceOf(ProviderError);
    expect(err.outcomeUnknown).toBe(true);
    expect(h.sim.requests.filter((r) => r.method === 'POST')).toHaveLength(1);
    expect(h.sim.store.sshkeys.size).toBe(1);
  });

  it('never puts the token in an error message', async () => {
    const h = await harness({}, { token: 'wrong-token-1234' });
    const err = await h.provider.config.client.regions(h.ctx()).catch((e) => e);
    expect(err).toMatchObject({ status: 401, vendorCode: 'database_account_not_found' });
    expect(err.message).not.toContain('wrong-token-1234');
    expect(JSON.stringify(err)).not.toContain('wrong-token-1234');
  });
});
