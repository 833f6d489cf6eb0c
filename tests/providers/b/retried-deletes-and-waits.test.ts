// provb under lost answers and vanished dependencies (issue 11 items 3 and 4): a delete retried after a
// lost answer meets 404, which its handler throws and the engine's delete step counts as done (a rule
// delete inside an update counts it itself); the volume update
// that detaches, resizes and re-attaches keeps the declared attachAtBoot; and every wait has a deadline,
// failing (never hanging) when what it waits for cannot happen.
import { describe, expect, it } from 'vitest';
import { ProviderError } from '../../../src/engine/errors.js';
import { Engine, MemoryStateStore } from '../../../src/index.js';
import type { CivoClient } from '../../../src/providers/b/client.js';
import { WAIT_LIMITS_MS } from '../../../src/providers/b/config.js';
import { created, harness, type Harness } from './harness.js';

const IMAGE = '9b3bda31-8c63-4c3f-9d8e-3c6b2a1d0002';
const KEY = 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIRetriedDeleteRetriedDeleteRetried del@example';
const fastRetry = { retries: 4, minTimeoutMs: 1, maxTimeoutMs: 5, maxRetryAfterMs: 5 };
const fwOf = (h: Harness) => h.sim.store.defaultFirewall(h.sim.store.defaultNetwork('LON1')!.id)!.id;

/**
 * Makes each named client call take effect and then answer as its retry would after a lost answer:
 * HTTP 404 with the vendor's not-found body.
 */
function answeredNotFound(h: Harness, methods: readonly (keyof CivoClient)[]): void {
  const client = h.provider.config.client as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>;
  for (const m of methods) {
    const real = client[m as string]!;
    client[m as string] = async (...args: unknown[]) => {
      await real(...args);
      throw new ProviderError({
        provider: 'provb',
        operation: String(m),
        method: 'DELETE',
        status: 404,
        retryable: false,
        notFound: true,
        vendorCode: 'database_service_not_found',
        detail: 'Failed to find the object within the internal database',
      });
    };
  }
}

const deletes: (keyof CivoClient)[] = [
  'deleteInstance',
  'deleteNetwork',
  'deleteFirewall',
  'deleteFirewallRule',
  'deleteVolume',
  'detachVolume',
  'deleteIp',
  'ipAction',
  'deleteLoadBalancer',
  'deleteCluster',
  'deletePool',
  'deleteDatabase',
  'deleteDomain',
  'deleteRecord',
  'deleteSshKey',
  'deleteObjectStore',
  'deleteCredential',
];

type Setup = (h: Harness) => Promise<Record<string, unknown>>;
const cases: [string, Setup][] = [
  ['instance:Instance', async () => ({ hostname: 'del', diskImage: IMAGE, firewallId: '' })],
  ['network:Network', async () => ({ label: 'del-net' })],
  ['firewall:Firewall', async () => ({ name: 'del-fw' })],
  ['reservedIp:ReservedIp', async () => ({ name: 'del-ip' })],
  ['volume:Volume', async () => ({ name: 'del-vol', sizeGb: 10 })],
  [
    'loadBalancer:LoadBalancer',
    async () => ({ name: 'del-lb', backends: [{ ip: '10.0.0.5', sourcePort: 80, targetPort: 80 }] }),
  ],
  [
    'kubernetesCluster:KubernetesCluster',
    async (h) => ({
      name: 'del-k',
      firewallId: fwOf(h),
      pools: { label: 'main', nodeCount: 1, size: 'g4s.kube.small' },
    }),
  ],
  [
    'kubernetesNodePool:KubernetesNodePool',
    async (h) => ({
      clusterId: (
        await created(h, 'kubernetesCluster:KubernetesCluster', {
          name: 'del-k2',
          firewallId: fwOf(h),
          pools: { label: 'main', nodeCount: 1, size: 'g4s.kube.small' },
        })
      ).id,
      label: 'extra',
      nodeCount: 1,
      size: 'g4s.kube.small',
    }),
  ],
  [
    'database:Database',
    async () => ({ name: 'del-db', engine: 'mysql', version: '8.0', size: 'g3.db.small', nodes: 1 }),
  ],
  ['dnsDomainName:DnsDomainName', async () => ({ name: 'del.example' })],
  [
    'dnsDomainRecord:DnsDomainRecord',
    async (h) => ({
      domainId: (await created(h, 'dnsDomainName:DnsDomainName', { name: 'rec-del.example' })).id,
      type: 'a',
      name: 'www',
      value: '198.18.0.7',
    }),
  ],
  ['sshKey:SshKey', async () => ({ name: 'del-key', publicKey: KEY })],
  ['objectStore:ObjectStore', async () => ({ name: 'del-bucket' })],
  ['objectStoreCredential:ObjectStoreCredential', async () => ({ name: 'del-cred' })],
  [
    'volumeAttachment:VolumeAttachment',
    async (h) => ({
      instanceId: (await created(h, 'instance:Instance', { hostname: 'att', diskImage: IMAGE, firewallId: '' })).id,
      volumeId: (await created(h, 'volume:Volume', { name: 'att-vol', sizeGb: 10 })).id,
    }),
  ],
  [
    'instanceReservedIpAssignment:InstanceReservedIpAssignment',
    async (h) => ({
      instanceId: (await created(h, 'instance:Instance', { hostname: 'asg', diskImage: IMAGE, firewallId: '' })).id,
      reservedIpId: (await created(h, 'reservedIp:ReservedIp', { name: 'asg-ip' })).id,
    }),
  ],
];

