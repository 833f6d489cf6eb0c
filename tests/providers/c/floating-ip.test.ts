import { describe, expect, it } from 'vitest';
import { LookupError, ProviderError, TimeoutError, ValidationError } from 'converge';
import { provc } from 'converge/providers/c';
import { cloudFloatingIp } from '../../../src/providers/c/resources/cloud-floating-ip.js';
import { failure, useHarness, type Harness } from './helpers/harness.js';

const PORT = '5f0a1b2c-3d4e-4f5a-8b6c-7d8e9f0a1b2c';
const OTHER_PORT = '6f0a1b2c-3d4e-4f5a-8b6c-7d8e9f0a1b2c';
const inputs = (extra: Record<string, unknown> = {}) => cloudFloatingIp.inputs.parse(extra);

async function create(h: Harness, extra: Record<string, unknown> = {}) {
  return cloudFloatingIp.create(h.ctx('create', 'fip'), inputs(extra));
}

describe('CloudFloatingIp', () => {
  const h = useHarness();

  it('creates through a task, polling it until FINISHED, and reports each poll', async () => {
    h().sim.store.taskDurationMs = 600; // long enough to be polled on a loaded machine
    const r = await create(h(), { tags: { env: 'dev' } });
    expect(r.outputs).toMatchObject({
      floatingIpId: r.id,
      status: 'DOWN',
      portId: null,
      projectId: 1,
      regionId: 76,
      tags: [{ key: 'env', value: 'dev', readOnly: false }],
    });
    expect(String(r.outputs.floatingIpAddress)).toMatch(/^203\.0\.113\./);
    const polls = h().reports.filter((x) => x.kind === 'poll');
    expect(polls.length).toBeGreaterThan(0);
    expect(polls[0]!.kind === 'poll' && polls[0]!.message).toMatch(
      /^waiting for task [0-9a-f-]{36}: create_fip is (NEW|RUNNING)$/,
    );
    expect(h().sim.requests.filter((x) => x.method === 'POST')).toHaveLength(1);
  });

  it('reads it back with the inputs the API knows, and null once it is gone', async () => {
    const r = await create(h(), { portId: PORT, tags: { a: '1' } });
    const read = await cloudFloatingIp.read(h().ctx(), r.id, {
      inputs: inputs({ portId: PORT, tags: { a: '1' } }),
      outputs: r.outputs,
    });
    expect(read?.inputs).toEqual({ portId: PORT, tags: { a: '1' } });
    expect(read?.outputs).toMatchObject({ status: 'ACTIVE', portId: PORT });
    await cloudFloatingIp.delete(h().ctx('delete'), r.id, { inputs: inputs(), outputs: r.outputs });
    expect(h().sim.store.floatingIps.size).toBe(0);
    expect(await cloudFloatingIp.read(h().ctx(), r.id, { inputs: inputs(), outputs: r.outputs })).toBeNull();
  });

  it('updates tags (removing one) and the port assignment through one task', async () => {
    const r = await create(h(), { tags: { keep: 'x', drop: 'y' } });
    const news = inputs({ portId: OTHER_PORT, tags: { keep: 'z', add: 'w' } });
    const u = await cloudFloatingIp.update!(
      h().ctx('update'),
      r.id,
      { inputs: inputs({ tags: { keep: 'x', drop: 'y' } }), outputs: r.outputs },
      news,
    );
    expect(u.outputs).toMatchObject({ status: 'ACTIVE', portId: OTHER_PORT });
    expect(u.outputs.tags).toEqual([
      { key: 'keep', value: 'z', readOnly: false },
      { key: 'add', value: 'w', readOnly: false },
    ]);
    const patch = h().sim.requests.find((x) => x.method === 'PATCH')!;
    expect(patch.path).toContain('/cloud/v2/floatingips/');
    expect(patch.body).toEqual({
      port_id: OTHER_PORT,
      fixed_ip_address: null,
      tags: { keep: 'z', add: 'w', drop: null },
    });
    const unassigned = await cloudFloatingIp.update!(
      h().ctx('update'),
      r.id,
      { inputs: news, outputs: u.outputs },
      inputs({ tags: { keep: 'z', add: 'w' } }),
    );
    expect(unassigned.outputs).toMatchObject({ status: 'DOWN', portId: null, fixedIpAddress: null });
  });

  it('imports by uuid or by project/region/uuid', async () => {
    const r = await create(h());
    const plain = cloudFloatingIp.importId!(r.id, h().provider.config);
    const read = await cloudFloatingIp.read(h().ctx('import'), plain, { inputs: {}, outputs: {} });
    expect(read?.id).toBe(r.id);
    const scoped = cloudFloatingIp.importId!(`1/76/${r.id}`, h().provider.config);
    const read2 = await cloudFloatingIp.read(h().ctx('import'), scoped, { inputs: {}, outputs: {} });
    expect(read2?.id).toBe(r.id);
    expect(read2?.inputs).toEqual({ tags: {} });
    expect(() => cloudFloatingIp.importId!('a/b/c', h().provider.config)).toThrow(TypeError);
  });

  it('fails with the task error text when the task ends in ERROR, creating nothing', async () => {
    h().sim.store.failNextTask('No free public IPs in the pool', 'create_fip');
    const e = await failure(h(), create(h()));
    expect(e).toBeInstanceOf(ProviderError);
    expect(e.detail).toContain('No free public IPs in the pool');
    expect(e.vendorCode).toBe('TASK_ERROR');
    expect(h().sim.store.floatingIps.size).toBe(0);
  });

  it('gives up after pollingTimeoutSeconds with a TimeoutError naming the task', async () => {
    h().sim.store.taskDurationMs = 60_000;
    const ctx = { ...h().ctx('create', 'fip'), config: { ...h().provider.config, client: h().provider.config.client } };
    const slow = (await import('converge/providers/c')).provc({
      apiKey: h().sim.apiKey,
      baseUrl: h().sim.baseUrl,
      cloudProjectId: 1,
      cloudRegionId: 76,
      pollingIntervalSeconds: 0.005,
      pollingTimeoutSeconds: 0.05,
      env: {},
    });
    const e = await failure(h(), cloudFloatingIp.create({ ...ctx, config: slow.config }, inputs()));
    expect(e).toBeInstanceOf(TimeoutError);
    expect(e.detail).toMatch(/^task [0-9a-f-]{36}$/);
    expect(e.limitMs).toBe(50);
    expect(e.address).toBe('fip');
  });

  it('retries creates refused with 429 (Retry-After) and makes exactly one floating IP each', async () => {
    h().sim.setFaults({ rate: 0.5, kinds: ['429'], methods: ['POST'], retryAfterSeconds: 0 });
    for (let i = 0; i < 4; i++) await create(h());
    expect(h().sim.store.floatingIps.size).toBe(4);
    expect(h().sim.requests.filter((x) => x.fault === '429').length).toBeGreaterThan(0);
    expect(h().reports.some((x) => x.kind === 'retry')).toBe(true);
  });

  it('retries reads on 500 but never re-sends a create whose outcome is unknown', async () => {
    h().sim.setFaults({ rate: 1, kinds: ['500'], methods: ['POST'] });
    const e = await failure(h(), create(h()));
    expect(e).toBeInstanceOf(ProviderError);
    expect(e.outcomeUnknown).toBe(true);
    expect(h().sim.requests.filter((x) => x.method === 'POST')).toHaveLength(1);
    expect(h().sim.store.floatingIps.size).toBe(0);
    h().sim.setFaults({ rate: 0.5, kinds: ['500'], methods: ['GET'] });
    // Every other GET fails: with 12 retries a read gives up with odds of 1 in 8,192, so the test does not flake.
    const r = await cloudFloatingIp.create(
      { ...h().ctx('create', 'fip'), retry: { retries: 12, minTimeoutMs: 1, maxTimeoutMs: 2 } },
      inputs(),
    );
    expect(r.outputs.floatingIpId).toBe(r.id);
    expect(h().sim.store.floatingIps.size).toBe(1);
  });

  it('needs a project and region before any request', async () => {
    const p = (await import('converge/providers/c')).provc({ apiKey: 'k', baseUrl: h().sim.baseUrl, env: {} });
    const issues = cloudFloatingIp.check!(inputs(), p.config);
    expect(issues.map((i) => i.code)).toEqual(['missing_project', 'missing_region']);
    expect(
      cloudFloatingIp.check!(inputs({ fixedIpAddress: '10.0.0.3' }), h().provider.config).map((i) => i.path[0]),
    ).toEqual(['fixedIpAddress']);
  });
});

