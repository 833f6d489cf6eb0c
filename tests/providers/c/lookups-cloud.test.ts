import { describe, expect, it } from 'vitest';
import { Engine, LookupError, MemoryStateStore, ValidationError, type Event } from 'converge';
import { provc } from 'converge/providers/c';
import {
  baremetalServer,
  gpuCluster,
  gpuImage,
  inferenceFlavor,
  SIM_PROJECT_ID,
  SIM_REGION_ID,
} from 'converge/providers/c/simulator';
import { failure, makeProvider, useHarness, type Harness } from './helpers/harness.js';

type Items = { items: Record<string, unknown>[]; id: string; [k: string]: unknown };
const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const cloudRequests = (h: Harness) => h.sim.requests.filter((r) => r.path.startsWith('/cloud/'));

describe('getCloudBaremetalServers', () => {
  const many = Array.from({ length: 1005 }, (_, i) =>
    baremetalServer({ id: uuid(i + 1), name: `bm-${String(i).padStart(4, '0')}`, created_at: `2026-01-01T00:00:00Z` }),
  );
  const h = useHarness(() => ({ sim: { fixtures: { baremetalServers: many } } }));

  it('pages past the server page of 1000 until the results end', async () => {
    const r = await h().engine.lookup(provc.getCloudBaremetalServers({ maxItems: 2000 }));
    expect((r as Items).items).toHaveLength(1005);
    const pages = cloudRequests(h());
    expect(pages.map((p) => p.query)).toEqual(['', '?offset=1000']);
  });

  it('stops at the default maxItems of 1000', async () => {
    const r = await h().engine.lookup(provc.getCloudBaremetalServers({}));
    expect((r as Items).items).toHaveLength(1000);
    expect(cloudRequests(h())).toHaveLength(1);
  });

  it('stops at maxItems and truncates to it', async () => {
    const r = (await h().engine.lookup(provc.getCloudBaremetalServers({ maxItems: 3 }))) as Items;
    expect(r.items).toHaveLength(3);
    expect(cloudRequests(h())).toHaveLength(1);
    expect(r.maxItems).toBe(3);
    expect(typeof r.id).toBe('string');
  });

  it('sends the filters with the wire encodings and echoes its inputs', async () => {
    const args = {
      name: 'bm-000',
      changesSince: '2025-01-01T00:00:00Z',
      orderBy: 'name.asc' as const,
      tagKeyValue: { env: 'prod' },
      tagValues: ['a', 'b'],
      status: 'ACTIVE' as const,
      includeK8s: false,
    };
    const r = (await h().engine.lookup(provc.getCloudBaremetalServers(args))) as Items & typeof args;
    expect(r.name).toBe('bm-000');
    expect(r.tagValues).toEqual(['a', 'b']);
    const q = new URLSearchParams(cloudRequests(h())[0]!.query);
    expect(q.get('changes-since')).toBe('2025-01-01T00:00:00Z');
    expect(q.get('order_by')).toBe('name.asc');
    expect(JSON.parse(q.get('tag_key_value')!)).toEqual({ env: 'prod' });
    expect(q.getAll('tag_value')).toEqual(['a', 'b']);
    expect(q.get('include_k8s')).toBe('false');
  });

  it('maps servers to the seed fields', async () => {
    const r = (await h().engine.lookup(provc.getCloudBaremetalServers({ uuid: uuid(1) }))) as Items;
    expect(r.items).toHaveLength(1);
    const s = r.items[0]!;
    for (const k of [
      'addresses',
      'blackholePorts',
      'createdAt',
      'creatorTaskId',
      'fixedIpAssignments',
      'flavor',
      'id',
      'instanceIsolation',
      'name',
      'projectId',
      'region',
      'regionId',
      'serverId',
      'sshKeyName',
      'status',
      'tags',
      'taskId',
      'taskState',
      'vmState',
    ]) {
      expect(s).toHaveProperty(k);
    }
    expect((s.flavor as Record<string, unknown>).flavorId).toBe('bm2-hf-small');
    expect(Object.keys(s.addresses as object)).toEqual(['private-net']);
  });

  it('refuses values outside the allowed sets before any request', async () => {
    const bad = [{ orderBy: 'size.asc' }, { status: 'DELETED' }, { protectionStatus: 'active' }, { maxItems: -1 }];
    for (const args of bad) {
      const e = await failure(
        h(),
        h().engine.lookup('provc:index/getCloudBaremetalServers:getCloudBaremetalServers', args),
      );
      expect(e).toBeInstanceOf(ValidationError);
    }
    expect(h().sim.requests).toHaveLength(0);
  });

  it('warns that protectionStatus and profileName need withDdos', async () => {
    await h().engine.lookup(
      provc.getCloudBaremetalServers({ protectionStatus: 'Active', profileName: 'basic', maxItems: 1 }),
    );
    const warnings = h().events.filter((e): e is Extract<Event, { type: 'warning' }> => e.type === 'warning');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.message).toContain('withDdos');
    await h().engine.lookup(
      provc.getCloudBaremetalServers({ protectionStatus: 'Active', withDdos: true, maxItems: 1 }),
    );
    expect(h().events.filter((e) => e.type === 'warning')).toHaveLength(1);
  });
});

