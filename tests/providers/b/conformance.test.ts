// provb against the shared provider conformance suite, on its simulator (tiny transition times and
// poll interval). Secrets: the API token, the credential keys declared here, and every database
// password, cluster kubeconfig, instance password and credential secret the simulator hands out.
import { provb } from 'converge/providers/b';
import { startSimulator, type CivoSimulator } from 'converge/providers/b/simulator';
import type { Engine, ResourceDecl } from 'converge';
import { describeProvider } from '../../conformance/provider.js';
import { fastTransitions } from './harness.js';

const REGION = 'LON1';
const PUBLIC_KEY = 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIConformanceKeyConformanceKeyConformance conf@example';
const SECRET_KEY_1 = 'conf-secret-key-0123456789abcdefghij';
const SECRET_KEY_2 = 'conf-secret-key-9876543210zyxwvutsrq';

/** The simulator of the running test (vitest runs one file's tests one after another). */
let current: CivoSimulator;

/** Every secret the simulator has handed out so far, gathered before each request it serves. */
function harvest(sim: CivoSimulator, into: Set<string>): void {
  const store = sim.store;
  const tick = store.tick.bind(store);
  const gather = () => {
    for (const d of store.databases.values()) if (d.password) into.add(d.password);
    for (const i of store.instances.values()) if (i.initial_password) into.add(i.initial_password);
    for (const c of store.credentials.values()) if (c.secret_access_key_id) into.add(c.secret_access_key_id);
    for (const c of store.clusters.values()) {
      if (!c.kubeconfig) continue;
      into.add(c.kubeconfig);
      const token = /token: (\S+)/.exec(c.kubeconfig)?.[1];
      if (token) into.add(token);
    }
  };
  store.tick = () => {
    tick();
    gather();
  };
}

/** A copy of the object `pick` chooses, under a new id: a second object with the same name. */
function twin<T extends Record<string, unknown>>(map: Map<string, T>, pick: (o: T) => boolean): void {
  const original = [...map.values()].find(pick);
  if (!original) throw new Error('nothing to copy');
  const id = current.store.id();
  map.set(id, { ...structuredClone(original), id });
}

const net = () => provb.network('net', { label: 'conf-net' });
const fw = (n = net()) =>
  provb.firewall('fw', {
    name: 'conf-fw',
    networkId: n.out('networkId'),
    createDefaultRules: false,
    ingressRules: [{ label: 'ssh', portRange: '22', cidrs: ['0.0.0.0/0'], action: 'allow' }],
  });
/** Network, firewall and an instance in them; the instance's initial password is a (secret) output. */
const web = (tags = ['conf']) => {
  const n = net();
  const f = fw(n);
  const w = provb.instance('web', {
    hostname: 'conf-web',
    diskImage: 'ubuntu-jammy',
    firewallId: f.out('firewallId'),
    networkId: n.out('networkId'),
    tags,
    writePassword: true,
  });
  return [n, f, w] as const;
};
/** A cluster (with its kubeconfig as a secret output) behind its own firewall. */
const cluster = (nodeCount = 1) => {
  const f = provb.firewall('fw', { name: 'conf-k8s-fw' });
  const k = provb.kubernetesCluster('k8s', {
    name: 'conf-k8s',
    firewallId: f.out('firewallId'),
    pools: { label: 'main', nodeCount, size: 'g4s.kube.small' },
    writeKubeconfig: true,
  });
  return [f, k] as const;
};
const domain = () => provb.dnsDomainName('domain', { name: 'conf.example' });
const db = (name: string) =>
  provb.database('db', { name, engine: 'mysql', version: '8.0', size: 'g3.db.small', nodes: 1 });

/** Through the engine's state: a stack of one declaration (no refs), for the ambiguity arrangements. */
async function applied(engine: Engine, decls: ResourceDecl[]): Promise<void> {
  await engine.apply(await engine.plan(decls));
}

