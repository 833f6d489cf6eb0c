// The fake LXD's server info, images and aliases, network state and forwards, custom volumes, identities and certificates.
import { randomUUID } from 'node:crypto';
import type { Route, SimRequest, SimResponse } from '../../../kit/sim/router.js';
import { scoped, sha256, type SimStore, type Operation } from './store.js';
import { expanded } from './routes-instances.js';
import { peerFingerprint } from './trust.js';
import { asyncOp, created, error, etagMismatch, map, projectOf, recursion, str, sync, type Body } from './wire.js';

/** GET /1.0 for a trusted caller, as LXD 5.21 answers it (over TLS, the caller is named by its certificate). */
export function serverInfo(s: SimStore, req: SimRequest) {
  const tls = peerFingerprint(req);
  const https = s.serverCertificate ? [`127.0.0.1:${req.headers.host?.split(':').pop() ?? '8443'}`] : [];
  return {
    api_extensions: s.options.extensions,
    api_status: 'stable',
    api_version: '1.0',
    auth: 'trusted',
    auth_methods: ['tls'],
    public: false,
    config: https.length ? { 'core.https_address': https[0] } : {},
    auth_user_name: tls ?? 'root',
    auth_user_method: tls ? 'tls' : 'unix',
    environment: {
      addresses: https,
      architectures: ['x86_64', 'i686'],
      certificate: s.serverCertificate?.pem ?? '',
      certificate_fingerprint: s.serverCertificate?.fingerprint ?? '',
      driver: 'lxc',
      driver_version: '5.0.2',
      firewall: 'nftables',
      kernel: 'Linux',
      kernel_architecture: 'x86_64',
      kernel_version: '6.1.0',
      os_name: 'Debian GNU/Linux',
      os_version: '12',
      project: projectOf(req),
      server: 'lxd',
      server_clustered: s.clustered,
      server_event_mode: 'full-mesh',
      server_name: s.options.members[0] ?? 'sim',
      server_pid: 1,
      server_version: s.options.version,
      server_lts: /^5\.21\.|^5\.0\.|^4\.0\./.test(s.options.version),
      storage: 'dir',
      storage_version: '1',
      storage_supported_drivers: [{ Name: 'dir', Version: '1', Remote: false }],
    },
  };
}

const forwardKey = (req: SimRequest, addr: string) => `${projectOf(req)}/${req.params.network}/${addr}`;
const volumeKey = (req: SimRequest, name: string) => `${req.params.pool}/${projectOf(req)}/${name}`;

function image(s: SimStore, fpPrefix: string) {
  const fp = [...s.images.keys()].find((k) => k.startsWith(fpPrefix));
  return fp ? s.images.get(fp) : undefined;
}

function createVolume(req: SimRequest, s: SimStore): SimResponse {
  if (!s.pools.has(req.params.pool!)) return error(404, 'Storage pool not found');
  const b = (req.body ?? {}) as Body;
  const name = str(b.name);
  if (s.volumes.has(volumeKey(req, name))) return error(409, 'Volume by that name already exists');
  const config = map(b.config);
  s.volumes.set(volumeKey(req, name), {
    name,
    type: 'custom',
    content_type: str(b.content_type, 'filesystem'),
    description: str(b.description),
    config,
    location: 'none',
    used_by: [],
    project: projectOf(req),
  });
  s.events.lifecycle(
    'storage-volume-created',
    `/1.0/storage-pools/${req.params.pool}/volumes/custom/${name}`,
    projectOf(req),
    { type: 'custom' },
  );
  return created(`/1.0/storage-pools/${req.params.pool}/volumes/custom/${name}`);
}

