import { describe, expect, it } from 'vitest';
import { ConfigError, ProviderError } from 'converge';
import { provc } from 'converge/providers/c';
import { startSimulator } from 'converge/providers/c/simulator';
import type { SimRequest } from '../../../src/kit/sim/router.js';
import { failure, makeProvider, useHarness } from './helpers/harness.js';
import { manualClock } from '../../../src/kit/sim/clock.js';

describe('the Gcore client', () => {
  const h = useHarness();

  it('sends Authorization: APIKey <key>, and the key keeps its $', async () => {
    let seen: SimRequest['headers'] | undefined;
    h().sim.use({
      method: 'GET',
      path: '/cloud/v3/inference/flavors/:name',
      handler: (req) => {
        seen = req.headers;
        return {
          status: 200,
          body: {
            name: 'x',
            description: '',
            cpu: 1,
            memory: 1,
            gpu: 0,
            gpu_model: '',
            gpu_memory: 0,
            gpu_compute_capability: '',
            is_gpu_shared: false,
          },
        };
      },
    });
    await h().engine.lookup(provc.getCloudInferenceFlavor({ flavorName: 'x' }));
    expect(seen!.authorization).toBe(`APIKey ${h().sim.apiKey}`);
    expect(h().sim.apiKey).toContain('$');
  });

  it('maps a refused key to a ProviderError with the vendor code and no key in it', async () => {
    const wrong = makeProvider(h().sim, { apiKey: '999$wrongwrongwrong' });
    h().secrets.push('999$wrongwrongwrong');
    const e = await failure(h(), wrong.config.client.getTask(h().ctx(), 'abc'));
    expect(e).toBeInstanceOf(ProviderError);
    expect(e).toMatchObject({
      status: 401,
      vendorCode: 'token_not_valid',
      retryable: false,
      pathTemplate: '/cloud/v1/tasks/{task_id}',
    });
    expect(typeof e.requestId).toBe('string');
  });

  it('fails without an API key before sending anything', async () => {
    const none = makeProvider(h().sim, { apiKey: undefined, env: {} });
    expect(await failure(h(), none.config.client.getTask(h().ctx(), 'abc'))).toBeInstanceOf(ConfigError);
    expect(h().sim.requests).toHaveLength(0);
  });

  it('accepts both CDN list shapes: the bare array and the envelope sent when limit is given', async () => {
    const c = h().provider.config.client;
    for (const name of ['a', 'b', 'c'])
      await c.createCdnOriginGroup(h().ctx(), { name, sources: [{ source: `${name}.example.com` }] });
    expect((await c.listCdnOriginGroups(h().ctx())).map((g) => g.name)).toEqual(['a', 'b', 'c']);
    expect((await c.listCdnOriginGroups(h().ctx(), { limit: 2, offset: 1 })).map((g) => g.name)).toEqual(['b', 'c']);
    const answers = h()
      .sim.requests.filter((r) => r.method === 'GET')
      .map((r) => r.response);
    expect(Array.isArray(answers[0])).toBe(true);
    expect(answers[1]).toMatchObject({ count: 3, next: null, results: [{ name: 'b' }, { name: 'c' }] });
    expect((answers[1] as { previous: string }).previous).toContain('offset=0');
  });

  it('retries a GET answered 500 and reports the retry', async () => {
    h().sim.setFaults({ rate: 0.6, kinds: ['500'], methods: ['GET'] });
    for (let i = 0; i < 3; i++) await h().engine.lookup(provc.getCloudInferenceFlavors({}));
    expect(h().sim.requests.some((r) => r.fault === '500')).toBe(true);
    expect(h().events.some((e) => e.type === 'retry')).toBe(true);
  });
});

describe('a base URL with a path prefix', () => {
  const h = useHarness({ sim: { basePath: '/gcore/api' } });

  it('resolves every endpoint under the prefix', async () => {
    expect(h().sim.baseUrl.endsWith('/gcore/api')).toBe(true);
    const r = (await h().engine.lookup(provc.getCloudBaremetalServers({}))) as { items: unknown[] };
    expect(r.items).toHaveLength(2);
    const fip = h().provider.resources.get('provc:index/cloudFloatingIp:CloudFloatingIp')!;
    await fip.create(h().ctx('create'), fip.inputs.parse({}));
    expect(h().sim.requests.every((x) => x.path.startsWith('/gcore/api/cloud/'))).toBe(true);
  });
});

