import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LookupError, ProviderError } from '../../../src/engine/errors.js';
import { simEnv, type SimEnv } from './sim-env.js';

let env: SimEnv;
beforeEach(async () => {
  env = await simEnv();
});
afterEach(async () => {
  expect(env.sim.unmatched).toEqual([]);
  await env.close();
});

const run = (fn: string, args: Record<string, unknown>) => {
  const l = env.provider.lookups.get(`prova:index/${fn}:${fn}`)!;
  return l.run(env.ctx, l.args.parse(args)) as Promise<Record<string, unknown>>;
};
const has = (o: Record<string, unknown>, keys: string[]) => keys.forEach((k) => expect(o).toHaveProperty(k));

describe('lookups', () => {
  it('getInstance returns every always-present output', async () => {
    const def = env.res('prova:index/instance:Instance');
    await def.create(
      env.ctx,
      def.inputs.parse({ name: 'l1', image: 'busybox', limits: { cpu: '1' }, config: { 'user.a': 'b' } }),
    );
    const r = await run('getInstance', { name: 'l1' });
    has(r, [
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
    ]);
    expect(r).toMatchObject({
      running: true,
      status: 'Running',
      limits: { cpu: '1' },
      config: { 'user.a': 'b' },
      profiles: ['default'],
      type: 'container',
    });
  });

  it('getNetwork, getProfile, getProject and getStoragePool read existing objects', async () => {
    expect(await run('getNetwork', { name: 'convergebr0' })).toMatchObject({
      managed: true,
      ipv4Address: '198.18.0.1/24',
      ipv6Address: '',
      type: 'bridge',
      description: '',
    });
    expect((await run('getProfile', { name: 'default' })).devices).toEqual(
      expect.arrayContaining([expect.objectContaining({ name: 'eth0', type: 'nic' })]),
    );
    has(await run('getProject', { name: 'default' }), ['config', 'description', 'id', 'name']);
    expect(await run('getStoragePool', { name: 'default' })).toMatchObject({
      driver: 'dir',
      status: 'Created',
      locations: [],
      description: '',
    });
  });

  it('getImage finds by alias, fingerprint or filters, and getInfo reports extensions', async () => {
    const byAlias = await run('getImage', { name: 'busybox' });
    expect(byAlias).toMatchObject({ aliases: ['busybox'], architecture: 'x86_64', type: 'container' });
    expect(typeof byAlias.createdAt).toBe('number');
    expect((await run('getImage', { fingerprint: String(byAlias.fingerprint).slice(0, 12) })).fingerprint).toBe(
      byAlias.fingerprint,
    );
    expect((await run('getImage', { type: 'container' })).fingerprint).toBe(byAlias.fingerprint);
    const info = await run('getInfo', {});
    expect(info).toMatchObject({ clusterMembers: {}, instanceTypes: ['container'] });
    expect(info.apiExtensions).toContain('etag');
  });

  it('getAuthGroup and getAuthIdentity read the fine-grained auth objects', async () => {
    const def = env.res('prova:index/authGroup:AuthGroup');
    await def.create(
      env.ctx,
      def.inputs.parse({ name: 'ops', permissions: [{ entitlement: 'viewer', entityType: 'server' }] }),
    );
    expect(await run('getAuthGroup', { name: 'ops' })).toMatchObject({
      name: 'ops',
      description: '',
      permissions: [{ entitlement: 'viewer', entityType: 'server', entityArgs: {} }],
    });
    env.sim.store.identities.set('alice', {
      name: 'alice',
      authentication_method: 'tls',
      type: 'Client certificate',
      id: 'ab'.repeat(32),
      groups: ['ops'],
      tls_certificate: '-----BEGIN CERTIFICATE-----',
    });
    expect(await run('getAuthIdentity', { authMethod: 'tls', name: 'alice' })).toMatchObject({
      authMethod: 'tls',
      groups: ['ops'],
      identifier: 'ab'.repeat(32),
      tlsCertificate: '-----BEGIN CERTIFICATE-----',
    });
  });

  it('fails with LookupError not_found, and names the missing extension on servers without auth', async () => {
    const err = await run('getNetwork', { name: 'nope' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LookupError);
    expect((err as LookupError).reason).toBe('not_found');
    await env.close();
    env = await simEnv({ extensions: ['etag'] });
    const e2 = await run('getAuthGroup', { name: 'x' }).catch((e: unknown) => e);
    expect(e2).toBeInstanceOf(ProviderError);
    expect((e2 as ProviderError).message).toContain('access_management');
  });
});