describe('getCloudBaremetalServer', () => {
  const h = useHarness();

  it('reads one server by id', async () => {
    const r = (await h().engine.lookup(
      provc.getCloudBaremetalServer({ serverId: '8dc30d49-bb34-4920-9bbd-03a2587ec0ad' }),
    )) as Record<string, unknown>;
    expect(r.name).toBe('bm-web-1');
    expect(r.serverId).toBe('8dc30d49-bb34-4920-9bbd-03a2587ec0ad');
  });

  it('finds exactly one server with findOneBy, then reads it by id', async () => {
    const r = (await h().engine.lookup(provc.getCloudBaremetalServer({ findOneBy: { name: 'web' } }))) as Record<
      string,
      unknown
    >;
    expect(r.name).toBe('bm-web-1');
    expect(cloudRequests(h()).map((x) => x.route)).toEqual([
      '/cloud/v1/bminstances/:project_id/:region_id',
      '/cloud/v1/bminstances/:project_id/:region_id/:id',
    ]);
  });

  it('fails findOneBy with no match and with two, saying how many matched', async () => {
    const none = await failure(
      h(),
      h().engine.lookup(provc.getCloudBaremetalServer({ findOneBy: { name: 'nothing' } })),
    );
    expect(none).toBeInstanceOf(LookupError);
    expect(none.reason).toBe('not_found');
    const two = await failure(h(), h().engine.lookup(provc.getCloudBaremetalServer({ findOneBy: { name: 'bm-' } })));
    expect(two.reason).toBe('ambiguous');
    expect(two.matches).toHaveLength(2);
    expect(two.message).toContain('2 objects match');
  });

  it('requires exactly one of serverId and findOneBy', async () => {
    for (const args of [{}, { serverId: 'x', findOneBy: { name: 'a' } }]) {
      expect(
        await failure(h(), h().engine.lookup('provc:index/getCloudBaremetalServer:getCloudBaremetalServer', args)),
      ).toBeInstanceOf(ValidationError);
    }
    expect(h().sim.requests).toHaveLength(0);
  });

  it('answers a missing server with a not_found LookupError', async () => {
    const e = await failure(h(), h().engine.lookup(provc.getCloudBaremetalServer({ serverId: uuid(99) })));
    expect(e).toBeInstanceOf(LookupError);
    expect(e.reason).toBe('not_found');
  });
});

