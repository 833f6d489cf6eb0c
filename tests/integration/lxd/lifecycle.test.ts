// Each resource against the real daemon: create, read back, update in place, import, delete.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { cleanupCvt, describeLxd, forwardAddress, lxc, realEnv, type RealEnv, n } from './lxd-env.js';

describeLxd('prova resources against a real LXD', (facts) => {
  let env: RealEnv;
  beforeAll(() => {
    cleanupCvt();
    env = realEnv(facts);
  });
  afterAll(async () => {
    await env.close();
    cleanupCvt();
  });

  const cases: [string, Record<string, unknown>, Record<string, unknown> | undefined, string | undefined][] = [
    [
      'prova:index/network:Network',
      { name: n('cvt-net1'), config: { 'ipv4.address': 'none', 'ipv6.address': 'none', 'user.x': '1' } },
      {
        name: n('cvt-net1'),
        description: 'changed',
        config: { 'ipv4.address': 'none', 'ipv6.address': 'none', 'user.x': '2' },
      },
      n('cvt-net1'),
    ],
    [
      'prova:index/networkAcl:NetworkAcl',
      {
        name: n('cvt-acl1'),
        ingresses: [{ action: 'allow', state: 'enabled', protocol: 'tcp', destinationPort: '22' }],
      },
      {
        name: n('cvt-acl1'),
        description: 'd',
        egresses: [{ action: 'drop', state: 'logged', protocol: 'icmp4', icmpType: '8' }],
      },
      `local:${n('cvt-acl1')}`,
    ],
    [
      'prova:index/networkForward:NetworkForward',
      {
        network: facts.bridge,
        listenAddress: forwardAddress(0),
        ports: [{ protocol: 'tcp', listenPort: '80', targetAddress: '198.18.0.20' }],
      },
      {
        network: facts.bridge,
        listenAddress: forwardAddress(0),
        description: 'web',
        ports: [{ protocol: 'tcp', listenPort: '80,443', targetAddress: '198.18.0.21', targetPort: '8080,8443' }],
      },
      `/${facts.bridge}/${forwardAddress(0)}`,
    ],
    [
      'prova:index/profile:Profile',
      {
        name: n('cvt-prof1'),
        config: { 'limits.cpu': '1' },
        devices: [{ name: 'data', type: 'disk', properties: { source: '/tmp', path: '/mnt' } }],
      },
      { name: n('cvt-prof1'), description: 'p', config: { 'limits.cpu': '2' } },
      `default/${n('cvt-prof1')}`,
    ],
    [
      'prova:index/project:Project',
      { name: n('cvt-proj1'), config: { 'user.a': '1' } },
      { name: n('cvt-proj1'), description: 'x', config: { 'user.a': '2' } },
      n('cvt-proj1'),
    ],
    [
      'prova:index/storagePool:StoragePool',
      { name: n('cvt-pool1'), driver: 'dir' },
      { name: n('cvt-pool1'), driver: 'dir', description: 'pool' },
      n('cvt-pool1'),
    ],
    [
      'prova:index/storageVolume:StorageVolume',
      { pool: 'default', name: n('cvt-vol1'), config: { 'user.a': '1' } },
      { pool: 'default', name: n('cvt-vol1'), description: 'v', config: { 'user.a': '2' } },
      `/default/${n('cvt-vol1')}`,
    ],
  ];

  it.each(cases)('%s: create, read, update, import, delete', async (token, create, update, importId) => {
    const def = env.res(token);
    const inputs = def.inputs.parse(create);
    const made = await def.create(env.ctx, inputs);
    try {
      const read = await def.read(env.ctx, made.id, { inputs, outputs: made.outputs });
      expect(def.inputs.parse(read!.inputs)).toEqual(inputs);
      if (update) {
        const news = def.inputs.parse(update);
        await def.update!(env.ctx, made.id, { inputs, outputs: made.outputs }, news);
        const again = await def.read(env.ctx, made.id, { inputs: news, outputs: made.outputs });
        expect(def.inputs.parse(again!.inputs)).toEqual(news);
      }
      if (importId) {
        const id = def.importId!(importId, env.provider.config);
        expect(id).toBe(made.id);
        expect(await def.read(env.ctx, id, { inputs: {}, outputs: {} })).not.toBeNull();
      }
    } finally {
      await def.delete(env.ctx, made.id, { inputs, outputs: made.outputs });
    }
    expect(await def.read(env.ctx, made.id, { inputs, outputs: made.outputs })).toBeNull();
  });

  it('instance devices and instance files on a real container', async () => {
    const inst = env.res('prova:index/instance:Instance');
    const ii = inst.inputs.parse({ name: n('cvt-dev1'), image: facts.image, running: false });
    const made = await inst.create(env.ctx, ii);
    try {
      const dev = env.res('prova:index/instanceDevice:InstanceDevice');
      const di = dev.inputs.parse({
        instanceName: n('cvt-dev1'),
        name: 'data',
        type: 'disk',
        properties: { source: '/tmp', path: '/mnt' },
      });
      const d = await dev.create(env.ctx, di);
      expect(lxc(['config', 'device', 'get', n('cvt-dev1'), 'data', 'path']).trim()).toBe('/mnt');
      const dn = dev.inputs.parse({ ...di, properties: { source: '/tmp', path: '/data' } });
      await dev.update!(env.ctx, d.id, { inputs: di, outputs: {} }, dn);
      expect(dev.inputs.parse((await dev.read(env.ctx, d.id, { inputs: dn, outputs: {} }))!.inputs)).toEqual(dn);
      // The instance's own update keeps the standalone device.
      await inst.update!(
        env.ctx,
        made.id,
        { inputs: ii, outputs: made.outputs },
        inst.inputs.parse({ ...ii, description: 'x' }),
      );
      expect(lxc(['config', 'device', 'get', n('cvt-dev1'), 'data', 'path']).trim()).toBe('/data');
      await dev.delete(env.ctx, d.id, { inputs: dn, outputs: {} });
      expect(await dev.read(env.ctx, d.id, { inputs: dn, outputs: {} })).toBeNull();

      const file = env.res('prova:index/instanceFile:InstanceFile');
      const fi = file.inputs.parse({
        instance: n('cvt-dev1'),
        targetPath: '/opt/cvt/motd',
        content: 'hello\n',
        createDirectories: true,
      });
      const f = await file.create(env.ctx, fi);
      expect(f.outputs.resourceId).toBe(`local:${n('cvt-dev1')}:/opt/cvt/motd`);
      const fr = await file.read(env.ctx, f.id, { inputs: fi, outputs: f.outputs });
      expect(fr!.inputs).toMatchObject({ mode: '0755', uid: 0, gid: 0 });
      expect(lxc(['file', 'pull', `${n('cvt-dev1')}/opt/cvt/motd`, '-'])).toBe('hello\n');
      await file.delete(env.ctx, f.id, { inputs: fi, outputs: f.outputs });
      expect(await file.read(env.ctx, f.id, { inputs: fi, outputs: f.outputs })).toBeNull();
    } finally {
      await inst.delete(env.ctx, made.id, { inputs: ii, outputs: made.outputs });
    }
  });
});