describe('floating IP lookups', () => {
  const h = useHarness();

  it('lists floating IPs with status, tag keys and tag_key_value filters, paging to maxItems', async () => {
    await create(h(), { tags: { env: 'prod', team: 'a' } });
    await create(h(), { tags: { env: 'dev' }, portId: PORT });
    await create(h(), { tags: { env: 'prod' } });
    h().sim.clearLog();
    const all = (await h().engine.lookup(provc.getCloudFloatingIps({}))) as { items: Record<string, unknown>[] };
    expect(all.items).toHaveLength(3);
    expect(all.items[0]).toHaveProperty('instance', null);
    const prod = (await h().engine.lookup(
      provc.getCloudFloatingIps({ tagKeyValue: { env: 'prod' }, status: 'DOWN' }),
    )) as { items: unknown[] };
    expect(prod.items).toHaveLength(2);
    const team = (await h().engine.lookup(provc.getCloudFloatingIps({ tagKeys: ['team', 'env'] }))) as {
      items: unknown[];
    };
    expect(team.items).toHaveLength(1);
    const q = new URLSearchParams(h().sim.requests.at(-1)!.query);
    expect(q.getAll('tag_key')).toEqual(['team', 'env']);
    const capped = (await h().engine.lookup(provc.getCloudFloatingIps({ maxItems: 2 }))) as { items: unknown[] };
    expect(capped.items).toHaveLength(2);
    expect(
      await failure(h(), h().engine.lookup('provc:index/getCloudFloatingIps:getCloudFloatingIps', { status: 'UP' })),
    ).toBeInstanceOf(ValidationError);
  });

  it('reads one by id or by findOneBy with exactly one match', async () => {
    const a = await create(h(), { tags: { role: 'lb' } });
    await create(h(), { tags: { role: 'web' } });
    await create(h(), { tags: { role: 'web' } });
    const byId = (await h().engine.lookup(provc.getCloudFloatingIp({ floatingIpId: a.id }))) as Record<string, unknown>;
    expect(byId).toMatchObject({ floatingIpId: a.id, status: 'DOWN' });
    expect(byId).not.toHaveProperty('instance');
    const one = (await h().engine.lookup(
      provc.getCloudFloatingIp({ findOneBy: { tagKeyValue: { role: 'lb' } } }),
    )) as Record<string, unknown>;
    expect(one.id).toBe(a.id);
    const two = await failure(
      h(),
      h().engine.lookup(provc.getCloudFloatingIp({ findOneBy: { tagKeyValue: { role: 'web' } } })),
    );
    expect(two).toBeInstanceOf(LookupError);
    expect(two.matches).toHaveLength(2);
    const none = await failure(h(), h().engine.lookup(provc.getCloudFloatingIp({ findOneBy: { status: 'ACTIVE' } })));
    expect(none.reason).toBe('not_found');
  });
});
