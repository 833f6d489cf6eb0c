// provb find contract (issues 10 and 11): find answers the object an interrupted create made, and never
// one that existed before the create started (a hand-made object with the same name, label, hostname
// or attachment), answering null or cannotTell instead. One case per resource class.
import { describe, expect, it } from 'vitest';
import { isCannotTell, type FindHint } from '../../../src/engine/provider/define.js';
import type { Listed } from '../../../src/providers/b/wire/objects.js';
import { Engine, MemoryStateStore } from 'converge';
import { provb } from 'converge/providers/b';
import { created, harness, type Harness } from './harness.js';

const IMAGE = '9b3bda31-8c63-4c3f-9d8e-3c6b2a1d0002';
const KEY = 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIFindTestFindTestFindTestFindTest find@example';
const R = 'LON1';

/** A hint for a create that starts now, with an operation id nothing carries. */
const freshHint = (): FindHint => ({
  startedAt: new Date(Date.now() + 1).toISOString(),
  operationId: `fresh-${Math.random()}`,
});
const api = (h: Harness) => h.provider.config.client;
const ctx = (h: Harness) => h.ctx();
const fwOf = (h: Harness) => h.sim.store.defaultFirewall(h.sim.store.defaultNetwork(R)!.id)!.id;

type Case = {
  readonly token: string;
  /** Inputs with a key `k` (the name, label or hostname). */
  readonly inputs: (h: Harness, k: string) => Promise<Record<string, unknown>> | Record<string, unknown>;
  /** Makes, by hand (not through the resource), an object matching those inputs; returns its find id. */
  readonly byHand: (h: Harness, inputs: Record<string, unknown>) => Promise<string>;
};

async function cluster(h: Harness): Promise<string> {
  const c = await api(h).createCluster(ctx(h), R, {
    name: `c-${Math.random().toString(36).slice(2, 8)}`,
    instance_firewall: fwOf(h),
    pools: [{ id: 'main', count: 1, size: 'g4s.kube.small' }],
  });
  h.sim.store.settleAll();
  return c.id;
}
async function volumeAndInstance(h: Harness): Promise<{ volumeId: string; instanceId: string }> {
  const v = await api(h).createVolume(ctx(h), R, { name: `v-${Math.random().toString(36).slice(2, 8)}`, size_gb: 10 });
  const i = await api(h).createInstance(ctx(h), R, {
    hostname: `i-${Math.random().toString(36).slice(2, 8)}`,
    template_id: IMAGE,
  });
  h.sim.store.settleAll();
  return { volumeId: v.id, instanceId: i.id };
}