describe('the simulator', () => {
  const clock = manualClock();
  const h = useHarness({ sim: { clock } });

  it('moves a task NEW → RUNNING → FINISHED over taskDurationMs and sets created_resources only at the end (a manual clock: no sleep)', async () => {
    h().sim.store.taskDurationMs = 90;
    const c = h().provider.config.client;
    const { tasks } = await c.createFloatingIp(h().ctx(), { projectId: 1, regionId: 76 }, {});
    const at = async (ms: number) => {
      clock.advance(ms);
      return c.getTask(h().ctx(), tasks[0]!);
    };
    const fresh = await at(0);
    expect([fresh.state, fresh.created_resources ?? null]).toEqual(['NEW', null]);
    const running = await at(30);
    expect([running.state, running.created_resources ?? null]).toEqual(['RUNNING', null]);
    expect((await at(59)).state).toBe('RUNNING');
    const done = await at(1);
    expect(done.state).toBe('FINISHED');
    expect(done.created_resources?.floatingips).toHaveLength(1);
  });

  it('lists tasks ten per page by default', async () => {
    const c = h().provider.config.client;
    for (let i = 0; i < 12; i++) await c.createFloatingIp(h().ctx(), { projectId: 1, regionId: 76 }, {});
    const page = await c.call<{ count: number; results: unknown[] }>(
      h().ctx(),
      'GET',
      '/cloud/v1/tasks',
      {},
      'list tasks',
    );
    expect(page.count).toBe(12);
    expect(page.results).toHaveLength(10);
  });

  it('answers an object of another project or region 404, as the vendor does', async () => {
    const e = await failure(
      h(),
      h().provider.config.client.getBaremetalServer(
        h().ctx(),
        { projectId: 2, regionId: 76 },
        '8dc30d49-bb34-4920-9bbd-03a2587ec0ad',
      ),
    );
    expect(e).toMatchObject({ status: 404, notFound: true, vendorCode: 'NotFoundError' });
  });

  it('accepts the scheme word in lower case, as the spec writes it', async () => {
    const sim = await startSimulator({ apiKey: 'k$1' });
    try {
      const res = await fetch(`${sim.url}/cloud/v3/inference/flavors`, { headers: { authorization: 'apikey k$1' } });
      expect(res.status).toBe(200);
      const bearer = await fetch(`${sim.url}/cloud/v3/inference/flavors`, { headers: { authorization: 'Bearer k$1' } });
      expect(bearer.status).toBe(401);
      expect(await bearer.json()).toMatchObject({ exception_class: 'token_not_valid' });
    } finally {
      await sim.close();
    }
  });

  it('serves its default fixtures for every read-only collection', async () => {
    const s = h().sim.store;
    expect(
      [
        s.baremetalServers.size,
        s.gpuClusters.baremetal.size,
        s.gpuClusters.virtual.size,
        s.gpuImages.baremetal.size,
        s.gpuImages.virtual.size,
        s.inferenceFlavors.size,
      ].every((n) => n > 0),
    ).toBe(true);
    const p = provc({ apiKey: h().sim.apiKey, baseUrl: h().sim.baseUrl, env: {} });
    expect(p.config.settings.cloudProjectId).toBeUndefined();
  });

  it('waits latencyMs before answering, and serves only the fixtures it is given', async () => {
    const sim = await startSimulator({ latencyMs: 40, fixtures: { inferenceFlavors: [] } });
    try {
      const started = Date.now();
      const res = await fetch(`${sim.url}/cloud/v3/inference/flavors`, {
        headers: { authorization: `APIKey ${sim.apiKey}` },
      });
      expect(Date.now() - started).toBeGreaterThanOrEqual(35);
      expect(await res.json()).toEqual({ count: 0, results: [] });
      expect(sim.store.baremetalServers.size).toBe(0);
    } finally {
      await sim.close();
    }
  });
});