describe('project and region defaults', () => {
  const h = useHarness(() => ({
    sim: { fixtures: { baremetalServers: [baremetalServer({ id: uuid(1), project_id: 5, region_id: 9 })] } },
  }));

  it('uses an explicit projectId and regionId over the provider defaults', async () => {
    const r = (await h().engine.lookup(provc.getCloudBaremetalServers({ projectId: 5, regionId: 9 }))) as Items;
    expect(r.items).toHaveLength(1);
    expect(cloudRequests(h())[0]!.path).toBe('/cloud/v1/bminstances/5/9');
  });

  it('takes the defaults from the environment when the configuration has none', async () => {
    const provider = makeProvider(h().sim, {
      cloudProjectId: undefined,
      cloudRegionId: undefined,
      env: { PROVC_CLOUD_PROJECT_ID: '5', PROVC_CLOUD_REGION_ID: '9' },
    });
    const engine = new Engine({ providers: [provider], state: new MemoryStateStore() });
    const r = (await engine.lookup(provc.getCloudBaremetalServers({}))) as Items;
    expect(r.items).toHaveLength(1);
    expect(r.projectId).toBeUndefined();
  });

  it('prefers the configuration to the environment', async () => {
    const provider = makeProvider(h().sim, {
      cloudProjectId: 5,
      cloudRegionId: 9,
      env: { PROVC_CLOUD_PROJECT_ID: '7', PROVC_CLOUD_REGION_ID: '7' },
    });
    const engine = new Engine({ providers: [provider], state: new MemoryStateStore() });
    await engine.lookup(provc.getCloudFloatingIps({}));
    expect(cloudRequests(h())[0]!.path).toBe('/cloud/v1/floatingips/5/9');
  });

  it('fails a cloud lookup with neither, naming the field, before any request', async () => {
    const provider = makeProvider(h().sim, { cloudProjectId: undefined, cloudRegionId: undefined, env: {} });
    const engine = new Engine({ providers: [provider], state: new MemoryStateStore() });
    const e = await failure(h(), engine.lookup(provc.getCloudGpuVirtualCluster({ clusterId: uuid(1) })));
    expect(e).toBeInstanceOf(ValidationError);
    const issues = (e as unknown as ValidationError).issues;
    expect(issues.map((i) => [i.code, i.path.join('.')])).toEqual([
      ['missing_project', 'projectId'],
      ['missing_region', 'regionId'],
    ]);
    const onlyRegion = await failure(h(), engine.lookup(provc.getCloudFloatingIps({ projectId: 5 })));
    expect((onlyRegion as unknown as ValidationError).issues.map((i) => i.code)).toEqual(['missing_region']);
    expect(h().sim.requests).toHaveLength(0);
  });
});

