import { describe, expect, it } from 'vitest';
import { found } from '../../helpers/builders.js';
import { created, harness, type Harness } from './harness.js';

const IMAGE = '9b3bda31-8c63-4c3f-9d8e-3c6b2a1d0002';

async function readBack(h: Harness, c: Awaited<ReturnType<typeof created>>) {
  return c.def.read(h.ctx({ operation: 'read' }), c.id, c.prior);
}

async function defaultFirewall(h: Harness, region = 'LON1') {
  return [...h.sim.store.firewalls.values()].find((f) => f.default && f.region === region)!;
}

describe('provb Instance', () => {
  it('creates, waits for ACTIVE, reads back its own inputs, and reports polls', async () => {
    const h = await harness({ transitions: { instance: 150 } });
    const fw = await defaultFirewall(h);
    const c = await created(h, 'instance:Instance', {
      diskImage: IMAGE,
      firewallId: fw.id,
      hostname: 'web1',
      tags: ['a', 'b'],
      notes: 'hello',
      script: '#!/bin/sh\necho hi',
    });
    expect(c.outputs).toMatchObject({
      hostname: 'web1',
      status: 'ACTIVE',
      sourceId: 'ubuntu-jammy',
      sourceType: 'diskimage',
      firewallId: fw.id,
    });
    expect(c.outputs.initialPassword).toBeUndefined();
    expect(h.sim.store.instances.get(c.id)?.script).toBe(Buffer.from('#!/bin/sh\necho hi').toString('base64'));
    const r = await readBack(h, c);
    expect(r?.inputs).toEqual(c.inputs);
    expect(h.reports.some((x) => x.kind === 'poll')).toBe(true);
  });

  it('keeps initialPassword only when writePassword is set', async () => {
    const h = await harness();
    const c = await created(h, 'instance:Instance', {
      diskImage: 'ubuntu-jammy',
      firewallId: '',
      writePassword: true,
      hostname: 'pw',
    });
    expect(typeof c.outputs.initialPassword).toBe('string');
    expect((c.outputs.initialPassword as string).length).toBeGreaterThan(4);
    expect((await readBack(h, c))?.inputs).toEqual(c.inputs);
  });

  it('updates hostname, reverse DNS, notes, tags, size and firewall in place', async () => {
    const h = await harness();
    const c = await created(h, 'instance:Instance', { diskImage: IMAGE, firewallId: '', hostname: 'u1', notes: 'n' });
    const fw = (await h.provider.config.client.createFirewall(h.ctx(), 'LON1', { name: 'other', create_rules: true }))
      .id;
    const news = c.def.inputs.parse({
      ...c.inputs,
      hostname: 'u2',
      reverseDns: 'u2.example.com',
      notes: '',
      tags: ['x'],
      size: 'g3.medium',
      firewallId: fw,
    });
    const { outputs } = await c.def.update!(h.ctx(), c.id, c.prior, news);
    expect(outputs).toMatchObject({ hostname: 'u2', firewallId: fw, cpuCores: 2 });
    const inst = h.sim.store.instances.get(c.id)!;
    expect(inst).toMatchObject({
      hostname: 'u2',
      reverse_dns: 'u2.example.com',
      notes: '',
      tags: ['x'],
      size: 'g3.medium',
    });
    expect((await c.def.read(h.ctx(), c.id, { inputs: news, outputs }))?.inputs).toEqual(news);
  });

  it('moves a reserved IP assigned through reservedIpv4 on update', async () => {
    const h = await harness();
    const ip = await created(h, 'reservedIp:ReservedIp', { name: 'rip1' });
    const c = await created(h, 'instance:Instance', { diskImage: IMAGE, firewallId: '', hostname: 'rip-host' });
    const news = c.def.inputs.parse({ ...c.inputs, reservedIpv4: 'rip1' });
    const { outputs } = await c.def.update!(h.ctx(), c.id, c.prior, news);
    expect(outputs.publicIp).toBe(ip.outputs.ip);
    expect((await c.def.read(h.ctx(), c.id, { inputs: news, outputs }))?.inputs.reservedIpv4).toBe('rip1');
  });

  it('replaces rather than ignores what the API cannot change', async () => {
    const h = await harness();
    expect(h.res('instance:Instance').replaceOn).toEqual(
      expect.arrayContaining([
        'diskImage',
        'region',
        'networkId',
        'script',
        'initialUser',
        'sshkeyId',
        'publicIpRequired',
        'volumeType',
        'privateIpv4',
      ]),
    );
  });

  it('shows drift made in the simulator, and reads null once deleted, then finds by its operation tag', async () => {
    const h = await harness();
    const c = await created(h, 'instance:Instance', {
      diskImage: IMAGE,
      firewallId: '',
      hostname: 'drift',
      tags: ['a'],
    });
    const inst = h.sim.store.instances.get(c.id)!;
    inst.tags = ['changed', ...inst.tags.filter((t: string) => t.startsWith('converge-op-'))];
    h.sim.store.instances.get(c.id)!.size = 'g3.large';
    const r = await readBack(h, c);
    expect(r?.inputs).toMatchObject({ tags: ['changed'], size: 'g3.large' });
    const hit = await found(c.def.find!(h.ctx(), c.inputs, c.hint));
    expect(hit?.id).toBe(c.id);
    await c.def.delete(h.ctx(), c.id, c.prior);
    expect(await readBack(h, c)).toBeNull();
    expect(await found(c.def.find!(h.ctx(), c.inputs, c.hint))).toBeNull();
    // A second delete meets the instance gone: not found, which the engine's delete step takes as done.
    await expect(c.def.delete(h.ctx(), c.id, c.prior)).rejects.toMatchObject({ notFound: true });
  });

  it('imports by id and reports every input', async () => {
    const h = await harness();
    const c = await created(h, 'instance:Instance', { diskImage: IMAGE, firewallId: '', hostname: 'imp' });
    const r = await c.def.read(h.ctx(), c.def.importId!('' + c.id, h.provider.config), { inputs: {}, outputs: {} });
    expect(r?.inputs).toMatchObject({
      diskImage: IMAGE,
      hostname: 'imp',
      size: 'g3.xsmall',
      publicIpRequired: 'create',
    });
    expect(c.def.inputs.safeParse(r?.inputs).success).toBe(true);
  });
});

