import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ProviderError } from '../../../src/engine/errors.js';
import { simEnv, type SimEnv } from './sim-env.js';

let env: SimEnv;
beforeEach(async () => {
  env = await simEnv();
});
afterEach(async () => {
  expect(env.sim.unmatched).toEqual([]);
  await env.close();
});

type Case = {
  readonly token: string;
  readonly create: Record<string, unknown>;
  readonly update?: Record<string, unknown>;
  readonly replaceOn: readonly string[];
  /** [user import id, the canonical id it maps to] */
  readonly importId?: readonly [string, string];
  readonly setup?: (env: SimEnv) => Promise<void>;
};

const instanceSetup = async (e: SimEnv) => {
  const def = e.res('prova:index/instance:Instance');
  await def.create(e.ctx, def.inputs.parse({ name: 'host1', image: 'busybox' }));
};

const cases: Case[] = [
  {
    token: 'prova:index/network:Network',
    create: { name: 'cvt-net', config: { 'ipv4.address': 'none', 'ipv6.address': 'none', 'user.x': '1' } },
    update: {
      name: 'cvt-net',
      description: 'changed',
      config: { 'ipv4.address': 'none', 'ipv6.address': 'none', 'user.x': '2' },
    },
    replaceOn: ['name', 'type'],
    importId: ['cvt-net', 'local:default/cvt-net'],
  },
  {
    token: 'prova:index/networkAcl:NetworkAcl',
    create: {
      name: 'cvt-acl',
      ingresses: [{ action: 'allow', state: 'enabled', protocol: 'tcp', destinationPort: '22' }],
    },
    update: {
      name: 'cvt-acl',
      description: 'd',
      egresses: [{ action: 'drop', state: 'logged', protocol: 'icmp4', icmpType: '8' }],
    },
    replaceOn: ['name'],
    importId: ['local:cvt-acl', 'local:default/cvt-acl'],
  },
  {
    token: 'prova:index/networkForward:NetworkForward',
    create: {
      network: 'convergebr0',
      listenAddress: '198.18.0.250',
      ports: [{ protocol: 'tcp', listenPort: '80', targetAddress: '198.18.0.20' }],
    },
    update: {
      network: 'convergebr0',
      listenAddress: '198.18.0.250',
      description: 'web',
      ports: [{ protocol: 'tcp', listenPort: '80,443', targetAddress: '198.18.0.21', targetPort: '8080,8443' }],
    },
    replaceOn: ['network', 'listenAddress'],
    importId: ['/convergebr0/198.18.0.250', 'local:default/convergebr0/198.18.0.250'],
  },
  {
    token: 'prova:index/profile:Profile',
    create: {
      name: 'cvt-prof',
      config: { 'limits.cpu': '1' },
      devices: [{ name: 'data', type: 'disk', properties: { source: '/tmp', path: '/mnt' } }],
    },
    update: { name: 'cvt-prof', description: 'p', config: { 'limits.cpu': '2' } },
    replaceOn: ['name'],
    importId: ['default/cvt-prof', 'local:default/cvt-prof'],
  },
  {
    token: 'prova:index/project:Project',
    create: { name: 'cvt-proj', config: { 'user.a': '1' } },
    update: { name: 'cvt-proj', description: 'x', config: { 'user.a': '2' } },
    replaceOn: ['name'],
    importId: ['cvt-proj', 'local:default/cvt-proj'],
  },
  {
    token: 'prova:index/storagePool:StoragePool',
    create: { name: 'cvt-pool', driver: 'dir' },
    update: { name: 'cvt-pool', driver: 'dir', description: 'pool' },
    replaceOn: ['name', 'driver'],
    importId: ['cvt-pool', 'local:default/cvt-pool'],
  },
  {
    token: 'prova:index/storageVolume:StorageVolume',
    create: { pool: 'default', name: 'cvt-vol', config: { 'user.a': '1' } },
    update: { pool: 'default', name: 'cvt-vol', description: 'v', config: { 'user.a': '2' } },
    replaceOn: ['pool', 'name', 'contentType'],
    importId: ['/default/cvt-vol', 'local:default/default/cvt-vol'],
  },
  {
    token: 'prova:index/authGroup:AuthGroup',
    create: { name: 'cvt-group', permissions: [{ entitlement: 'viewer', entityType: 'server' }] },
    update: {
      name: 'cvt-group',
      description: 'ops',
      permissions: [
        { entitlement: 'operator', entityType: 'instance', entityArgs: { name: 'web', project: 'default' } },
        { entitlement: 'can_view', entityType: 'project', entityArgs: { name: 'default' } },
      ],
    },
    replaceOn: ['name'],
    importId: ['cvt-group', 'local:default/cvt-group'],
  },
  {
    token: 'prova:index/instanceDevice:InstanceDevice',
    setup: instanceSetup,
    create: { instanceName: 'host1', name: 'data', type: 'disk', properties: { source: '/tmp', path: '/mnt' } },
    update: { instanceName: 'host1', name: 'data', type: 'disk', properties: { source: '/tmp', path: '/data' } },
    replaceOn: ['instanceName', 'name'],
  },
  {
    token: 'prova:index/instanceFile:InstanceFile',
    setup: instanceSetup,
    create: { instance: 'host1', targetPath: '/etc/motd', content: 'hi' },
    replaceOn: ['instance', 'targetPath', 'content', 'mode', 'uid'],
  },
];