describeProvider({
  name: 'provb',
  start: async () => {
    const sim = await startSimulator({ transitions: fastTransitions });
    current = sim;
    const found = new Set<string>([sim.token, SECRET_KEY_1, SECRET_KEY_2]);
    harvest(sim, found);
    const provider = provb({ token: sim.token, apiEndpoint: sim.url, region: REGION, pollIntervalMs: 1 });
    return {
      provider,
      sim,
      get secrets() {
        return [...found];
      },
      close: () => sim.close(),
    };
  },
  resources: {
    'provb:index/network:Network': {
      stack: () => [net()],
      changed: () => [provb.network('net', { label: 'conf-net-renamed' })],
      expect: 'update',
    },
    'provb:index/firewall:Firewall': {
      stack: () => {
        const n = net();
        return [n, fw(n)];
      },
      changed: () => {
        const n = net();
        return [
          n,
          provb.firewall('fw', {
            name: 'conf-fw-renamed',
            networkId: n.out('networkId'),
            createDefaultRules: false,
            ingressRules: [
              { label: 'ssh', portRange: '22', cidrs: ['0.0.0.0/0'], action: 'allow' },
              { label: 'web', portRange: '80-443', cidrs: ['0.0.0.0/0'], action: 'allow' },
            ],
          }),
        ];
      },
      expect: 'update',
    },
    'provb:index/instance:Instance': {
      stack: () => [...web()],
      changed: () => [...web(['conf', 'changed'])],
      expect: 'update',
    },
    'provb:index/instanceReservedIpAssignment:InstanceReservedIpAssignment': {
      stack: () => {
        const [n, f, w] = web();
        const ip = provb.reservedIp('ip', { name: 'conf-ip' });
        return [
          n,
          f,
          w,
          ip,
          provb.instanceReservedIpAssignment('assign', {
            instanceId: w.out('instanceId'),
            reservedIpId: ip.out('reservedIpId'),
          }),
        ];
      },
      changed: () => {
        const [n, f, w] = web();
        const ip = provb.reservedIp('ip', { name: 'conf-ip' });
        const ip2 = provb.reservedIp('ip2', { name: 'conf-ip-2' });
        return [
          n,
          f,
          w,
          ip,
          ip2,
          provb.instanceReservedIpAssignment('assign', {
            instanceId: w.out('instanceId'),
            reservedIpId: ip2.out('reservedIpId'),
          }),
        ];
      },
      expect: 'replace',
    },
    'provb:index/reservedIp:ReservedIp': {
      stack: () => [provb.reservedIp('ip', { name: 'conf-ip' })],
      changed: () => [provb.reservedIp('ip', { name: 'conf-ip-renamed' })],
      expect: 'update',
    },
    'provb:index/volume:Volume': {
      stack: () => {
        const n = net();
        return [n, provb.volume('vol', { name: 'conf-vol', sizeGb: 10, networkId: n.out('networkId') })];
      },
      changed: () => {
        const n = net();
        return [n, provb.volume('vol', { name: 'conf-vol', sizeGb: 20, networkId: n.out('networkId') })];
      },
      expect: 'update',
    },
    'provb:index/volumeAttachment:VolumeAttachment': {
      stack: () => {
        const [n, f, w] = web();
        const v = provb.volume('vol', { name: 'conf-vol', sizeGb: 10, networkId: n.out('networkId') });
        return [
          n,
          f,
          w,
          v,
          provb.volumeAttachment('attach', { instanceId: w.out('instanceId'), volumeId: v.out('volumeId') }),
        ];
      },
      changed: () => {
        const [n, f, w] = web();
        const v = provb.volume('vol', { name: 'conf-vol', sizeGb: 10, networkId: n.out('networkId') });
        const v2 = provb.volume('vol2', { name: 'conf-vol-2', sizeGb: 10, networkId: n.out('networkId') });
        return [
          n,
          f,
          w,
          v,
          v2,
          provb.volumeAttachment('attach', { instanceId: w.out('instanceId'), volumeId: v2.out('volumeId') }),
        ];
      },
      expect: 'replace',
    },
    'provb:index/loadBalancer:LoadBalancer': {
      stack: () => [
        provb.loadBalancer('lb', {
          name: 'conf-lb',
          backends: [{ ip: '192.168.1.10', sourcePort: 80, targetPort: 8080 }],
        }),
      ],
      changed: () => [
        provb.loadBalancer('lb', {
          name: 'conf-lb',
          algorithm: 'least_connections',
          backends: [
            { ip: '192.168.1.10', sourcePort: 80, targetPort: 8080 },
            { ip: '192.168.1.11', sourcePort: 80, targetPort: 8080 },
          ],
        }),
      ],
      expect: 'update',
    },
    'provb:index/kubernetesCluster:KubernetesCluster': {
      stack: () => [...cluster(1)],
      changed: () => [...cluster(2)],
      expect: 'update',
    },
    'provb:index/kubernetesNodePool:KubernetesNodePool': {
      stack: () => {
        const [f, k] = cluster(1);
        return [
          f,
          k,
          provb.kubernetesNodePool('pool', {
            clusterId: k.out('clusterId'),
            label: 'extra',
            nodeCount: 1,
            size: 'g4s.kube.medium',
          }),
        ];
      },
      changed: () => {
        const [f, k] = cluster(1);
        return [
          f,
          k,
          provb.kubernetesNodePool('pool', {
            clusterId: k.out('clusterId'),
            label: 'extra',
            nodeCount: 2,
            size: 'g4s.kube.medium',
          }),
        ];
      },
      expect: 'update',
    },
    'provb:index/database:Database': {
      stack: () => [db('conf-db')],
      changed: () => [db('conf-db-renamed')],
      expect: 'update',
    },
    'provb:index/dnsDomainName:DnsDomainName': {
      stack: () => [domain()],
      changed: () => [provb.dnsDomainName('domain', { name: 'conf-renamed.example' })],
      expect: 'update',
      // The vendor imports a domain by its name; read resolves the name to the id.
      importId: (r) => String(r.inputs.name),
    },
    'provb:index/dnsDomainRecord:DnsDomainRecord': {
      stack: () => {
        const d = domain();
        return [
          d,
          provb.dnsDomainRecord('www', {
            domainId: d.out('dnsDomainNameId'),
            type: 'a',
            name: 'www',
            value: '192.0.2.10',
          }),
        ];
      },
      changed: () => {
        const d = domain();
        return [
          d,
          provb.dnsDomainRecord('www', {
            domainId: d.out('dnsDomainNameId'),
            type: 'a',
            name: 'www',
            value: '192.0.2.11',
          }),
        ];
      },
      expect: 'update',
    },
    'provb:index/objectStoreCredential:ObjectStoreCredential': {
      stack: () => [
        provb.objectStoreCredential('cred', {
          name: 'conf-cred',
          accessKeyId: 'CONFKEY1',
          secretAccessKey: SECRET_KEY_1,
        }),
      ],
      changed: () => [
        provb.objectStoreCredential('cred', {
          name: 'conf-cred',
          accessKeyId: 'CONFKEY2',
          secretAccessKey: SECRET_KEY_2,
        }),
      ],
      expect: 'update',
    },
    'provb:index/objectStore:ObjectStore': {
      stack: () => {
        const c = provb.objectStoreCredential('cred', { name: 'conf-cred' });
        return [c, provb.objectStore('bucket', { name: 'conf-bucket', accessKeyId: c.out('accessKeyId') })];
      },
      changed: () => {
        const c = provb.objectStoreCredential('cred', { name: 'conf-cred' });
        return [
          c,
          provb.objectStore('bucket', { name: 'conf-bucket', maxSizeGb: 1000, accessKeyId: c.out('accessKeyId') }),
        ];
      },
      expect: 'update',
    },
    'provb:index/sshKey:SshKey': {
      stack: () => [provb.sshKey('key', { name: 'conf-key', publicKey: PUBLIC_KEY })],
      changed: () => [provb.sshKey('key', { name: 'conf-key-renamed', publicKey: PUBLIC_KEY })],
      expect: 'update',
    },
  },
  lookups: {
    // List lookups: an empty filter answers the whole (possibly empty) list.
    'provb:index/getDatabaseVersion:getDatabaseVersion': { succeeds: {} },
    'provb:index/getDiskImage:getDiskImage': { succeeds: {} },
    'provb:index/getInstances:getInstances': { succeeds: {} },
    'provb:index/getKubernetesVersion:getKubernetesVersion': { succeeds: {} },
    'provb:index/getRegion:getRegion': { succeeds: {} },
    'provb:index/getSize:getSize': { succeeds: {} },
    // Single lookups. Every region always has its default network ('Default') and firewall.
    'provb:index/getDatabase:getDatabase': {
      notFound: { name: 'no-such-db' },
      ambiguous: {
        arrange: async (e) => {
          await applied(e, [db('twin-db')]);
          twin(current.store.databases, (d) => d.name === 'twin-db');
        },
        args: { name: 'twin-db' },
      },
    },
    'provb:index/getInstance:getInstance': {
      notFound: { hostname: 'no-such-host' },
      ambiguous: {
        arrange: async (e) => {
          await applied(e, [
            provb.instance('twin', { hostname: 'twin-host', diskImage: 'ubuntu-jammy', firewallId: '' }),
          ]);
          twin(current.store.instances, (i) => i.hostname === 'twin-host');
        },
        args: { hostname: 'twin-host' },
      },
    },
    'provb:index/getKubernetesCluster:getKubernetesCluster': {
      notFound: { name: 'no-such-cluster' },
      ambiguous: {
        arrange: async (e) => {
          const f = provb.firewall('fw', { name: 'twin-fw' });
          await applied(e, [
            f,
            provb.kubernetesCluster('k8s', {
              name: 'twin-k8s',
              firewallId: f.out('firewallId'),
              pools: { nodeCount: 1, size: 'g4s.kube.small' },
            }),
          ]);
          twin(current.store.clusters, (c) => c.name === 'twin-k8s');
        },
        args: { name: 'twin-k8s' },
      },
    },
    'provb:index/getDnsDomainName:getDnsDomainName': { notFound: { name: 'no-such.example' } },
    'provb:index/getDnsDomainRecord:getDnsDomainRecord': {
      notFound: { domainId: '00000000-0000-4000-8000-000000000000', name: 'www' },
    },
    'provb:index/getFirewall:getFirewall': { notFound: { name: 'no-such-fw' }, succeeds: { name: 'default-lon1' } },
    'provb:index/getVpcFirewall:getVpcFirewall': {
      notFound: { name: 'no-such-fw' },
      succeeds: { name: 'default-lon1' },
    },
    'provb:index/getNetwork:getNetwork': { notFound: { label: 'no-such-net' }, succeeds: { label: 'Default' } },
    'provb:index/getVpcNetwork:getVpcNetwork': { notFound: { label: 'no-such-net' }, succeeds: { label: 'Default' } },
    'provb:index/getVpcSubnet:getVpcSubnet': {
      // The subnet is looked for in the region's default network, which has none.
      notFound: {
        get networkId() {
          return current.store.defaultNetwork(REGION)!.id;
        },
        name: 'no-such-subnet',
      },
    },
    'provb:index/getLoadbalancer:getLoadbalancer': { notFound: { name: 'no-such-lb' } },
    'provb:index/getVpcLoadbalancer:getVpcLoadbalancer': { notFound: { name: 'no-such-lb' } },
    'provb:index/getObjectStore:getObjectStore': { notFound: { name: 'no-such-bucket' } },
    'provb:index/getObjectStoreCredential:getObjectStoreCredential': { notFound: { name: 'no-such-cred' } },
    'provb:index/getReservedIp:getReservedIp': { notFound: { name: 'no-such-ip' } },
    'provb:index/getVpcReservedIp:getVpcReservedIp': { notFound: { name: 'no-such-ip' } },
    'provb:index/getSshKey:getSshKey': { notFound: { name: 'no-such-key' } },
    'provb:index/getVolume:getVolume': { notFound: { name: 'no-such-vol' } },
  },
});
