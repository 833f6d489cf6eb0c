import { describe, expect, it } from 'vitest';
import { found } from '../../helpers/builders.js';
import { created, harness, type Harness } from './harness.js';

async function readBack(h: Harness, c: Awaited<ReturnType<typeof created>>) {
  return c.def.read(h.ctx({ operation: 'read' }), c.id, c.prior);
}
const defaultFirewall = (h: Harness) =>
  [...h.sim.store.firewalls.values()].find((f) => f.default && f.region === 'LON1')!;

describe('provb DnsDomainName and DnsDomainRecord', () => {
  it('creates a domain, renames it, imports it by name', async () => {
    const h = await harness();
    const d = await created(h, 'dnsDomainName:DnsDomainName', { name: 'example.com' });
    expect(d.outputs.accountId).toBe(h.sim.store.accountId);
    expect((await readBack(h, d))?.inputs).toEqual(d.inputs);
    const imported = await d.def.read(h.ctx(), d.def.importId!('example.com', h.provider.config), {
      inputs: {},
      outputs: {},
    });
    expect(imported).toMatchObject({ id: d.id, inputs: { name: 'example.com' } });
    await d.def.update!(h.ctx(), d.id, d.prior, { name: 'example.org' });
    expect(h.sim.store.domains.get(d.id)?.name).toBe('example.org');
    await d.def.delete(h.ctx(), d.id, d.prior);
    expect(await readBack(h, d)).toBeNull();
  });

  it('creates records with the API defaults, updates every field in place, imports by domain:record', async () => {
    const h = await harness();
    const d = await created(h, 'dnsDomainName:DnsDomainName', { name: 'rec.example' });
    const mx = await created(h, 'dnsDomainRecord:DnsDomainRecord', {
      domainId: d.id,
      type: 'mx',
      name: '@',
      value: 'mail.rec.example',
    });
    expect(mx.inputs.ttl).toBe(600);
    expect(mx.outputs.priority).toBe(10);
    expect(mx.id).toMatch(new RegExp(`^${d.id}:`));
    expect((await readBack(h, mx))?.inputs).toEqual(mx.inputs);
    const a = await created(h, 'dnsDomainRecord:DnsDomainRecord', {
      domainId: d.id,
      type: 'A',
      name: 'www',
      value: '192.0.2.1',
      ttl: 900,
    });
    expect(a.inputs.type).toBe('a');
    const news = a.def.inputs.parse({ ...a.inputs, value: '192.0.2.2', ttl: 1200, name: 'web' });
    await a.def.update!(h.ctx(), a.id, a.prior, news);
    const recordId = a.id.split(':')[1]!;
    expect(h.sim.store.records.get(recordId)).toMatchObject({ value: '192.0.2.2', ttl: 1200, name: 'web', type: 'A' });
    const imported = await a.def.read(h.ctx(), a.def.importId!(a.id, h.provider.config), { inputs: {}, outputs: {} });
    expect(imported?.inputs).toEqual(news);
    expect(() => a.def.importId!('no-colon', h.provider.config)).toThrow(TypeError);
    h.sim.store.records.get(recordId)!.ttl = 3600;
    expect((await a.def.read(h.ctx(), a.id, { inputs: news, outputs: {} }))?.inputs.ttl).toBe(3600);
    expect(await found(a.def.find!(h.ctx(), news, a.hint))).toMatchObject({ id: a.id });
    await a.def.delete(h.ctx(), a.id, a.prior);
    expect(await readBack(h, a)).toBeNull();
  });
});

describe('provb KubernetesCluster and KubernetesNodePool', () => {
  it('creates a cluster (ready), scales and relabels its pool in place, and adds a node pool', async () => {
    const h = await harness();
    const fw = defaultFirewall(h);
    const c = await created(h, 'kubernetesCluster:KubernetesCluster', {
      name: 'k1',
      firewallId: fw.id,
      pools: { label: 'main', nodeCount: 2, size: 'g4s.kube.small', labels: { tier: 'a' } },
      applications: 'Longhorn',
      writeKubeconfig: true,
    });
    expect(c.outputs).toMatchObject({ status: 'ACTIVE', ready: true, poolId: 'main' });
    expect(c.outputs.kubeconfig).toMatch(/apiVersion: v1/);
    expect((c.outputs.installedApplications as { application: string }[]).map((a) => a.application)).toContain(
      'Longhorn',
    );
    expect((await readBack(h, c))?.inputs).toEqual(c.inputs);

    const news = c.def.inputs.parse({
      ...c.inputs,
      tags: 'prod web',
      pools: {
        label: 'main',
        nodeCount: 3,
        size: 'g4s.kube.small',
        labels: { tier: 'b' },
        taints: [{ key: 'k', value: 'v', effect: 'NoSchedule' }],
      },
    });
    const { outputs } = await c.def.update!(h.ctx(), c.id, c.prior, news);
    expect((outputs.instanceNames as string[]).length).toBe(3);
    const server = h.sim.store.clusters.get(c.id)!;
    expect(server.tags).toEqual(['prod', 'web']);
    expect(server.required_pools[0]).toMatchObject({ count: 3, labels: { tier: 'b' } });
    expect((await c.def.read(h.ctx(), c.id, { inputs: news, outputs }))?.inputs).toEqual(news);

    const p = await created(h, 'kubernetesNodePool:KubernetesNodePool', {
      clusterId: c.id,
      label: 'extra',
      nodeCount: 1,
      size: 'g4s.kube.medium',
    });
    expect(p.id).toBe(`${c.id}:extra`);
    expect((await readBack(h, p))?.inputs).toEqual(p.inputs);
    expect(h.sim.store.clusters.get(c.id)!.pools.map((x: { id: string }) => x.id)).toEqual(['main', 'extra']);
    expect((await c.def.read(h.ctx(), c.id, { inputs: news, outputs }))?.inputs).toEqual(news);
    await p.def.update!(h.ctx(), p.id, p.prior, p.def.inputs.parse({ ...p.inputs, nodeCount: 2 }));
    expect(h.sim.store.clusters.get(c.id)!.pools[1].instances).toHaveLength(2);
    const imported = await p.def.read(h.ctx(), p.def.importId!(`${c.id}:extra`, h.provider.config), {
      inputs: {},
      outputs: {},
    });
    expect(imported?.inputs).toMatchObject({ clusterId: c.id, label: 'extra', nodeCount: 2 });
    await p.def.delete(h.ctx(), p.id, p.prior);
    expect(await readBack(h, p)).toBeNull();
    await c.def.delete(h.ctx(), c.id, c.prior);
    expect(await readBack(h, c)).toBeNull();
  });

  it('keeps the kubeconfig out of outputs unless writeKubeconfig', async () => {
    const h = await harness();
    const c = await created(h, 'kubernetesCluster:KubernetesCluster', {
      name: 'k2',
      firewallId: defaultFirewall(h).id,
      pools: { nodeCount: 1, size: 'g4s.kube.small' },
    });
    expect(c.outputs.kubeconfig).toBeUndefined();
    expect((await readBack(h, c))?.inputs).toEqual(c.inputs);
    expect(await found(c.def.find!(h.ctx(), c.inputs, c.hint))).toMatchObject({ id: c.id });
  });

  it('plans replacement for type, CNI, applications, network and pool size', async () => {
    const h = await harness();
    expect(h.res('kubernetesCluster:KubernetesCluster').replaceOn).toEqual(
      expect.arrayContaining(['clusterType', 'cni', 'applications', 'networkId', 'pools.size']),
    );
    expect(h.res('kubernetesNodePool:KubernetesNodePool').replaceOn).toEqual(
      expect.arrayContaining(['size', 'clusterId']),
    );
  });
});