describe('GPU cluster and image lookups', () => {
  const clusters = Array.from({ length: 23 }, (_, i) =>
    gpuCluster('baremetal', { id: uuid(i + 1), name: `c-${i}`, managed_by: i === 0 ? 'k8s' : 'user' }),
  );
  const h = useHarness(() => ({
    sim: {
      fixtures: {
        gpuBaremetalClusters: clusters,
        gpuVirtualClusters: Array.from({ length: 12 }, (_, i) =>
          gpuCluster('virtual', { id: uuid(100 + i), name: `v-${i}` }),
        ),
        gpuBaremetalImages: [gpuImage({ id: uuid(200) })],
        gpuVirtualImages: [gpuImage({ id: uuid(201), name: 'virt-image' })],
      },
    },
  }));

  it('pages bare metal clusters ten at a time and hides k8s-managed ones by default', async () => {
    const r = (await h().engine.lookup(provc.getCloudGpuBaremetalClusters({}))) as Items;
    expect(r.items).toHaveLength(22);
    expect(cloudRequests(h()).map((x) => x.query)).toEqual(['', '?offset=10', '?offset=20']);
    expect(r.items[0]).toMatchObject({
      clusterId: uuid(2),
      projectId: SIM_PROJECT_ID,
      regionId: SIM_REGION_ID,
      managedBy: 'user',
    });
  });

  it('asks for k8s-managed clusters with managedBies and caps at maxItems', async () => {
    const r = (await h().engine.lookup(
      provc.getCloudGpuBaremetalClusters({ managedBies: ['k8s', 'user'], maxItems: 15 }),
    )) as Items;
    expect(r.items).toHaveLength(15);
    expect(new URLSearchParams(cloudRequests(h())[0]!.query).getAll('managed_by')).toEqual(['k8s', 'user']);
    expect(
      await failure(
        h(),
        h().engine.lookup('provc:index/getCloudGpuBaremetalClusters:getCloudGpuBaremetalClusters', {
          managedBies: ['root'],
        }),
      ),
    ).toBeInstanceOf(ValidationError);
  });

  it('pages virtual clusters', async () => {
    const r = (await h().engine.lookup(provc.getCloudGpuVirtualClusters({}))) as Items;
    expect(r.items).toHaveLength(12);
  });

  it('reads one cluster of each kind, by id or by findOneBy', async () => {
    const bm = (await h().engine.lookup(provc.getCloudGpuBaremetalCluster({ clusterId: uuid(3) }))) as Record<
      string,
      unknown
    >;
    expect(bm).toMatchObject({
      name: 'c-2',
      imageId: '3793c250-0b3b-4678-bab3-e11afbc29657',
      hasPendingChanges: false,
      serversCount: 1,
    });
    const found = (await h().engine.lookup(
      provc.getCloudGpuBaremetalCluster({ findOneBy: { name: 'c-5' } }),
    )) as Record<string, unknown>;
    expect(found.clusterId).toBe(uuid(6));
    const v = (await h().engine.lookup(provc.getCloudGpuVirtualCluster({ clusterId: uuid(101) }))) as Record<
      string,
      unknown
    >;
    expect(v).toMatchObject({ name: 'v-1', projectId: SIM_PROJECT_ID });
    expect((v.serversSettings as Record<string, unknown>).volumes).toHaveLength(1);
  });

  it('reads GPU images of each kind', async () => {
    const a = (await h().engine.lookup(provc.getCloudGpuBaremetalClusterImage({ imageId: uuid(200) }))) as Record<
      string,
      unknown
    >;
    expect(a).toMatchObject({
      imageId: uuid(200),
      osDistro: 'ubuntu',
      gpuDriver: 'nvidia',
      sshKey: 'allow',
      visibility: 'public',
      regionId: SIM_REGION_ID,
    });
    const b = (await h().engine.lookup(provc.getCloudGpuVirtualClusterImage({ imageId: uuid(201) }))) as Record<
      string,
      unknown
    >;
    expect(b.name).toBe('virt-image');
    const e = await failure(h(), h().engine.lookup(provc.getCloudGpuVirtualClusterImage({ imageId: uuid(200) })));
    expect(e.reason).toBe('not_found');
  });
});

describe('inference flavor lookups', () => {
  const flavors = Array.from({ length: 7 }, (_, i) => inferenceFlavor({ name: `f-${i}`, cpu: i + 0.5 }));
  const h = useHarness(() => ({ sim: { fixtures: { inferenceFlavors: flavors } } }));

  it('lists flavors without project or region and caps at maxItems', async () => {
    const r = (await h().engine.lookup(provc.getCloudInferenceFlavors({ maxItems: 4 }))) as Items;
    expect(r.items.map((f) => f.flavorName)).toEqual(['f-0', 'f-1', 'f-2', 'f-3']);
    expect(cloudRequests(h())[0]!.path).toBe('/cloud/v3/inference/flavors');
  });

  it('reads one flavor by name with the seed fields', async () => {
    const f = (await h().engine.lookup(provc.getCloudInferenceFlavor({ flavorName: 'f-2' }))) as Record<
      string,
      unknown
    >;
    expect(f).toMatchObject({
      id: 'f-2',
      flavorName: 'f-2',
      name: 'f-2',
      cpu: 2.5,
      isGpuShared: false,
      gpuMemory: 0,
      gpuComputeCapability: '',
    });
  });
});