const cases: Case[] = [
  {
    token: 'network:Network',
    inputs: (_h, k) => ({ label: k }),
    byHand: async (h, i) => (await api(h).createNetwork(ctx(h), R, { label: i.label })).id,
  },
  {
    token: 'firewall:Firewall',
    inputs: (_h, k) => ({ name: k }),
    byHand: async (h, i) => (await api(h).createFirewall(ctx(h), R, { name: i.name })).id,
  },
  {
    token: 'reservedIp:ReservedIp',
    inputs: (_h, k) => ({ name: k }),
    byHand: async (h, i) => (await api(h).createIp(ctx(h), R, String(i.name))).id,
  },
  {
    token: 'loadBalancer:LoadBalancer',
    inputs: (_h, k) => ({ name: k, backends: [{ ip: '10.0.0.5', sourcePort: 80, targetPort: 80 }] }),
    byHand: async (h, i) => (await api(h).createLoadBalancer(ctx(h), R, { name: i.name, backends: [] })).id,
  },
  {
    token: 'database:Database',
    inputs: (_h, k) => ({ name: k, engine: 'mysql', version: '8.0', size: 'g3.db.small', nodes: 1 }),
    byHand: async (h, i) =>
      (
        await api(h).createDatabase(ctx(h), R, {
          name: i.name,
          engine: 'mysql',
          software: 'mysql',
          software_version: '8.0',
          size: 'g3.db.small',
          nodes: 1,
        })
      ).id,
  },
  {
    token: 'dnsDomainName:DnsDomainName',
    inputs: (_h, k) => ({ name: `${k}.example` }),
    byHand: async (h, i) => (await api(h).createDomain(ctx(h), String(i.name))).id,
  },
  {
    token: 'objectStore:ObjectStore',
    inputs: (_h, k) => ({ name: k }),
    byHand: async (h, i) => (await api(h).createObjectStore(ctx(h), R, { name: i.name })).id,
  },
  {
    token: 'objectStoreCredential:ObjectStoreCredential',
    inputs: (_h, k) => ({ name: k }),
    byHand: async (h, i) => (await api(h).createCredential(ctx(h), R, { name: i.name })).id,
  },
  {
    token: 'sshKey:SshKey',
    inputs: (_h, k) => ({ name: k, publicKey: KEY }),
    byHand: async (h, i) => (await api(h).createSshKey(ctx(h), String(i.name), KEY)).id,
  },
  {
    token: 'volume:Volume',
    inputs: (_h, k) => ({ name: k, sizeGb: 10 }),
    byHand: async (h, i) => (await api(h).createVolume(ctx(h), R, { name: i.name, size_gb: 10 })).id,
  },
  {
    token: 'kubernetesCluster:KubernetesCluster',
    inputs: (h, k) => ({
      name: k,
      firewallId: fwOf(h),
      pools: { label: 'main', nodeCount: 1, size: 'g4s.kube.small' },
    }),
    byHand: async (h, i) =>
      (
        await api(h).createCluster(ctx(h), R, {
          name: i.name,
          instance_firewall: fwOf(h),
          pools: [{ id: 'main', count: 1, size: 'g4s.kube.small' }],
        })
      ).id,
  },
  {
    token: 'dnsDomainRecord:DnsDomainRecord',
    inputs: async (h, k) => ({
      domainId: h.sim.store.domains.size
        ? [...h.sim.store.domains.keys()][0]
        : (await api(h).createDomain(ctx(h), 'rec.example')).id,
      type: 'a',
      name: k,
      value: '198.18.0.9',
    }),
    byHand: async (h, i) =>
      `${i.domainId}:${(await api(h).createRecord(ctx(h), String(i.domainId), { type: 'A', name: i.name, value: i.value, ttl: 600 })).id}`,
  },
  {
    token: 'instance:Instance',
    inputs: (_h, k) => ({ hostname: k, diskImage: IMAGE, firewallId: '' }),
    byHand: async (h, i) => (await api(h).createInstance(ctx(h), R, { hostname: i.hostname, template_id: IMAGE })).id,
  },
  {
    token: 'kubernetesNodePool:KubernetesNodePool',
    inputs: async (h, k) => ({
      clusterId: h.sim.store.clusters.size ? [...h.sim.store.clusters.keys()][0] : await cluster(h),
      label: k,
      nodeCount: 1,
      size: 'g4s.kube.small',
    }),
    byHand: async (h, i) => {
      await api(h).createPool(ctx(h), R, String(i.clusterId), { id: i.label, count: 1, size: 'g4s.kube.small' });
      h.sim.store.settleAll();
      return `${i.clusterId}:${i.label}`;
    },
  },
  {
    token: 'volumeAttachment:VolumeAttachment',
    inputs: async (h) => volumeAndInstance(h),
    byHand: async (h, i) => {
      await api(h).attachVolume(ctx(h), R, String(i.volumeId), String(i.instanceId), false);
      h.sim.store.settleAll();
      return `${i.instanceId}:${i.volumeId}`;
    },
  },
  {
    token: 'instanceReservedIpAssignment:InstanceReservedIpAssignment',
    inputs: async (h) => {
      const ip = await api(h).createIp(ctx(h), R, `ip-${Math.random().toString(36).slice(2, 8)}`);
      const i = await api(h).createInstance(ctx(h), R, {
        hostname: `i-${Math.random().toString(36).slice(2, 8)}`,
        template_id: IMAGE,
      });
      h.sim.store.settleAll();
      return { reservedIpId: ip.id, instanceId: i.id };
    },
    byHand: async (h, i) => {
      await api(h).ipAction(ctx(h), R, String(i.reservedIpId), 'assign', String(i.instanceId));
      return `${i.reservedIpId}:${i.instanceId}`;
    },
  },
];