describe('provb Network and Firewall', () => {
  it('creates a network, renames it in place, shows drift, deletes it', async () => {
    const h = await harness();
    const c = await created(h, 'network:Network', { label: 'blue', nameserversV4s: ['9.9.9.9'] });
    expect(c.outputs).toMatchObject({ name: 'blue', default: false });
    expect((await readBack(h, c))?.inputs).toEqual(c.inputs);
    const news = c.def.inputs.parse({ ...c.inputs, label: 'green' });
    await c.def.update!(h.ctx(), c.id, c.prior, news);
    expect(h.sim.store.networks.get(c.id)?.label).toBe('green');
    h.sim.store.networks.get(c.id)!.nameservers_v4 = ['1.2.3.4'];
    expect((await c.def.read(h.ctx(), c.id, { inputs: news, outputs: c.outputs }))?.inputs.nameserversV4s).toEqual([
      '1.2.3.4',
    ]);
    expect(await found(c.def.find!(h.ctx(), news, c.hint))).toMatchObject({ id: c.id });
    await c.def.delete(h.ctx(), c.id, c.prior);
    expect(await readBack(h, c)).toBeNull();
    expect(c.def.replaceOn).toEqual(expect.arrayContaining(['cidrV4', 'region', 'vlanId']));
  });

  it('creates a firewall with custom rules, updates rules by content, and reads them back', async () => {
    const h = await harness();
    const net = await created(h, 'network:Network', { label: 'fwnet' });
    const rules = {
      createDefaultRules: false,
      ingressRules: [{ label: 'ssh', portRange: '22', cidrs: ['0.0.0.0/0'], action: 'allow' }],
      egressRules: [{ protocol: 'icmp', cidrs: ['0.0.0.0/0'], action: 'allow' }],
    };
    const c = await created(h, 'firewall:Firewall', { name: 'fw-a', networkId: net.id, ...rules });
    expect(h.sim.store.firewalls.get(c.id)?.rules).toHaveLength(2);
    expect((await readBack(h, c))?.inputs).toEqual(c.inputs);
    const news = c.def.inputs.parse({
      ...c.inputs,
      name: 'fw-b',
      ingressRules: [
        { label: 'web', portRange: '80-443', cidrs: ['10.0.0.0/8'], action: 'allow' },
        ...(c.inputs.ingressRules as unknown[]),
      ],
    });
    await c.def.update!(h.ctx(), c.id, c.prior, news);
    const server = h.sim.store.firewalls.get(c.id)!;
    expect(server.name).toBe('fw-b');
    expect(server.rules.map((r: any) => r.ports ?? r.start_port).sort()).toEqual(['', '22', '80-443'].sort());
    expect((await c.def.read(h.ctx(), c.id, { inputs: news, outputs: c.outputs }))?.inputs).toEqual(news);
    await c.def.delete(h.ctx(), c.id, c.prior);
    expect(h.sim.store.firewalls.has(c.id)).toBe(false);
  });

  it('reads a default-rules firewall without drift', async () => {
    const h = await harness();
    const c = await created(h, 'firewall:Firewall', { name: 'fw-default' });
    expect(h.sim.store.firewalls.get(c.id)?.rules).toHaveLength(3);
    expect((await readBack(h, c))?.inputs).toEqual(c.inputs);
  });
});