describe('provb Database', () => {
  it('creates (Pending → Ready), updates nodes in place, shows drift, imports by id', async () => {
    const h = await harness();
    const d = await created(h, 'database:Database', {
      name: 'db1',
      engine: 'MySQL',
      version: '8.0',
      size: 'g3.db.small',
      nodes: 1,
    });
    expect(d.outputs).toMatchObject({
      status: 'Ready',
      port: 3306,
      username: 'root',
      dnsEndpoint: `${d.id}.db.civo.com`,
    });
    expect((d.outputs.password as string).length).toBeGreaterThan(4);
    expect((await readBack(h, d))?.inputs).toEqual(d.inputs);
    const news = d.def.inputs.parse({ ...d.inputs, nodes: 3 });
    await d.def.update!(h.ctx(), d.id, d.prior, news);
    expect(h.sim.store.databases.get(d.id)?.nodes).toBe(3);
    h.sim.store.databases.get(d.id)!.nodes = 2;
    expect((await d.def.read(h.ctx(), d.id, { inputs: news, outputs: {} }))?.inputs.nodes).toBe(2);
    const imported = await d.def.read(h.ctx(), d.id, { inputs: {}, outputs: {} });
    expect(imported?.inputs).toMatchObject({ engine: 'mysql', version: '8.0', size: 'g3.db.small', name: 'db1' });
    expect(d.def.replaceOn).toEqual(expect.arrayContaining(['engine', 'version', 'size']));
    await d.def.delete(h.ctx(), d.id, d.prior);
    expect(await readBack(h, d)).toBeNull();
  });
});

describe('provb ObjectStore and ObjectStoreCredential', () => {
  it('creates a credential and a store owned by it, resizes the store, updates the keys', async () => {
    const h = await harness();
    const cred = await created(h, 'objectStoreCredential:ObjectStoreCredential', { name: 'cred1' });
    expect(cred.outputs.status).toBe('ready');
    expect((await readBack(h, cred))?.inputs).toEqual(cred.inputs);
    const store = await created(h, 'objectStore:ObjectStore', {
      name: 'bucket1',
      accessKeyId: cred.outputs.accessKeyId,
    });
    expect(store.inputs.maxSizeGb).toBe(500);
    expect(store.outputs).toMatchObject({
      status: 'ready',
      accessKeyId: cred.outputs.accessKeyId,
      bucketUrl: 'objectstore.lon1.civo.com',
    });
    expect((await readBack(h, store))?.inputs).toEqual(store.inputs);
    await store.def.update!(h.ctx(), store.id, store.prior, { ...store.inputs, maxSizeGb: 1000 });
    expect(h.sim.store.objectStores.get(store.id)?.max_size).toBe(1000);
    const newKeys = cred.def.inputs.parse({
      ...cred.inputs,
      accessKeyId: 'AKNEW',
      secretAccessKey: 'new-secret-value',
    });
    const { outputs } = await cred.def.update!(h.ctx(), cred.id, cred.prior, newKeys);
    expect(outputs).toMatchObject({ accessKeyId: 'AKNEW', secretAccessKey: 'new-secret-value' });
    expect((await cred.def.read(h.ctx(), cred.id, { inputs: newKeys, outputs }))?.inputs).toEqual(newKeys);
    expect(cred.def.secrets).toContain('secretAccessKey');
    await store.def.delete(h.ctx(), store.id, store.prior);
    await cred.def.delete(h.ctx(), cred.id, cred.prior);
    expect(await readBack(h, store)).toBeNull();
    expect(await readBack(h, cred)).toBeNull();
  });
});