async function findWith(h: Harness, token: string, inputs: Record<string, unknown>, hint: FindHint) {
  const def = h.res(token);
  return def.find!(
    h.ctx({ operation: 'find', operationId: hint.operationId }),
    def.inputs.parse(inputs) as Record<string, unknown>,
    hint,
  );
}

describe('provb find never claims an object made before the create', () => {
  it.each(cases)('$token: a hand-made object with the same key is never returned', async (c) => {
    const h = await harness();
    const inputs = await c.inputs(h, 'same-key');
    const handMade = await c.byHand(h, inputs);
    const answer = await findWith(h, c.token, inputs, freshHint());
    expect(answer === null || isCannotTell(answer), JSON.stringify(answer)).toBe(true);
    if (answer && !isCannotTell(answer)) expect(answer.id).not.toBe(handMade);
  });

  it.each(cases)('$token: the object this create made is returned, even beside a hand-made one', async (c) => {
    const h = await harness();
    const inputs = await c.inputs(h, 'mine');
    const made = await created(h, c.token, inputs);
    const answer = await findWith(h, c.token, inputs, made.hint);
    expect(isCannotTell(answer), JSON.stringify(answer)).toBe(false);
    expect(answer && !isCannotTell(answer) ? answer.id : null).toBe(made.id);
  });
});

describe('provb find: keys without a name', () => {
  it("finds a hostname-less instance by its operation tag, and no other create's", async () => {
    const h = await harness();
    const inputs = { diskImage: IMAGE, firewallId: '' };
    await api(h).createInstance(ctx(h), R, { template_id: IMAGE });
    const made = await created(h, 'instance:Instance', inputs);
    expect(((await findWith(h, 'instance:Instance', inputs, made.hint)) as Listed | null)?.id).toBe(made.id);
    expect(await findWith(h, 'instance:Instance', inputs, freshHint())).toBeNull();
  });

  it('hides the operation tag from read, so it never shows as drift', async () => {
    const h = await harness();
    const made = await created(h, 'instance:Instance', { diskImage: IMAGE, firewallId: '', tags: ['web'] });
    expect(h.sim.store.instances.get(made.id)!.tags).toHaveLength(2);
    expect((await made.def.read(h.ctx(), made.id, made.prior))?.inputs.tags).toEqual(['web']);
  });

  it('finds an unlabelled node pool by the id derived from the operation, and a nameless database and cluster', async () => {
    const h = await harness();
    const clusterId = await cluster(h);
    for (const [token, inputs] of [
      ['kubernetesNodePool:KubernetesNodePool', { clusterId, nodeCount: 1, size: 'g4s.kube.small' }],
      ['database:Database', { engine: 'mysql', version: '8.0', size: 'g3.db.small', nodes: 1 }],
      ['kubernetesCluster:KubernetesCluster', { firewallId: fwOf(h), pools: { nodeCount: 1, size: 'g4s.kube.small' } }],
    ] as const) {
      const made = await created(h, token, inputs);
      expect(((await findWith(h, token, inputs, made.hint)) as Listed | null)?.id, token).toBe(made.id);
      expect(await findWith(h, token, inputs, freshHint()), token).toBeNull();
    }
  });

  it('answers cannotTell naming the candidates when a record holds no note of what existed (written by an earlier release)', async () => {
    const h = await harness();
    const n = await api(h).createNetwork(ctx(h), R, { label: 'orphan' });
    const answer = await findWith(h, 'network:Network', { label: 'orphan' }, freshHint());
    expect(isCannotTell(answer) && answer.candidates).toEqual([n.id]);
    expect(await findWith(h, 'network:Network', { label: 'nothing-here' }, freshHint())).toBeNull();
  });

  it('is exact in any process with the note recorded before the request: ids in it are not ours, a new one is', async () => {
    const h = await harness();
    const n = await api(h).createNetwork(ctx(h), R, { label: 'noted' });
    const noted = { ...freshHint(), existing: [n.id] };
    expect(await findWith(h, 'network:Network', { label: 'noted' }, noted)).toBeNull();
    const notThere = { ...freshHint(), existing: [] };
    expect(((await findWith(h, 'network:Network', { label: 'noted' }, notThere)) as Listed | null)?.id).toBe(n.id);
  });

  it('tells objects made long before the start (null) from ones made just before it (cannotTell) by created_at', async () => {
    const h = await harness();
    const v = await api(h).createVolume(ctx(h), R, { name: 'old', size_gb: 10 });
    expect(isCannotTell(await findWith(h, 'volume:Volume', { name: 'old', sizeGb: 10 }, freshHint()))).toBe(true);
    h.sim.store.volumes.get(v.id)!.created_at = '2020-01-01T00:00:00Z';
    expect(await findWith(h, 'volume:Volume', { name: 'old', sizeGb: 10 }, freshHint())).toBeNull();
  });
});

