// Lookups against the real daemon, and the clear error for the auth lookups LXD 5.0 cannot serve.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { LookupError, ProviderError } from '../../../src/engine/errors.js';
import { cleanupCvt, describeLxd, realEnv, type RealEnv, n } from './lxd-env.js';

describeLxd('prova lookups against a real LXD', (facts) => {
  let env: RealEnv;
  beforeAll(() => {
    cleanupCvt();
    env = realEnv(facts);
  });
  afterAll(async () => {
    await env.close();
    cleanupCvt();
  });
  const run = (fn: string, args: Record<string, unknown>) => {
    const l = env.provider.lookups.get(`prova:index/${fn}:${fn}`)!;
    return l.run(env.ctx, l.args.parse(args)) as Promise<Record<string, unknown>>;
  };

  it('reads the server, image, network, profile, project and pool', async () => {
    const info = await run('getInfo', {});
    expect(info).toMatchObject({ clusterMembers: {}, remote: 'local' });
    expect(info.instanceTypes).toContain('container');
    expect(info.apiExtensions).toContain('network_acl');
    const img = await run('getImage', { name: facts.image });
    expect(img).toMatchObject({ aliases: [facts.image], type: 'container' });
    expect(img.fingerprint).toMatch(/^[0-9a-f]{64}$/);
    expect(typeof img.createdAt).toBe('number');
    expect(await run('getNetwork', { name: facts.bridge })).toMatchObject({
      managed: true,
      ipv4Address: '198.18.0.1/24',
      ipv6Address: '',
      type: 'bridge',
    });
    expect((await run('getProfile', { name: 'default' })).devices).toEqual(
      expect.arrayContaining([expect.objectContaining({ name: 'eth0', type: 'nic' })]),
    );
    expect((await run('getProject', { name: 'default' })).config).toMatchObject({ 'features.images': 'true' });
    expect(await run('getStoragePool', { name: 'default' })).toMatchObject({
      driver: 'dir',
      status: 'Created',
      locations: [],
    });
  });

  it('reads an instance with every always-present output', async () => {
    const def = env.res('prova:index/instance:Instance');
    const i = def.inputs.parse({ name: n('cvt-look1'), image: facts.image, limits: { cpu: '1' } });
    const made = await def.create(env.ctx, i);
    try {
      const r = await run('getInstance', { name: n('cvt-look1') });
      for (const k of [
        'config',
        'description',
        'devices',
        'ephemeral',
        'id',
        'interfaces',
        'ipv4Address',
        'ipv6Address',
        'limits',
        'location',
        'macAddress',
        'name',
        'profiles',
        'running',
        'status',
        'type',
      ])
        expect(r).toHaveProperty(k);
      expect(r).toMatchObject({
        running: true,
        status: 'Running',
        limits: { cpu: '1' },
        ipv4Address: made.outputs.ipv4Address,
      });
    } finally {
      await def.delete(env.ctx, made.id, { inputs: i, outputs: made.outputs });
    }
  });

  it('says not_found for missing objects, and names access_management and the version for auth lookups on 5.0', async () => {
    const e1 = await run('getInstance', { name: n('cvt-nope') }).catch((e: unknown) => e);
    expect(e1).toBeInstanceOf(LookupError);
    const e2 = await run('getAuthGroup', { name: 'x' }).catch((e: unknown) => e);
    expect(e2).toBeInstanceOf(ProviderError);
    expect((e2 as ProviderError).message).toMatch(/version 5\.0\.\d+\) lacks API extension "access_management"/);
  });
});
