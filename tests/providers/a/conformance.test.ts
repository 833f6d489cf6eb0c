// prova against the shared provider conformance suite, on its in-process fake LXD served over HTTPS
// on loopback with LXD's trust handshake (a password), so the trust password and the client key are
// among the secrets that must never show. Import ids are the user forms of ParseImportID.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateClientCertificate, prova } from 'converge/providers/a';
import { startSimulator, type LxdSimulator } from 'converge/providers/a/simulator';
import { describeProvider } from '../../conformance/provider.js';

const TRUST_PASSWORD = 'conformance-trust-pw-4d1c';

/** The fake of the running test (vitest runs one file's tests one after another). */
let current: LxdSimulator;

const box = () => prova.instance('box', { name: 'cvt-box', image: 'busybox' });
const net = (description = '') =>
  prova.network('net', {
    name: 'cvt-net',
    description,
    config: { 'ipv4.address': 'none', 'ipv6.address': 'none', 'user.x': '1' },
  });
const acl = (port: string) =>
  prova.networkAcl('acl', {
    name: 'cvt-acl',
    ingresses: [{ action: 'allow', state: 'enabled', protocol: 'tcp', destinationPort: port }],
  });
const forward = (targetAddress: string) =>
  prova.networkForward('fwd', {
    network: 'convergebr0',
    listenAddress: '198.18.0.250',
    ports: [{ protocol: 'tcp', listenPort: '80', targetAddress }],
  });
const device = (path: string) =>
  prova.instanceDevice(
    'dev',
    { instanceName: 'cvt-box', name: 'data', type: 'disk', properties: { source: '/tmp', path } },
    { dependsOn: ['box'] },
  );
const file = (content: string) =>
  prova.instanceFile('file', { instance: 'cvt-box', targetPath: '/etc/motd', content }, { dependsOn: ['box'] });