// The handler throws what the vendor said (not found); the engine's delete step is the one layer
// that counts it as done (src/kit/gone.ts).
describe('provb: a delete retried after a lost answer that meets 404 counts as done', () => {
  it.each(cases)('%s: the handler throws not found, the object is gone', async (token, setup) => {
    const h = await harness();
    const c = await created(h, token, await setup(h));
    answeredNotFound(h, deletes);
    await expect(c.def.delete(h.ctx({ operation: 'delete' }), c.id, c.prior)).rejects.toMatchObject({
      code: 'CONVERGE_PROVIDER',
      notFound: true,
    });
    expect(await c.def.read(h.ctx(), c.id, c.prior)).toBeNull();
  });

  it.each(cases)('%s: through the engine the delete succeeds and the record is removed', async (token, setup) => {
    const h = await harness();
    const engine = new Engine({ providers: [h.provider], state: new MemoryStateStore(), retry: fastRetry });
    const decl = { type: `provb:index/${token}`, name: 'subject', inputs: await setup(h) };
    await engine.apply(await engine.plan([decl]));
    const { id } = (await engine.state()).resources.subject!;
    answeredNotFound(h, deletes);
    const result = await engine.apply(await engine.plan([], { refresh: false }));
    expect(result.succeeded.map((s) => [s.address, s.action])).toEqual([['subject', 'delete']]);
    expect((await engine.state()).resources).toEqual({});
    const prior = { inputs: decl.inputs, outputs: {} };
    expect(await h.res(token).read(h.ctx(), id, prior)).toBeNull();
  });

  it('firewall rules removed by an update: a 404 on the rule delete counts as done', async () => {
    const h = await harness();
    const rule = (portRange: string) => ({ portRange, cidrs: ['0.0.0.0/0'], action: 'allow' as const });
    const c = await created(h, 'firewall:Firewall', {
      name: 'upd-fw',
      createDefaultRules: false,
      ingressRules: [rule('22'), rule('80')],
    });
    answeredNotFound(h, ['deleteFirewallRule']);
    const news = c.def.inputs.parse({
      name: 'upd-fw',
      createDefaultRules: false,
      ingressRules: [rule('22')],
    }) as Record<string, unknown>;
    await expect(c.def.update!(h.ctx({ operation: 'update' }), c.id, c.prior, news)).resolves.toBeDefined();
    expect(h.sim.store.firewalls.get(c.id)!.rules.map((r: { ports: string }) => r.ports)).toEqual(['22']);
  });
});

describe('provb: growing an attached volume keeps the declared attachAtBoot', () => {
  it.each([false, true])('re-attaches with attach_at_boot %s, as the attachment declared', async (atBoot) => {
    const h = await harness();
    const inst = await created(h, 'instance:Instance', { hostname: 'boot', diskImage: IMAGE, firewallId: '' });
    const vol = await created(h, 'volume:Volume', { name: 'boot-vol', sizeGb: 10 });
    await created(h, 'volumeAttachment:VolumeAttachment', {
      instanceId: inst.id,
      volumeId: vol.id,
      attachAtBoot: atBoot,
    });
    h.sim.clearLog();
    const news = vol.def.inputs.parse({ name: 'boot-vol', sizeGb: 20 }) as Record<string, unknown>;
    await vol.def.update!(h.ctx({ operation: 'update' }), vol.id, vol.prior, news);
    const attach = h.sim.requests.filter((r) => r.method === 'PUT' && r.path.endsWith('/attach'));
    expect(attach.map((r) => (r.body as { attach_at_boot: boolean }).attach_at_boot)).toEqual([atBoot]);
    expect(h.sim.store.volumes.get(vol.id)).toMatchObject({ size_gb: 20, instance_id: inst.id });
  });

  it('finishes the resize without waiting when the instance was deleted meanwhile (it is being replaced)', async () => {
    const h = await harness();
    const inst = await created(h, 'instance:Instance', { hostname: 'gone', diskImage: IMAGE, firewallId: '' });
    const vol = await created(h, 'volume:Volume', { name: 'gone-vol', sizeGb: 10 });
    await created(h, 'volumeAttachment:VolumeAttachment', { instanceId: inst.id, volumeId: vol.id });
    const client = h.provider.config.client;
    const resize = client.resizeVolume;
    client.resizeVolume = async (...a) => {
      const r = await resize(...a);
      await client.deleteInstance(h.ctx(), 'LON1', inst.id);
      return r;
    };
    const news = vol.def.inputs.parse({ name: 'gone-vol', sizeGb: 20 }) as Record<string, unknown>;
    await expect(vol.def.update!(h.ctx({ operation: 'update' }), vol.id, vol.prior, news)).resolves.toMatchObject({
      outputs: { status: 'available' },
    });
    expect(h.sim.store.volumes.get(vol.id)!.size_gb).toBe(20);
  });
});