describe('provb through the engine: lost answers neither duplicate nor adopt', () => {
  it('makes exactly one network per declaration when create answers are lost after the API acted, and leaves a hand-made one alone', async () => {
    const h = await harness();
    const handMade = (await api(h).createNetwork(ctx(h), R, { label: 'hand-made' })).id;
    h.sim.setFaults({ rate: 0.5, kinds: ['drop_after'], methods: ['POST'] });
    const engine = new Engine({
      providers: [provb({ token: h.sim.token, apiEndpoint: h.sim.url, region: R, pollIntervalMs: 1 })],
      state: new MemoryStateStore(),
      retry: { retries: 8, minTimeoutMs: 1, maxTimeoutMs: 2 },
    });
    const labels = ['n1', 'n2', 'n3', 'n4', 'n5', 'n6'];
    const decls = labels.map((l) => provb.network(l, { label: l }));
    await engine.apply(await engine.plan(decls)).catch(() => undefined);
    h.sim.setFaults(undefined);
    await engine.apply(await engine.plan(decls));
    const nets = [...h.sim.store.networks.values()].filter((n) => n.region === R && !n.default);
    expect(nets.map((n) => n.label).sort()).toEqual([...labels, 'hand-made'].sort());
    expect(h.sim.store.networks.has(handMade)).toBe(true);
    expect(h.sim.requests.some((r) => r.fault === 'drop_after')).toBe(true);
    expect((await engine.plan(decls)).hasChanges).toBe(false);
  });
});

describe('provb firewall_rule defaults seen through the provider', () => {
  it('creates a load balancer in a custom network without a firewallId (the API makes its firewall)', async () => {
    const h = await harness();
    const net = await created(h, 'network:Network', { label: 'lb-net' });
    const lb = await created(h, 'loadBalancer:LoadBalancer', {
      name: 'lb-custom',
      networkId: net.id,
      backends: [{ ip: '10.0.0.5', sourcePort: 80, targetPort: 80 }],
    });
    const fw = h.sim.store.firewalls.get(String(lb.outputs.firewallId));
    expect(fw?.network_id).toBe(net.id);
    await lb.def.delete(h.ctx(), lb.id, lb.prior);
    expect(h.sim.store.firewalls.has(String(lb.outputs.firewallId))).toBe(false);
  });

  it('warns at plan that the first instance of a network gets a public IP despite publicIpRequired none', async () => {
    const h = await harness();
    const def = h.res('instance:Instance');
    const warn = (raw: Record<string, unknown>) => def.warnings!(def.inputs.parse(raw), h.provider.config);
    expect(warn({ diskImage: IMAGE, firewallId: '', publicIpRequired: 'none' }).join(' ')).toMatch(/first instance/);
    expect(warn({ diskImage: IMAGE, firewallId: '' })).toEqual([]);
  });
});