describe('provb Volume and VolumeAttachment', () => {
  it('creates a volume, attaches it, grows it while attached, detaches and deletes', async () => {
    const h = await harness();
    const inst = await created(h, 'instance:Instance', { diskImage: IMAGE, firewallId: '', hostname: 'vol-host' });
    const v = await created(h, 'volume:Volume', { name: 'data', sizeGb: 10 });
    expect(v.outputs.status).toBe('available');
    expect((await readBack(h, v))?.inputs).toEqual(v.inputs);
    const a = await created(h, 'volumeAttachment:VolumeAttachment', { instanceId: inst.id, volumeId: v.id });
    expect(a.id).toBe(`${inst.id}:${v.id}`);
    expect(h.sim.store.volumes.get(v.id)).toMatchObject({ status: 'attached', instance_id: inst.id });
    expect((await readBack(h, a))?.inputs).toEqual(a.inputs);
    const news = v.def.inputs.parse({ ...v.inputs, sizeGb: 20 });
    await v.def.update!(h.ctx(), v.id, v.prior, news);
    expect(h.sim.store.volumes.get(v.id)).toMatchObject({ size_gb: 20, status: 'attached', instance_id: inst.id });
    await a.def.delete(h.ctx(), a.id, a.prior);
    expect(await readBack(h, a)).toBeNull();
    await v.def.delete(h.ctx(), v.id, v.prior);
    expect(await readBack(h, v)).toBeNull();
  });
});

describe('provb ReservedIp and InstanceReservedIpAssignment', () => {
  it('assigns, leaves the instance publicIp to the next refresh, and unassigns', async () => {
    const h = await harness();
    const inst = await created(h, 'instance:Instance', { diskImage: IMAGE, firewallId: '', hostname: 'ip-host' });
    const ip = await created(h, 'reservedIp:ReservedIp', { name: 'front' });
    expect(ip.outputs.ip).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
    const a = await created(h, 'instanceReservedIpAssignment:InstanceReservedIpAssignment', {
      instanceId: inst.id,
      reservedIpId: ip.id,
    });
    expect(inst.outputs.publicIp).not.toBe(ip.outputs.ip);
    const refreshed = await inst.def.read(h.ctx(), inst.id, inst.prior);
    expect(refreshed?.outputs.publicIp).toBe(ip.outputs.ip);
    expect(refreshed?.inputs).toEqual(inst.inputs);
    expect((await readBack(h, a))?.inputs).toEqual(a.inputs);
    await a.def.delete(h.ctx(), a.id, a.prior);
    expect(await readBack(h, a)).toBeNull();
    await ip.def.update!(h.ctx(), ip.id, ip.prior, { name: 'front2' });
    expect(h.sim.store.ips.get(ip.id)?.name).toBe('front2');
    await ip.def.delete(h.ctx(), ip.id, ip.prior);
    expect(await readBack(h, ip)).toBeNull();
  });
});

describe('provb SshKey', () => {
  it('creates, renames in place, replaces on a new key, imports by id', async () => {
    const h = await harness();
    const k = await created(h, 'sshKey:SshKey', { name: 'me', publicKey: 'ssh-ed25519 AAAAC3Nz me@host' });
    expect(k.outputs.fingerprint).toMatch(/^SHA256:/);
    expect((await readBack(h, k))?.inputs).toEqual(k.inputs);
    await k.def.update!(h.ctx(), k.id, k.prior, { ...k.inputs, name: 'me2' });
    expect((await k.def.read(h.ctx(), k.id, { inputs: {}, outputs: {} }))?.inputs.name).toBe('me2');
    expect(k.def.replaceOn).toEqual(['publicKey']);
    await k.def.delete(h.ctx(), k.id, k.prior);
    expect(await readBack(h, k)).toBeNull();
  });
});