describe.each(cases)('$token', (c) => {
  it('creates, reads back what was declared, updates or replaces per replaceOn, imports and deletes', async () => {
    await c.setup?.(env);
    const def = env.res(c.token);
    for (const f of c.replaceOn) expect(def.replaceOn).toContain(f);
    const inputs = def.inputs.parse(c.create);
    const made = await def.create(env.ctx, inputs);
    const read = await def.read(env.ctx, made.id, { inputs, outputs: made.outputs });
    expect(read).not.toBeNull();
    expect(def.inputs.parse(read!.inputs)).toEqual(inputs);
    expect(def.outputs.safeParse(read!.outputs).success).toBe(true);
    if (c.update) {
      const news = def.inputs.parse(c.update);
      await def.update!(env.ctx, made.id, { inputs, outputs: made.outputs }, news);
      const again = await def.read(env.ctx, made.id, { inputs: news, outputs: made.outputs });
      expect(def.inputs.parse(again!.inputs)).toEqual(news);
    } else {
      expect(def.update).toBeUndefined();
    }
    if (c.importId) {
      const id = def.importId!(c.importId[0], env.provider.config);
      expect(id).toBe(c.importId[1]);
      const imported = await def.read(env.ctx, id, { inputs: {}, outputs: {} });
      expect(imported).not.toBeNull();
    }
    await def.delete(env.ctx, made.id, { inputs, outputs: made.outputs });
    expect(await def.read(env.ctx, made.id, { inputs, outputs: made.outputs })).toBeNull();
    // A second delete meets the object gone: not found, which the engine's delete step takes as done.
    await expect(def.delete(env.ctx, made.id, { inputs, outputs: made.outputs })).rejects.toMatchObject({
      notFound: true,
    });
  });
});

