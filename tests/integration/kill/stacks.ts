// The stacks of the kill test: for each scenario, what is applied before the child starts and what
// the child applies (and is killed during). Every Civo type is in every stack: SSH keys, networks,
// firewalls, reserved IPs, volumes, instances, volume attachments, reserved-IP assignments, DNS
// domains and records, a load balancer, a database, an object store with its credential, and a
// Kubernetes cluster with an extra node pool. A scenario gives each resource one action:
//   create       nothing before, everything created
//   update       every type that updates in place is changed in place (attachments, assignments and
//                credentials have nothing to update and stay)
//   replace      every resource replaced delete-first; networks by a new CIDR, so everything in them
//                follows (same names: the new object has the old one's key)
//   replace-cbd  every resource replaced create-first; names change where the API wants them unique,
//                and the records of one domain are replaced with the same key (name, type, value) as
//                the old ones, which exist while the new ones are made
//   delete       everything but a network, a key and a domain deleted
//   mixed        a little of each: creates, in-place updates, both kinds of replacement, deletes, no-ops
// (The test adds someone else's reserved IPs named as the stack's: reserved IP names need not be unique.)
import type { ResourceDecl, ResourceOptions } from '../../../src/index.js';
import { provb } from '../../../src/providers/b/index.js';

export const scenarios = ['create', 'update', 'replace', 'replace-cbd', 'delete', 'mixed'] as const;
export type Scenario = (typeof scenarios)[number];

/** Every Civo type of the stacks, by token. */
export const civoTypes = [
  'provb:index/sshKey:SshKey',
  'provb:index/network:Network',
  'provb:index/firewall:Firewall',
  'provb:index/reservedIp:ReservedIp',
  'provb:index/volume:Volume',
  'provb:index/instance:Instance',
  'provb:index/volumeAttachment:VolumeAttachment',
  'provb:index/instanceReservedIpAssignment:InstanceReservedIpAssignment',
  'provb:index/dnsDomainName:DnsDomainName',
  'provb:index/dnsDomainRecord:DnsDomainRecord',
  'provb:index/loadBalancer:LoadBalancer',
  'provb:index/database:Database',
  'provb:index/objectStoreCredential:ObjectStoreCredential',
  'provb:index/objectStore:ObjectStore',
  'provb:index/kubernetesCluster:KubernetesCluster',
  'provb:index/kubernetesNodePool:KubernetesNodePool',
] as const;
export type CivoType = (typeof civoTypes)[number];

/** Short names for the summary lines. */
export const shortName = (t: string) => /:(\w+)$/.exec(t)?.[1] ?? t;

/**
 * What a resource of a family is in one stack: absent, as first made ('base'), changed in place
 * ('upd'), or replaced ('rep': a key field or a replaceOn field changed).
 */
type Mode = 'absent' | 'base' | 'upd' | 'rep';
type Slot = { readonly mode: Mode; readonly cbd?: boolean };

/** A stack: the mode of each resource, by family and slot (index). */
type Shape = {
  readonly zone: readonly Slot[];
  readonly net: readonly Slot[];
  readonly key: readonly Slot[];
  readonly ip: readonly Slot[];
  /** Records, in the zone of the same index modulo 2. */
  readonly rec: readonly Slot[];
  readonly cred: readonly Slot[];
  /** Per network slot: its firewall, volume, instance, attachment and assignment (absent when the network is). */
  readonly host: readonly Slot[];
  /** The load balancer, database, cluster and node pool in network 0, and the object store. */
  readonly svc: Slot;
  readonly pool: Slot;
  readonly bucket: Slot;
};

const opts = (s: Slot, replaceOnChanges?: string[]): ResourceOptions | undefined => {
  const o: { createBeforeDestroy?: boolean; replaceOnChanges?: string[] } = {};
  if (s.cbd) o.createBeforeDestroy = true;
  if (replaceOnChanges) o.replaceOnChanges = replaceOnChanges;
  return Object.keys(o).length ? o : undefined;
};
/** A name that changes when the resource is replaced create-first (the API wants it unique while both exist). */
const named = (base: string, s: Slot) => (s.mode === 'rep' && s.cbd ? `${base}-r` : base);
const live = (s: Slot | undefined): s is Slot => !!s && s.mode !== 'absent';
/** A reserved IP's name (names need not be unique: someone else's of the same name may exist). */
export const ipName = (i: number, mode: Mode) => `kip${i}${mode === 'upd' ? '-u' : ''}${mode === 'rep' ? '-r' : ''}`;

const KEY = (i: number, v: number) =>
  `ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIKillTest${i}v${v}KillTestKillTest kill${i}@example`;

