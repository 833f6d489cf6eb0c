// The fake LXD's server info, images and aliases, identities, cluster members and certificates.
import { randomUUID } from 'node:crypto';
import type { Route, SimRequest } from '../../../kit/sim/router.js';
import { scoped, type SimStore, type Operation } from './store.js';
import { peerFingerprint } from './trust.js';
import { asyncOp, error, projectOf, recursion, sync } from './wire.js';

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

function image(s: SimStore, fpPrefix: string) {
  const fp = [...s.images.keys()].find((k) => k.startsWith(fpPrefix));
  return fp ? s.images.get(fp) : undefined;
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
