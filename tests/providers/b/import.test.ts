import { describe, expect, it } from 'vitest';
import { TimeoutError } from '../../../src/engine/errors.js';
import { Engine, MemoryStateStore, ApplyError } from 'converge';
import { provb } from 'converge/providers/b';
import { created, harness } from './harness.js';

const empty = { inputs: {}, outputs: {} };

describe('provb import', () => {
  it('reads every importable resource from its import id alone, with inputs that parse and match', async () => {
    const h = await harness();
    const fw = [...h.sim.store.firewalls.values()].find((f) => f.default && f.region === 'LON1')!;
    const cred = await created(h, 'objectStoreCredential:ObjectStoreCredential', {
      name: 'c1',
      accessKeyId: 'AKFIXED',
      secretAccessKey: 'fixed-secret-1',
    });
    const all = [
      await created(h, 'network:Network', { label: 'imp-net', cidrV4: '10.9.0.0/24' }),
      await created(h, 'firewall:Firewall', {
        name: 'imp-fw',
        createDefaultRules: false,
        ingressRules: [{ portRange: '443', cidrs: ['0.0.0.0/0'], action: 'allow' }],
      }),
      await created(h, 'volume:Volume', { name: 'imp-vol', sizeGb: 3 }),
      await created(h, 'reservedIp:ReservedIp', { name: 'imp-ip' }),
      await created(h, 'sshKey:SshKey', { name: 'imp-key', publicKey: 'ssh-ed25519 AAAAimp' }),
      await created(h, 'kubernetesCluster:KubernetesCluster', {
        name: 'imp-k',
        firewallId: fw.id,
        pools: { label: 'p0', nodeCount: 1, size: 'g4s.kube.small' },
      }),
      await created(h, 'database:Database', {
        name: 'imp-db',
        engine: 'postgresql',
        version: '15',
        size: 'g3.db.small',
        nodes: 2,
      }),
      await created(h, 'objectStore:ObjectStore', { name: 'imp-bucket', maxSizeGb: 250 }),
      cred,
      await created(h, 'loadBalancer:LoadBalancer', { name: 'imp-lb' }),
    ];
    for (const c of all) {
      const r = await c.def.read(
        h.ctx({ operation: 'import' }),
        c.def.importId ? c.def.importId(c.id, h.provider.config) : c.id,
        empty,
      );
      expect(r, c.def.token).not.toBeNull();
      const parsed = c.def.inputs.safeParse(r!.inputs);
      expect(parsed.success, `${c.def.token}: ${JSON.stringify(parsed.error?.issues)}`).toBe(true);
      for (const [k, v] of Object.entries(c.inputs)) {
        if (k === 'region') continue;
        if (v && typeof v === 'object' && !Array.isArray(v))
          expect(r!.inputs[k], `${c.def.token}.${k}`).toMatchObject(v);
        else expect(r!.inputs[k], `${c.def.token}.${k}`).toEqual(v);
      }
    }
  });

  it('rejects malformed composite import ids', async () => {
    const h = await harness();
    for (const t of [
      'dnsDomainRecord:DnsDomainRecord',
      'kubernetesNodePool:KubernetesNodePool',
      'volumeAttachment:VolumeAttachment',
      'instanceReservedIpAssignment:InstanceReservedIpAssignment',
    ]) {
      expect(() => h.res(t).importId!('only-one-part', h.provider.config), t).toThrow(TypeError);
      expect(() => h.res(t).importId!(':x', h.provider.config), t).toThrow(TypeError);
    }
  });
});

describe('provb waits', () => {
  it('stops waiting when the step signal fires', async () => {
    const h = await harness({ transitions: { instance: 60_000 } });
    const def = h.res('instance:Instance');
    const started = Date.now();
    const signal = AbortSignal.timeout(200);
    const err = await def
      .create(
        h.ctx({ operation: 'create', signal }),
        def.inputs.parse({ diskImage: 'ubuntu-jammy', firewallId: '', hostname: 'slow' }),
      )
      .catch((e) => e);
    expect(signal.aborted).toBe(true);
    expect((err as Error).name).toBe('TimeoutError');
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('turns a resource timeout into a TimeoutError at apply', async () => {
    const h = await harness({ transitions: { instance: 60_000 } });
    const engine = new Engine({
      providers: [provb({ token: h.sim.token, apiEndpoint: h.sim.url, region: 'LON1', pollIntervalMs: 2 })],
      state: new MemoryStateStore(),
      retry: { retries: 1, minTimeoutMs: 1, maxTimeoutMs: 2 },
    });
    const web = provb.instance(
      'web',
      { diskImage: 'ubuntu-jammy', firewallId: '', hostname: 'late' },
      { timeouts: { create: '150ms' } },
    );
    const err = await engine.apply(await engine.plan([web])).catch((e) => e);
    expect(err).toBeInstanceOf(ApplyError);
    expect((err as ApplyError).result.failed[0]!.error).toBeInstanceOf(TimeoutError);
  });
});

describe('provb import across regions', () => {
  it('finds a volume or node pool in another region when importing, as the vendor provider scans', async () => {
    const h = await harness();
    const vol = await created(h, 'volume:Volume', { name: 'far', sizeGb: 4, region: 'FRA1' });
    const def = vol.def;
    const asImport = h.ctx({ operation: 'import' });
    const r = await def.read(asImport, vol.id, empty);
    expect(r?.inputs).toMatchObject({ name: 'far', region: 'FRA1' });
    expect(await def.read(h.ctx({ operation: 'read' }), vol.id, empty)).toBeNull();
    const fw = [...h.sim.store.firewalls.values()].find((f) => f.default && f.region === 'FRA1')!;
    const k = await created(h, 'kubernetesCluster:KubernetesCluster', {
      name: 'far-k',
      region: 'FRA1',
      firewallId: fw.id,
      pools: { nodeCount: 1, size: 'g4s.kube.small' },
    });
    const pool = await created(h, 'kubernetesNodePool:KubernetesNodePool', {
      clusterId: k.id,
      region: 'FRA1',
      label: 'far-pool',
      nodeCount: 1,
      size: 'g4s.kube.small',
    });
    const p = await pool.def.read(asImport, pool.def.importId!(`${k.id}:far-pool`, h.provider.config), empty);
    expect(p?.inputs).toMatchObject({ clusterId: k.id, label: 'far-pool', region: 'FRA1' });
  });
});
