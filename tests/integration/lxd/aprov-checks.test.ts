// Issue 15 (provider A against the real daemon), items 4–6: an unknown remote is a plan-time error for
// every resource and lookup; `target` on this standalone server is refused (at plan once the server
// is known, else with LXD's 400); a device added by hand is one added device in the drift.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ApplyError, ProviderError, ValidationError } from '../../../src/index.js';
import { prova, resources } from '../../../src/providers/a/index.js';
import { lookups } from '../../../src/providers/a/lookups/index.js';
import { cleanupAprov, describeLxd, lxc, realEngine, n } from './lxd-env.js';

const minimal: Record<string, Record<string, unknown>> = {
  'prova:index/authGroup:AuthGroup': { name: n('aprov-g') },
  'prova:index/instance:Instance': { name: n('aprov-r'), image: 'busybox' },
  'prova:index/instanceDevice:InstanceDevice': { instanceName: n('aprov-r'), name: 'd', type: 'disk', properties: {} },
  'prova:index/instanceFile:InstanceFile': { instance: n('aprov-r'), targetPath: '/x', content: 'x' },
  'prova:index/network:Network': { name: 'aprovn' },
  'prova:index/networkAcl:NetworkAcl': { name: n('aprov-acl') },
  'prova:index/networkForward:NetworkForward': { network: 'aprovn', listenAddress: '198.18.0.250' },
  'prova:index/profile:Profile': { name: n('aprov-p') },
  'prova:index/project:Project': { name: n('aprov-pr') },
  'prova:index/storagePool:StoragePool': { name: n('aprov-sp'), driver: 'dir' },
  'prova:index/storageVolume:StorageVolume': { pool: 'default', name: n('aprov-v') },
};
const lookupArgs: Record<string, Record<string, unknown>> = {
  getAuthGroup: { name: 'g' },
  getAuthIdentity: { authMethod: 'tls', name: 'x' },
  getImage: {},
  getInfo: {},
  getInstance: { name: 'x' },
  getNetwork: { name: 'x' },
  getProfile: { name: 'x' },
  getProject: { name: 'x' },
  getStoragePool: { name: 'x' },
};

describeLxd('prova plan-time checks and keyed devices against a real LXD (issue 15)', (facts) => {
  let dir: string;
  beforeAll(() => {
    cleanupAprov();
    dir = mkdtempSync(join(tmpdir(), 'aprov-'));
  });
  afterAll(() => {
    cleanupAprov();
    rmSync(dir, { recursive: true, force: true });
  });

  it('an unknown remote is a plan-time issue for every resource, naming the remote input', async () => {
    const { engine, provider } = realEngine(facts, dir);
    try {
      expect(Object.keys(minimal).sort()).toEqual(resources.map((r) => r.token).sort());
      const decls = Object.entries(minimal).map(([type, inputs], n) => ({
        type,
        name: `r${n}`,
        inputs: { ...inputs, remote: 'nowhere' },
      }));
      const err = await engine.plan(decls).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ValidationError);
      const hits = (err as ValidationError).issues
        .filter((i) => i.code === 'unknown_remote' && i.path.join('.') === 'remote')
        .map((i) => i.resource);
      expect(hits.sort()).toEqual(decls.map((d) => d.name).sort());
    } finally {
      await provider.close();
    }
  });

  it('an unknown remote is an error of every lookup before any request', async () => {
    const { engine, provider } = realEngine(facts, dir);
    try {
      expect(Object.keys(lookupArgs).sort()).toEqual(lookups.map((l) => l.token.split(':').pop()).sort());
      for (const [fn, args] of Object.entries(lookupArgs)) {
        const err = await engine
          .lookup(`prova:index/${fn}:${fn}`, { ...args, remote: 'nowhere' })
          .catch((e: unknown) => e);
        expect(err, fn).toBeInstanceOf(ValidationError);
        expect((err as ValidationError).issues[0], fn).toMatchObject({ code: 'unknown_remote', path: ['remote'] });
      }
    } finally {
      await provider.close();
    }
  });

  it("target on a standalone server fails with LXD's 400 when the server was not read yet, and creates nothing", async () => {
    const { engine, provider } = realEngine(facts, dir);
    try {
      const err = await engine
        .apply(
          await engine.plan([prova.instance('t', { name: n('aprov-tgt'), image: facts.image, target: 'member1' })]),
        )
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ApplyError);
      const cause = (err as ApplyError).result.failed[0]!.error;
      expect(cause).toBeInstanceOf(ProviderError);
      expect(cause).toMatchObject({ status: 400, vendorCode: 'target_not_clustered' });
      expect(lxc(['list', n('aprov-tgt'), '--format', 'csv', '-c', 'n']).trim()).toBe('');
    } finally {
      await provider.close();
    }
  });

  it('target on a server known to be standalone is a plan-time issue on the target input', async () => {
    const { engine, provider } = realEngine(facts, dir);
    try {
      await engine.lookup('prova:index/getInfo:getInfo', {});
      const err = await engine
        .plan([prova.network('n', { name: 'aprovtgt', target: 'member1' })])
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ValidationError);
      expect((err as ValidationError).issues).toEqual([
        expect.objectContaining({ resource: 'n', path: ['target'], code: 'target_not_clustered' }),
      ]);
    } finally {
      await provider.close();
    }
  });

  it('a device added by hand is one added device in the refresh drift, keyed by its name', async () => {
    const { engine, provider } = realEngine(facts, dir);
    const box = prova.instance('box', {
      name: n('aprov-dev1'),
      image: facts.image,
      running: false,
      devices: [
        { name: 'aaa', type: 'disk', properties: { source: '/tmp', path: '/mnt/a' } },
        { name: 'zzz', type: 'disk', properties: { source: '/tmp', path: '/mnt/z' } },
      ],
    });
    try {
      await engine.apply(await engine.plan([box]));
      lxc(['config', 'device', 'add', n('aprov-dev1'), 'mmm', 'disk', 'source=/tmp', 'path=/mnt/m']);
      const drift = await engine.refresh();
      expect(drift.drifted).toHaveLength(1);
      expect(drift.drifted[0]!.changes).toEqual([
        {
          path: 'devices.mmm',
          before: undefined,
          after: { name: 'mmm', type: 'disk', properties: { source: '/tmp', path: '/mnt/m' } },
        },
      ]);
    } finally {
      await engine.destroy();
      await provider.close();
    }
  });
});
