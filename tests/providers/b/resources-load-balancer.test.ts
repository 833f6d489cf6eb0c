import { describe, expect, it } from 'vitest';
import { found } from '../../helpers/builders.js';
import { created, harness } from './harness.js';

describe('provb LoadBalancer', () => {
  it('creates, reads back its inputs, updates backends and algorithm in place, shows drift, deletes', async () => {
    const h = await harness();
    const lb = await created(h, 'loadBalancer:LoadBalancer', {
      name: 'front',
      backends: [{ ip: '192.168.1.10', sourcePort: 80, targetPort: 8080 }],
    });
    expect(lb.outputs).toMatchObject({ state: 'available' });
    expect(lb.outputs.publicIp).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
    expect((await lb.def.read(h.ctx(), lb.id, lb.prior))?.inputs).toEqual(lb.inputs);
    const news = lb.def.inputs.parse({
      ...lb.inputs,
      algorithm: 'least_connections',
      backends: [{ ip: '192.168.1.11', protocol: 'HTTP', sourcePort: 80, targetPort: 9090, healthCheckPort: 9091 }],
    });
    await lb.def.update!(h.ctx(), lb.id, lb.prior, news);
    expect(h.sim.store.loadbalancers.get(lb.id)).toMatchObject({
      algorithm: 'least_connections',
      backends: [{ ip: '192.168.1.11', target_port: 9090, health_check_port: 9091 }],
    });
    expect((await lb.def.read(h.ctx(), lb.id, { inputs: news, outputs: lb.outputs }))?.inputs).toEqual(news);
    h.sim.store.loadbalancers.get(lb.id)!.external_traffic_policy = 'Local';
    expect(
      (await lb.def.read(h.ctx(), lb.id, { inputs: news, outputs: lb.outputs }))?.inputs.externalTrafficPolicy,
    ).toBe('Local');
    expect(await found(lb.def.find!(h.ctx(), news, lb.hint))).toMatchObject({ id: lb.id });
    expect(lb.def.replaceOn).toEqual(['networkId', 'region']);
    await lb.def.delete(h.ctx(), lb.id, lb.prior);
    expect(await lb.def.read(h.ctx(), lb.id, lb.prior)).toBeNull();
  });

  it('is refused a duplicate name by the API', async () => {
    const h = await harness();
    await created(h, 'loadBalancer:LoadBalancer', { name: 'dup' });
    const err = await created(h, 'loadBalancer:LoadBalancer', { name: 'dup' }).catch((e) => e);
    expect(err).toMatchObject({ vendorCode: 'database_loadbalancer_duplicate_name', retryable: false });
  });
});