export const miscRoutes: Route<SimStore>[] = [
  {
    method: 'GET',
    path: '/1.0',
    handler: (req, s) => {
      const info = serverInfo(s, req);
      return sync(info, { etag: { config: info.config } });
    },
  },
  {
    method: 'GET',
    path: '/1.0/images',
    handler: (req, s) =>
      sync(recursion(req) ? [...s.images.values()] : [...s.images.keys()].map((k) => `/1.0/images/${k}`)),
  },
  {
    method: 'GET',
    path: '/1.0/images/aliases',
    handler: (req, s) => {
      const project = projectOf(req);
      const list = [...s.aliases.entries()]
        .filter(([k]) => k.startsWith(`${project}/`) || (project !== 'default' && k.startsWith('default/')))
        .map(([, a]) => a);
      return sync(recursion(req) ? list : list.map((a) => `/1.0/images/aliases/${encodeURIComponent(a.name)}`));
    },
  },
  {
    method: 'GET',
    path: '/1.0/images/aliases/:name',
    handler: (req, s) => {
      const a =
        s.aliases.get(scoped(projectOf(req), req.params.name!)) ?? s.aliases.get(scoped('default', req.params.name!));
      return a ? sync(a, { etag: a }) : error(404, 'Image alias not found');
    },
  },
  {
    method: 'GET',
    path: '/1.0/images/:fp',
    handler: (req, s) => {
      const img = image(s, req.params.fp!);
      return img ? sync(img, { etag: img }) : error(404, 'Image not found');
    },
  },
  {
    method: 'POST',
    path: '/1.0/images/:fp/secret',
    handler: (req, s) => {
      if (!image(s, req.params.fp!)) return error(404, 'Image not found');
      const now = new Date().toISOString();
      const op: Operation = {
        id: randomUUID(),
        class: 'token',
        description: 'Downloading image',
        created_at: now,
        updated_at: now,
        status: 'Running',
        status_code: 103,
        resources: {},
        metadata: { secret: randomUUID() },
        may_cancel: true,
        err: '',
        location: 'none',
        done: new Promise(() => {}),
        project: projectOf(req),
      };
      s.operations.set(op.id, op);
      return asyncOp(op);
    },
  },
  {
    method: 'GET',
    path: '/1.0/networks/:name/state',
    handler: (req, s) => {
      const n = s.networks.get(scoped(projectOf(req), req.params.name!));
      if (!n) return error(404, 'Network not found');
      const cfg = (n.config ?? {}) as Record<string, string>;
      const addresses = ['ipv4.address', 'ipv6.address']
        .filter((k) => cfg[k] && cfg[k] !== 'none')
        .map((k) => {
          const [address, netmask] = cfg[k]!.split('/');
          return { family: k.startsWith('ipv4') ? 'inet' : 'inet6', address, netmask, scope: 'global' };
        });
      const hwaddr = `00:16:3e:${sha256(n.name).slice(0, 2)}:${sha256(n.name).slice(2, 4)}:${sha256(n.name).slice(4, 6)}`;
      const bridge =
        n.type === 'bridge'
          ? {
              id: `8000.${hwaddr.replace(/:/g, '')}`,
              stp: false,
              forward_delay: 1500,
              vlan_default: 0,
              vlan_filtering: false,
              upper_devices: [...s.instances.values()]
                .filter((i) => i.running)
                .flatMap((i) =>
                  Object.entries(i.config)
                    .filter(([k]) => /^volatile\.[^.]+\.host_name$/.test(k))
                    .map(([, v]) => v),
                ),
            }
          : null;
      return sync({
        addresses,
        counters: { bytes_received: 0, bytes_sent: 0, packets_received: 0, packets_sent: 0 },
        hwaddr,
        mtu: 1500,
        state: 'up',
        type: 'broadcast',
        bond: null,
        bridge,
        vlan: null,
        ovn: null,
      });
    },
  },
  {
    method: 'GET',
    path: '/1.0/networks/:name/leases',
    handler: (req, s) => {
      const n = s.networks.get(scoped(projectOf(req), req.params.name!));
      if (!n) return error(404, 'Network not found');
      const cfg = (n.config ?? {}) as Record<string, string>;
      const gateways = ['ipv4.address', 'ipv6.address']
        .filter((k) => cfg[k] && cfg[k] !== 'none')
        .map((k) => ({
          hostname: `${n.name}.gw`,
          address: cfg[k]!.split('/')[0],
          hwaddr: '',
          type: 'gateway',
          location: '',
        }));
      const leases = [...s.instances.values()]
        .filter((i) => i.running && i.project === projectOf(req))
        .flatMap((i) =>
          Object.entries(expanded(s, i).devices)
            .filter(
              ([, d]) =>
                d.type === 'nic' && d.network === n.name && s.clock() - i.startedAt >= s.options.networkDelayMs,
            )
            .map(([dev]) => ({
              hostname: i.name,
              address: `198.18.0.${i.hostIndex}`,
              hwaddr: i.config[`volatile.${dev}.hwaddr`] ?? '',
              type: 'dynamic',
              location: '',
            })),
        );
      return sync([...gateways, ...leases]);
    },
  },
  {
    method: 'GET',
    path: '/1.0/storage-pools/:pool/resources',
    handler: (req, s) =>
      s.pools.has(req.params.pool!)
        ? sync({ space: { used: 1 << 30, total: 100 * (1 << 30) }, inodes: { used: 10_000, total: 1 << 24 } })
        : error(404, 'Storage pool not found'),
  },
  {
    method: 'GET',
    path: '/1.0/networks/:network/forwards',
    handler: (req, s) => {
      const prefix = `${projectOf(req)}/${req.params.network}/`;
      const list = [...s.forwards.entries()].filter(([k]) => k.startsWith(prefix)).map(([, f]) => f);
      return sync(recursion(req) ? list : list.map((f) => `/1.0/networks/${req.params.network}/forwards/${f.name}`));
    },
  },
  {
    method: 'POST',
    path: '/1.0/networks/:network/forwards',
    handler: (req, s) => {
      if (!s.networks.has(scoped(projectOf(req), req.params.network!))) return error(404, 'Network not found');
      const b = (req.body ?? {}) as Body;
      const addr = str(b.listen_address);
      if (s.forwards.has(forwardKey(req, addr))) return error(409, 'A forward for that listen address already exists');
      const ports = (Array.isArray(b.ports) ? b.ports : []) as Record<string, string>[];
      const bad = ports.findIndex((p) => !p.target_address);
      if (bad >= 0) return error(500, `Invalid target address in port specification ${bad}`);
      s.forwards.set(forwardKey(req, addr), {
        name: addr,
        listen_address: addr,
        description: str(b.description),
        config: map(b.config),
        ports: ports.map((p) => ({ description: '', target_port: '', ...p })),
        location: 'none',
      });
      return created(`/1.0/networks/${req.params.network}/forwards/${addr}`);
    },
  },
  {
    method: 'GET',
    path: '/1.0/networks/:network/forwards/:addr',
    handler: (req, s) => {
      const f = s.forwards.get(forwardKey(req, req.params.addr!));
      if (!f) return error(404, 'Network forward not found');
      const { name: _n, ...view } = f;
      return sync(view, { etag: view });
    },
  },
  {
    method: 'PUT',
    path: '/1.0/networks/:network/forwards/:addr',
    handler: (req, s) => {
      const f = s.forwards.get(forwardKey(req, req.params.addr!));
      if (!f) return error(404, 'Network forward not found');
      const { name: _n, ...view } = f;
      const mismatch = etagMismatch(req, view);
      if (mismatch) return mismatch;
      const b = (req.body ?? {}) as Body;
      Object.assign(f, {
        description: str(b.description),
        config: map(b.config),
        ports: ((Array.isArray(b.ports) ? b.ports : []) as Record<string, string>[]).map((p) => ({
          description: '',
          target_port: '',
          ...p,
        })),
      });
      return sync({});
    },
  },
  {
    method: 'DELETE',
    path: '/1.0/networks/:network/forwards/:addr',
    handler: (req, s) =>
      s.forwards.delete(forwardKey(req, req.params.addr!)) ? sync({}) : error(404, 'Network forward not found'),
  },
  {
    method: 'GET',
    path: '/1.0/storage-pools/:pool/volumes',
    handler: (req, s) => {
      const prefix = `${req.params.pool}/${projectOf(req)}/`;
      const list = [...s.volumes.entries()].filter(([k]) => k.startsWith(prefix)).map(([, v]) => v);
      return sync(
        recursion(req) ? list : list.map((v) => `/1.0/storage-pools/${req.params.pool}/volumes/custom/${v.name}`),
      );
    },
  },
  { method: 'POST', path: '/1.0/storage-pools/:pool/volumes', handler: createVolume },
  { method: 'POST', path: '/1.0/storage-pools/:pool/volumes/custom', handler: createVolume },
  {
    method: 'GET',
    path: '/1.0/storage-pools/:pool/volumes/custom',
    handler: (req, s) => {
      const prefix = `${req.params.pool}/${projectOf(req)}/`;
      const list = [...s.volumes.entries()].filter(([k]) => k.startsWith(prefix)).map(([, v]) => v);
      return sync(
        recursion(req) ? list : list.map((v) => `/1.0/storage-pools/${req.params.pool}/volumes/custom/${v.name}`),
      );
    },
  },
  {
    method: 'GET',
    path: '/1.0/storage-pools/:pool/volumes/custom/:name',
    handler: (req, s) => {
      const v = s.volumes.get(volumeKey(req, req.params.name!));
      return v
        ? sync(v, { etag: { description: v.description, config: v.config } })
        : error(404, 'Storage volume not found');
    },
  },
  {
    method: 'PUT',
    path: '/1.0/storage-pools/:pool/volumes/custom/:name',
    handler: (req, s) => {
      const v = s.volumes.get(volumeKey(req, req.params.name!));
      if (!v) return error(404, 'Storage volume not found');
      const mismatch = etagMismatch(req, { description: v.description, config: v.config });
      if (mismatch) return mismatch;
      const b = (req.body ?? {}) as Body;
      Object.assign(v, { description: str(b.description), config: map(b.config) });
      return sync({});
    },
  },
  {
    method: 'DELETE',
    path: '/1.0/storage-pools/:pool/volumes/custom/:name',
    handler: (req, s) =>
      s.volumes.delete(volumeKey(req, req.params.name!)) ? sync({}) : error(404, 'Storage volume not found'),
  },
  {
    method: 'GET',
    path: '/1.0/auth/identities/:method/:name',
    handler: (req, s) => {
      if (!s.hasExtension('access_management')) return error(404, 'not found');
      const i = [...s.identities.values()].find(
        (x) =>
          x.authentication_method === req.params.method && (x.name === req.params.name || x.id === req.params.name),
      );
      return i ? sync(i, { etag: { groups: i.groups } }) : error(404, 'Identity not found');
    },
  },
  {
    method: 'GET',
    path: '/1.0/cluster/members',
    handler: (req, s) => {
      if (!s.clustered) return error(500, 'Server is not clustered');
      const members = s.options.members.map((m, n) => ({
        server_name: m,
        url: `https://10.0.0.${n + 1}:8443`,
        database: n === 0,
        status: 'Online',
        message: 'Fully operational',
        architecture: 'x86_64',
        roles: n === 0 ? ['database-leader'] : [],
        failure_domain: 'default',
        description: '',
        config: {},
        groups: ['default'],
      }));
      return sync(recursion(req) ? members : members.map((m) => `/1.0/cluster/members/${m.server_name}`));
    },
  },
  {
    method: 'GET',
    path: '/1.0/certificates',
    handler: (req, s) =>
      sync(
        recursion(req) ? [...s.certificates.values()] : [...s.certificates.keys()].map((k) => `/1.0/certificates/${k}`),
      ),
  },
  {
    method: 'GET',
    path: '/1.0/certificates/:fp',
    handler: (req, s) => {
      const c = [...s.certificates.values()].find((x) => String(x.fingerprint).startsWith(req.params.fp!));
      return c
        ? sync(c, {
            etag: {
              name: c.name,
              type: c.type,
              restricted: c.restricted,
              projects: c.projects,
              certificate: c.certificate,
            },
          })
        : error(404, 'Certificate not found');
    },
  },
];