function build(shape: Shape): ResourceDecl[] {
  const out: ResourceDecl[] = [];
  const zones = shape.zone.map((s, d) =>
    live(s)
      ? provb.dnsDomainName(
          `zone${d}`,
          { name: `kill${d}${s.mode === 'upd' ? '-u' : ''}${s.mode === 'rep' ? '-r' : ''}.example.com` },
          opts(s, s.mode === 'rep' ? ['name'] : undefined),
        )
      : undefined,
  );
  for (const z of zones) if (z) out.push(z);
  shape.rec.forEach((s, i) => {
    const zone = zones[i % 2];
    if (!live(s) || !zone) return;
    // Replaced with the same key: the ttl forces it (replaceOnChanges), name, type and value stay.
    out.push(
      provb.dnsDomainRecord(
        `rec${i}`,
        {
          domainId: zone.out('dnsDomainNameId'),
          type: 'a',
          name: `host${i}`,
          value: s.mode === 'upd' ? '198.18.0.20' : '198.18.0.10',
          ttl: s.mode === 'rep' ? 1200 : 600,
        },
        opts(s, ['ttl']),
      ),
    );
  });
  shape.key.forEach((s, i) => {
    // A key's name updates in place; a new public key replaces it.
    if (!live(s)) return;
    out.push(
      provb.sshKey(
        `key${i}`,
        { name: named(`kk${i}${s.mode === 'upd' ? '-u' : ''}`, s), publicKey: KEY(i, s.mode === 'rep' ? 2 : 1) },
        opts(s),
      ),
    );
  });
  const ips = shape.ip.map((s, i) => {
    if (!live(s)) return undefined;
    // Replaced by a new name (replaceOnChanges): the only other field is the region.
    const ip = provb.reservedIp(
      `ip${i}`,
      { name: ipName(i, s.mode) },
      opts(s, s.mode === 'rep' ? ['name'] : undefined),
    );
    out.push(ip);
    return ip;
  });
  const creds = shape.cred.map((s, i) =>
    live(s)
      ? provb.objectStoreCredential(`cred${i}`, { name: `kcred${i}${s.mode === 'rep' ? '-r' : ''}` }, opts(s))
      : undefined,
  );
  for (const c of creds) if (c) out.push(c);
  const nets = shape.net.map((s, i) => {
    if (!live(s)) return undefined;
    // A new CIDR replaces the network and everything in it; the label updates in place.
    const n = provb.network(
      `net${i}`,
      {
        label: named(`kn${i}${s.mode === 'upd' ? '-u' : ''}`, s),
        cidrV4: `10.${60 + i}.${s.mode === 'rep' ? 2 : 1}.0/24`,
      },
      opts(s),
    );
    out.push(n);
    return n;
  });
  const hosts = shape.host.map((s, i) => {
    const n = nets[i];
    if (!live(s) || !n) return undefined;
    const fw = provb.firewall(
      `fw${i}`,
      {
        name: named(`kf${i}${s.mode === 'upd' ? '-u' : ''}`, s),
        networkId: n.out('networkId'),
        createDefaultRules: false,
        ingressRules: [
          { label: 'ssh', portRange: '22', cidrs: ['0.0.0.0/0'], action: 'allow' },
          ...(s.mode === 'upd'
            ? [{ label: 'web', portRange: '443', cidrs: ['0.0.0.0/0'], action: 'allow' as const }]
            : []),
        ],
      },
      opts(s),
    );
    const vol = provb.volume(
      `vol${i}`,
      { name: named(`kv${i}`, s), sizeGb: s.mode === 'upd' ? 20 : 10, networkId: n.out('networkId') },
      opts(s),
    );
    const vm = provb.instance(
      `vm${i}`,
      {
        hostname: named(`kvm${i}`, s),
        diskImage: 'ubuntu-jammy',
        firewallId: fw.out('firewallId'),
        networkId: n.out('networkId'),
        tags: s.mode === 'upd' ? ['kill', 'changed'] : ['kill'],
      },
      opts(s),
    );
    out.push(fw, vol, vm);
    out.push(
      provb.volumeAttachment(`att${i}`, { instanceId: vm.out('instanceId'), volumeId: vol.out('volumeId') }, opts(s)),
    );
    return { fw, vm };
  });
  ips.forEach((ip, i) => {
    const h = hosts[i];
    if (!ip || !h) return;
    out.push(
      provb.instanceReservedIpAssignment(
        `asg${i}`,
        { instanceId: h.vm.out('instanceId'), reservedIpId: ip.out('reservedIpId') },
        opts(shape.host[i]!),
      ),
    );
  });
  const svc = shape.svc;
  const n0 = nets[0];
  const h0 = hosts[0];
  if (live(svc) && n0 && h0) {
    const upd = svc.mode === 'upd';
    out.push(
      provb.loadBalancer(
        'lb0',
        {
          name: named('klb0', svc),
          networkId: n0.out('networkId'),
          firewallId: h0.fw.out('firewallId'),
          algorithm: upd ? 'least_connections' : 'round_robin',
          backends: [{ ip: '10.60.1.10', sourcePort: 80, targetPort: upd ? 8081 : 8080 }],
        },
        opts(svc),
      ),
      provb.database(
        'db0',
        {
          name: named(`kdb0${upd ? '-u' : ''}`, svc),
          engine: 'mysql',
          version: '8.0',
          size: 'g3.db.small',
          nodes: upd ? 2 : 1,
          networkId: n0.out('networkId'),
          firewallId: h0.fw.out('firewallId'),
        },
        opts(svc),
      ),
    );
    const k8s = provb.kubernetesCluster(
      'k8s0',
      {
        name: named('kk8s0', svc),
        firewallId: h0.fw.out('firewallId'),
        networkId: n0.out('networkId'),
        pools: { label: 'main', nodeCount: upd ? 2 : 1, size: 'g4s.kube.small' },
        ...(upd ? { tags: 'kill changed' } : {}),
      },
      opts(svc),
    );
    out.push(k8s);
    const pool = shape.pool;
    if (live(pool))
      out.push(
        provb.kubernetesNodePool(
          'pool0',
          {
            clusterId: k8s.out('clusterId'),
            label: 'extra',
            nodeCount: pool.mode === 'upd' ? 2 : 1,
            size: 'g4s.kube.medium',
          },
          opts(pool),
        ),
      );
  }
  const bucket = shape.bucket;
  const c0 = creds[0];
  if (live(bucket) && c0)
    out.push(
      provb.objectStore(
        'bucket0',
        {
          name: named('kbucket0', bucket),
          maxSizeGb: bucket.mode === 'upd' ? 200 : 100,
          accessKeyId: c0.out('accessKeyId'),
        },
        opts(bucket),
      ),
    );
  return out;
}