describe('shared write rules', () => {
  it('sends If-Match with the ETag it read, and surfaces a 412 when the object moved on', async () => {
    const def = env.res('prova:index/profile:Profile');
    const inputs = def.inputs.parse({ name: 'cvt-etag' });
    const made = await def.create(env.ctx, inputs);
    env.sim.use({
      method: 'PUT',
      path: '/1.0/profiles/:name',
      handler: () => ({ status: 412, body: { type: 'error', error: "ETag doesn't match: a vs b", error_code: 412 } }),
    });
    const err = await def.update!(
      env.ctx,
      made.id,
      { inputs, outputs: {} },
      def.inputs.parse({ name: 'cvt-etag', description: 'x' }),
    ).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProviderError);
    expect((err as ProviderError).status).toBe(412);
    const put = env.sim.requests.find((r) => r.method === 'PUT')!;
    expect(put).toBeDefined();
    env.sim.resetHandlers();
    await def.update!(
      env.ctx,
      made.id,
      { inputs, outputs: {} },
      def.inputs.parse({ name: 'cvt-etag', description: 'x' }),
    );
    expect(env.sim.store.profiles.get('default/cvt-etag')!.description).toBe('x');
  });

  it('keeps server-filled network keys out of state and carries them through updates', async () => {
    const def = env.res('prova:index/network:Network');
    const inputs = def.inputs.parse({ name: 'cvt-auto' });
    const made = await def.create(env.ctx, inputs);
    const stored = env.sim.store.networks.get('default/cvt-auto')!.config as Record<string, string>;
    expect(stored['ipv4.address']).toMatch(/\/24$/);
    const read = await def.read(env.ctx, made.id, { inputs, outputs: made.outputs });
    expect(read!.inputs.config).toEqual({});
    expect(made.outputs.ipv4Address).toBe(stored['ipv4.address']);
    await def.update!(
      env.ctx,
      made.id,
      { inputs, outputs: made.outputs },
      def.inputs.parse({ name: 'cvt-auto', config: { 'user.k': 'v' } }),
    );
    expect(env.sim.store.networks.get('default/cvt-auto')!.config).toMatchObject({
      'ipv4.address': stored['ipv4.address'],
      'user.k': 'v',
    });
  });

  it('fails auth groups on a server without access_management, naming the extension and version', async () => {
    await env.close();
    env = await simEnv({ version: '5.0.2', extensions: ['etag', 'network'] });
    const def = env.res('prova:index/authGroup:AuthGroup');
    const err = await def.create(env.ctx, def.inputs.parse({ name: 'g' })).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProviderError);
    expect((err as ProviderError).vendorCode).toBe('missing_extension');
    expect((err as ProviderError).message).toContain('"access_management"');
    expect((err as ProviderError).message).toContain('5.0.2');
  });

  it('leaves the default profile of project default alone on delete, with a warning', async () => {
    const def = env.res('prova:index/profile:Profile');
    const inputs = def.inputs.parse({
      name: 'default',
      devices: [{ name: 'root', type: 'disk', properties: { path: '/', pool: 'default' } }],
    });
    const made = await def.create(env.ctx, inputs);
    await def.delete(env.ctx, made.id, { inputs, outputs: {} });
    expect(env.sim.store.profiles.has('default/default')).toBe(true);
    expect(env.reports.some((r) => r.kind === 'warning')).toBe(true);
  });
});

describe('InstanceFile drift', () => {
  it('shows content edited inside the guest, and mode/owner from the file headers', async () => {
    const inst = env.res('prova:index/instance:Instance');
    await inst.create(env.ctx, inst.inputs.parse({ name: 'host2', image: 'busybox' }));
    const def = env.res('prova:index/instanceFile:InstanceFile');
    const inputs = def.inputs.parse({
      instance: 'host2',
      targetPath: 'etc/app.conf',
      content: 'a=1\n',
      mode: '640',
      uid: 5,
    });
    const made = await def.create(env.ctx, inputs);
    expect(made.id).toBe('local:host2:/etc/app.conf');
    const f = env.sim.store.instances.get('default/host2')!.files.get('/etc/app.conf')!;
    expect(f).toMatchObject({ mode: 0o640, uid: 5 });
    f.content = 'a=2\n';
    const read = await def.read(env.ctx, made.id, { inputs, outputs: made.outputs });
    expect(read!.inputs).toMatchObject({ content: 'a=2\n', mode: '0640', uid: 5 });
    expect(inputs.mode).toBe('0640');
    expect(def.inputs.parse({ ...read!.inputs, content: 'a=1\n' })).toEqual(inputs);
  });
});