describeProvider({
  name: 'prova',
  start: async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cvt-prova-conf-'));
    const sim = await startSimulator({ tls: true, trustPassword: TRUST_PASSWORD });
    current = sim;
    const configDir = join(dir, 'config');
    const client = await generateClientCertificate(configDir);
    const provider = prova({
      configDir,
      acceptRemoteCertificate: true,
      pollIntervalMs: 2,
      operationWaitSeconds: 5,
      remotes: [{ name: 'sim', address: sim.address, password: TRUST_PASSWORD, default: true }],
    });
    return {
      provider,
      sim,
      secrets: [TRUST_PASSWORD, ...client.key.split('\n').slice(1, 3)],
      close: async () => {
        await provider.close();
        await sim.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  },
  resources: {
    'prova:index/instance:Instance': {
      stack: () => [prova.instance('web', { name: 'cvt-web', image: 'busybox', config: { 'user.a': '1' } })],
      changed: () => [
        prova.instance('web', { name: 'cvt-web', image: 'busybox', config: { 'user.a': '2' }, limits: { cpu: '1' } }),
      ],
      expect: 'update',
      // `name,image=<img>`: the option keeps the image in state (the API does not return it).
      importId: (r) => `${String(r.inputs.name)},image=${String(r.inputs.image)}`,
    },
    'prova:index/instanceDevice:InstanceDevice': {
      stack: () => [box(), device('/mnt')],
      changed: () => [box(), device('/data')],
      expect: 'update',
    },
    'prova:index/instanceFile:InstanceFile': {
      stack: () => [box(), file('one')],
      changed: () => [box(), file('two')],
      expect: 'replace',
    },
    'prova:index/network:Network': {
      stack: () => [net()],
      changed: () => [net('changed')],
      expect: 'update',
      importId: (r) => String(r.inputs.name),
    },
    'prova:index/networkAcl:NetworkAcl': {
      stack: () => [acl('22')],
      changed: () => [acl('22,80')],
      expect: 'update',
      importId: (r) => String(r.inputs.name),
    },
    'prova:index/networkForward:NetworkForward': {
      stack: () => [forward('198.18.0.20')],
      changed: () => [forward('198.18.0.21')],
      expect: 'update',
      // `[project]/network/listen_address`: the empty project is the default one.
      importId: (r) => `/${String(r.inputs.network)}/${String(r.inputs.listenAddress)}`,
    },
    'prova:index/profile:Profile': {
      stack: () => [prova.profile('prof', { name: 'cvt-prof', config: { 'user.a': '1' } })],
      changed: () => [
        prova.profile('prof', {
          name: 'cvt-prof',
          config: { 'user.a': '2' },
          devices: [{ name: 'data', type: 'disk', properties: { source: '/tmp', path: '/mnt' } }],
        }),
      ],
      expect: 'update',
      importId: (r) => `default/${String(r.inputs.name)}`,
    },
    'prova:index/project:Project': {
      stack: () => [prova.project('proj', { name: 'cvt-proj', config: { 'user.a': '1' } })],
      changed: () => [prova.project('proj', { name: 'cvt-proj', description: 'changed', config: { 'user.a': '2' } })],
      expect: 'update',
      importId: (r) => String(r.inputs.name),
    },
    'prova:index/storagePool:StoragePool': {
      stack: () => [prova.storagePool('pool', { name: 'cvt-pool', driver: 'dir' })],
      changed: () => [prova.storagePool('pool', { name: 'cvt-pool', driver: 'dir', description: 'changed' })],
      expect: 'update',
      importId: (r) => String(r.inputs.name),
    },
    'prova:index/storageVolume:StorageVolume': {
      stack: () => [prova.storageVolume('vol', { pool: 'default', name: 'cvt-vol', config: { 'user.a': '1' } })],
      changed: () => [prova.storageVolume('vol', { pool: 'default', name: 'cvt-vol', config: { 'user.a': '2' } })],
      expect: 'update',
      importId: (r) => `/${String(r.inputs.pool)}/${String(r.inputs.name)}`,
    },
    'prova:index/authGroup:AuthGroup': {
      stack: () => [
        prova.authGroup('group', { name: 'cvt-group', permissions: [{ entitlement: 'viewer', entityType: 'server' }] }),
      ],
      changed: () => [
        prova.authGroup('group', {
          name: 'cvt-group',
          description: 'ops',
          permissions: [{ entitlement: 'can_view', entityType: 'project', entityArgs: { name: 'default' } }],
        }),
      ],
      expect: 'update',
      importId: (r) => String(r.inputs.name),
    },
  },
  lookups: {
    // The fake starts with the project, profile and storage pool `default`, the managed bridge
    // `convergebr0` and the image `busybox`.
    'prova:index/getInfo:getInfo': { succeeds: {} },
    'prova:index/getImage:getImage': {
      notFound: { name: 'no-such-image' },
      succeeds: { name: 'busybox' },
      ambiguous: {
        // A second container image: a search by type alone then matches two.
        arrange: async () => {
          const [fp, img] = [...current.store.images.entries()][0]!;
          const other = fp.replace(/^./, (c) => (c === 'f' ? '0' : 'f'));
          current.store.images.set(other, { ...structuredClone(img), name: other, fingerprint: other, aliases: [] });
        },
        args: { type: 'container' },
      },
    },
    'prova:index/getInstance:getInstance': { notFound: { name: 'no-such-instance' } },
    'prova:index/getNetwork:getNetwork': { notFound: { name: 'no-such-net' }, succeeds: { name: 'convergebr0' } },
    'prova:index/getProfile:getProfile': { notFound: { name: 'no-such-profile' }, succeeds: { name: 'default' } },
    'prova:index/getProject:getProject': { notFound: { name: 'no-such-project' }, succeeds: { name: 'default' } },
    'prova:index/getStoragePool:getStoragePool': { notFound: { name: 'no-such-pool' }, succeeds: { name: 'default' } },
    'prova:index/getAuthGroup:getAuthGroup': { notFound: { name: 'no-such-group' } },
    'prova:index/getAuthIdentity:getAuthIdentity': { notFound: { authMethod: 'tls', name: 'nobody' } },
  },
});
