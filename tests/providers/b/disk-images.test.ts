// The disk-image catalogue is read once per apply: 20 instance creates naming their image share one
// GET /v2/disk_images (the provider instance keeps the read), counted in the simulator's request log;
// an image the kept catalogue does not hold is looked up afresh, once.
import { describe, expect, it } from 'vitest';
import { Engine, MemoryStateStore } from 'converge';
import { provb } from 'converge/providers/b';
import { catalogueDiskImages } from '../../../src/providers/b/wire/images.js';
import { harness } from './harness.js';

const catalogueReads = (requests: readonly { method: string; path: string }[]) =>
  requests.filter((r) => r.method === 'GET' && r.path === '/v2/disk_images').length;

describe('provb disk-image catalogue', () => {
  it('is read once by an apply of 20 instances', async () => {
    const h = await harness({
      quota: { instance_count: 40, cpu_core: 200, ram_mb: 1 << 20, public_ip_address: 40, port_count: 100 },
    });
    const net = provb.network('net', { label: 'cat' });
    const fw = provb.firewall('fw', { name: 'cat-fw', networkId: net.out('networkId') });
    const decls = [
      net,
      fw,
      ...Array.from({ length: 20 }, (_, i) =>
        provb.instance(`vm${i}`, {
          hostname: `vm${i}`,
          diskImage: 'ubuntu-jammy',
          networkId: net.out('networkId'),
          firewallId: fw.out('firewallId'),
        }),
      ),
    ];
    const engine = new Engine({ providers: [h.provider], state: new MemoryStateStore(), parallelism: 10 });
    const plan = await engine.plan(decls);
    h.sim.clearLog();
    const result = await engine.apply(plan);
    expect(result.failed).toEqual([]);
    expect(h.sim.store.instances.size).toBe(20);
    expect(catalogueReads(h.sim.requests)).toBe(1);
    const images = new Set([...h.sim.store.instances.values()].map((i) => i.template_id));
    expect(images.size).toBe(1);
    expect([...images][0]).not.toBe('ubuntu-jammy'); // the name resolved to the catalogue's id
  });

  it('reads afresh, once, for an image the kept catalogue does not hold', async () => {
    const h = await harness();
    const ctx = h.ctx();
    const client = h.provider.config.client;
    await Promise.all([catalogueDiskImages(client, ctx, 'LON1'), catalogueDiskImages(client, ctx, 'LON1')]);
    await catalogueDiskImages(client, ctx, 'LON1');
    expect(catalogueReads(h.sim.requests)).toBe(1);
    await catalogueDiskImages(client, ctx, 'LON1', true);
    expect(catalogueReads(h.sim.requests)).toBe(2);
  });
});