const all = (n: number, s: Slot): Slot[] => Array.from({ length: n }, () => s);

/** The whole world, every resource in the same mode. */
function world(s: Slot): Shape {
  return {
    zone: all(2, s),
    net: all(2, s),
    key: all(2, s),
    ip: all(2, s),
    rec: all(4, s),
    cred: all(1, s),
    host: all(2, s),
    svc: s,
    pool: s,
    bucket: s,
  };
}

const BASE: Slot = { mode: 'base' };
const ABSENT: Slot = { mode: 'absent' };

/** [applied before the child, applied by the child]. */
export function stacksOf(s: Scenario): [ResourceDecl[], ResourceDecl[]] {
  switch (s) {
    case 'create':
      return [[], build(world(BASE))];
    case 'update':
      return [build(world(BASE)), build(world({ mode: 'upd' }))];
    case 'replace':
      // Networks (a new CIDR) take their firewalls, volumes, instances, attachments, assignments and
      // services with them; keys (a new public key), reserved IPs, domains (and so their records) and
      // the credential (and so the bucket) are replaced on their own.
      return [build(world(BASE)), build(world({ mode: 'rep' }))];
    case 'replace-cbd': {
      const cbd: Slot = { mode: 'rep', cbd: true };
      const before = world({ mode: 'base', cbd: true });
      // Zone 1 stays, so records 1 and 3 are replaced with the same key beside the old ones; zone 0 is
      // replaced (records 0 and 2 follow it).
      return [build(before), build({ ...world(cbd), zone: [cbd, { mode: 'base', cbd: true }] })];
    }
    case 'delete':
      return [
        build(world(BASE)),
        build({
          ...world(ABSENT),
          zone: [BASE],
          net: [BASE],
          key: [BASE],
        }),
      ];
    case 'mixed': {
      const cbd: Slot = { mode: 'rep', cbd: true };
      const before = build({
        ...world(BASE),
        key: [BASE],
        rec: [BASE, BASE, { mode: 'base', cbd: true }],
        pool: ABSENT,
      });
      const after = build({
        zone: [{ mode: 'upd' }, BASE],
        net: [BASE, { mode: 'upd' }],
        key: [{ mode: 'rep' }, BASE], // key 1 is new
        ip: [{ mode: 'upd' }, ABSENT], // ip 1 and its assignment go
        rec: [BASE, { mode: 'upd' }, { mode: 'rep', cbd: true }, BASE, BASE], // record 4 is new
        cred: [BASE],
        host: [{ mode: 'upd' }, ABSENT], // host 1 (firewall, volume, instance, attachment) goes
        svc: { mode: 'upd' },
        pool: BASE, // new
        bucket: cbd,
      });
      return [before, after];
    }
  }
}