describe('provb: every wait has a deadline', () => {
  it('fails, not hangs, when the instance a volume is attaching to is deleted', async () => {
    const h = await harness();
    const inst = await created(h, 'instance:Instance', { hostname: 'vanish', diskImage: IMAGE, firewallId: '' });
    const volId = (await created(h, 'volume:Volume', { name: 'vanish-vol', sizeGb: 10 })).id;
    // From here attaching takes a minute: the instance is deleted while the volume is still attaching.
    (h.sim.store.timings as { volume: number }).volume = 60_000;
    const client = h.provider.config.client;
    const attach = client.attachVolume;
    client.attachVolume = async (...a) => {
      const r = await attach(...a);
      await client.deleteInstance(h.ctx(), 'LON1', inst.id);
      return r;
    };
    const def = h.res('volumeAttachment:VolumeAttachment');
    const inputs = def.inputs.parse({ instanceId: inst.id, volumeId: volId }) as Record<string, unknown>;
    await expect(def.create(h.ctx({ operation: 'create' }), inputs)).rejects.toMatchObject({ notFound: true });
  }, 10_000);

  it('stops a wait at its limit when the step has no timeout; the create names the object it made (PartialCreateError)', async () => {
    const h = await harness({ transitions: { instance: 60_000 } }, { waitLimitsMs: { instance: 40 } });
    const def = h.res('instance:Instance');
    const inputs = def.inputs.parse({ hostname: 'slow', diskImage: IMAGE, firewallId: '' }) as Record<string, unknown>;
    const id = [...h.sim.store.instances.keys()];
    const error = await def.create(h.ctx({ operation: 'create' }), inputs).catch((e: unknown) => e);
    const made = [...h.sim.store.instances.keys()].filter((k) => !id.includes(k));
    expect(error).toMatchObject({
      code: 'CONVERGE_PARTIAL_CREATE',
      id: made[0],
      cause: { code: 'CONVERGE_TIMEOUT', limitMs: 40 },
    });
  }, 10_000);

  it('has a finite default limit for every kind of wait, and refuses a bad override', async () => {
    for (const ms of Object.values(WAIT_LIMITS_MS)) expect(Number.isFinite(ms) && ms > 0).toBe(true);
    await expect(harness({}, { waitLimitsMs: { instance: -1 } })).rejects.toThrow(TypeError);
    await expect(harness({}, { waitLimitsMs: { nonsense: 5 } as never })).rejects.toThrow(TypeError);
  });
});

describe('provb: a 404 with a JSON error body is not-found whatever its code', () => {
  it('records an object as gone on refresh when the API answers 404 with a code the client does not know', async () => {
    const h = await harness();
    const db = await created(h, 'database:Database', {
      name: 'oob',
      engine: 'mysql',
      version: '8.0',
      size: 'g3.db.small',
      nodes: 1,
    });
    h.sim.use({
      method: 'GET',
      path: '/v2/databases/:id',
      handler: () => ({
        status: 404,
        body: { code: 'database_not_found_in_new_wording', reason: 'Failed to find the database' },
      }),
    });
    expect(await db.def.read(h.ctx(), db.id, db.prior)).toBeNull();
    h.sim.use({
      method: 'GET',
      path: '/v2/databases/:id',
      handler: () => ({ status: 404, raw: '404 page not found', headers: { 'content-type': 'text/plain' } }),
    });
    await expect(db.def.read(h.ctx(), db.id, db.prior)).rejects.toMatchObject({ notFound: false });
  });
});
