// The fake LXD's named objects, one table row each (named.ts builds their routes): networks, ACLs,
// profiles, projects, storage pools (5.0: no ETag) and auth groups.
import { scoped, type SimStore, type Obj } from './store.js';
import { map, projectOf, str, type Body } from './wire.js';

import { namedRoutes } from './named.js';
import { instanceConfigRefusal, networkConfigRefusal, poolConfigRefusal, projectConfigRefusal } from './config.js';

const configOnly = (body: Body) => ({ description: str(body.description), config: map(body.config) });
const err = (code: number, message: string) => ({ code, message });

/** Instances and profiles in any project that use a network through a nic device. */
function networkUsers(s: SimStore, name: string): string[] {
  const users: string[] = [];
  for (const [k, p] of s.profiles)
    if (Object.values((p.devices ?? {}) as Record<string, Record<string, string>>).some((d) => d.network === name))
      users.push(`/1.0/profiles/${k.split('/')[1]}`);
  for (const i of s.instances.values())
    if (Object.values(i.devices).some((d) => d.network === name)) users.push(`/1.0/instances/${i.name}`);
  return users;
}

function autoBridgeConfig(config: Record<string, string>): Record<string, string> {
  const out = { ...config };
  if (!('ipv4.address' in out)) {
    out['ipv4.address'] = `10.${Math.floor(Math.random() * 200) + 20}.${Math.floor(Math.random() * 250)}.1/24`;
    out['ipv4.nat'] = 'true';
  }
  if (!('ipv6.address' in out)) {
    out['ipv6.address'] = `fd42:${Math.floor(Math.random() * 0xffff).toString(16)}::1/64`;
    out['ipv6.nat'] = 'true';
  }
  return out;
}

/** LXD's validate.IsInterfaceName, which a bridge's name must pass (it is the host interface). */
function interfaceNameRefusal(name: string): string | null {
  if (name.length < 2) return 'Network interface is too short (minimum 2 characters)';
  if (name.length > 15) return 'Network interface is too long (maximum 15 characters)';
  if (!/^[-_a-zA-Z0-9.]+$/.test(name)) return 'Network interface contains invalid characters';
  return null;
}

export const networkRoutes = namedRoutes({
  base: '/1.0/networks',
  what: 'Network',
  entity: 'network',
  map: (s) => s.networks,
  scopedKey: true,
  duplicate: { code: 400, message: 'The network already exists' },
  make: (b) => {
    const type = str(b.type) || 'bridge';
    const badName = type === 'bridge' ? interfaceNameRefusal(str(b.name)) : null;
    if (badName) return err(400, badName);
    const bad = networkConfigRefusal(str(b.name), type, map(b.config));
    if (bad) return err(500, bad);
    return {
      name: str(b.name),
      description: str(b.description),
      type,
      managed: true,
      status: 'Created',
      config: type === 'bridge' ? autoBridgeConfig(map(b.config)) : map(b.config),
      locations: ['none'],
    };
  },
  writable: (b, cur) => {
    const bad = networkConfigRefusal(cur.name, String(cur.type), map(b.config));
    return bad ? err(400, bad) : configOnly(b);
  },
  view: (o, s) => ({ ...o, used_by: networkUsers(s, o.name) }),
  canDelete: (o, s) => (networkUsers(s, o.name).length ? 'The network is currently in use' : null),
});

const actions = new Set(['allow', 'drop', 'reject']);
const states = new Set(['enabled', 'disabled', 'logged']);
function rules(kind: string, list: unknown): Record<string, string>[] | string {
  const out: Record<string, string>[] = [];
  for (const [n, r] of ((Array.isArray(list) ? list : []) as Record<string, string>[]).entries()) {
    if (!actions.has(r.action ?? '')) return `Invalid ${kind} rule ${n}: Action must be one of: allow, drop, reject`;
    if (!states.has(r.state ?? '')) return `Invalid ${kind} rule ${n}: State must be one of: enabled, disabled, logged`;
    out.push(Object.fromEntries(Object.entries(r).filter(([, v]) => v !== '' && v !== undefined)));
  }
  return out;
}
const aclBody = (b: Body) => {
  const ingress = rules('ingress', b.ingress);
  const egress = rules('egress', b.egress);
  if (typeof ingress === 'string') return err(500, ingress);
  if (typeof egress === 'string') return err(500, egress);
  return { ...configOnly(b), ingress, egress };
};

export const aclRoutes = namedRoutes({
  base: '/1.0/network-acls',
  what: 'Network ACL',
  entity: 'network-acl',
  map: (s) => s.acls,
  scopedKey: true,
  duplicate: { code: 400, message: 'The network ACL already exists' },
  make: (b) => {
    const r = aclBody(b);
    return 'code' in r ? r : { name: str(b.name), ...r };
  },
  writable: (b) => aclBody(b),
  view: (o) => ({ ...o, used_by: [] }),
});

export const profileRoutes = namedRoutes({
  base: '/1.0/profiles',
  what: 'Profile',
  entity: 'profile',
  map: (s) => s.profiles,
  scopedKey: true,
  duplicate: { code: 409, message: 'Error inserting profile into database: The profile already exists' },
  make: (b) => {
    const bad = instanceConfigRefusal(map(b.config));
    if (bad) return err(400, bad);
    return {
      name: str(b.name),
      description: str(b.description),
      config: map(b.config),
      devices: (b.devices ?? {}) as Obj,
    };
  },
  writable: (b) => {
    const bad = instanceConfigRefusal(map(b.config));
    if (bad) return err(500, bad);
    return { description: str(b.description), config: map(b.config), devices: (b.devices ?? {}) as Obj };
  },
  view: (o, s, req) => ({
    ...o,
    used_by: [...s.instances.values()]
      .filter((i) => i.project === projectOf(req) && i.profiles.includes(o.name))
      .map((i) => `/1.0/instances/${i.name}`),
  }),
  canDelete: (o, s, req) =>
    o.name === 'default'
      ? 'The "default" profile cannot be deleted'
      : [...s.instances.values()].some((i) => i.project === projectOf(req) && i.profiles.includes(o.name))
        ? 'Profile is currently in use'
        : null,
});

/** What a project holds, as the daemon lists it in used_by (?project= outside default). */
function projectUsers(s: SimStore, project: string): string[] {
  const q = project === 'default' ? '' : `?project=${project}`;
  const inProject = (m: Map<string, Obj>) =>
    [...m.keys()].filter((k) => k.startsWith(`${project}/`)).map((k) => k.slice(project.length + 1));
  return [
    ...[...s.instances.values()].filter((i) => i.project === project).map((i) => `/1.0/instances/${i.name}${q}`),
    ...inProject(s.profiles).map((n) => `/1.0/profiles/${n}${q}`),
    ...(project === 'default' ? [...s.images.keys()].map((fp) => `/1.0/images/${fp}`) : []),
    ...inProject(s.networks).map((n) => `/1.0/networks/${n}${q}`),
  ];
}

/** A new project: the features LXD turns on by default, then the request's config. */
const newProject = (b: Body): Obj => ({
  name: str(b.name),
  description: str(b.description),
  config: {
    'features.images': 'true',
    'features.profiles': 'true',
    'features.storage.volumes': 'true',
    ...map(b.config),
  },
});

export const projectRoutes = namedRoutes({
  base: '/1.0/projects',
  what: 'Project',
  entity: 'project',
  map: (s) => s.projects,
  scopedKey: false,
  duplicate: { code: 409, message: 'Error inserting project into database: The project already exists' },
  make: (b) => {
    const bad = projectConfigRefusal(map(b.config));
    if (bad) return err(400, bad);
    return newProject(b);
  },
  writable: (b, cur) => {
    const bad = projectConfigRefusal(map(b.config));
    if (bad) return err(400, bad);
    return { description: str(b.description), config: { ...map(b.config) }, name: cur.name };
  },
  afterCreate: (o, s) =>
    s.profiles.set(scoped(o.name, 'default'), {
      name: 'default',
      description: `Default LXD profile for project ${o.name}`,
      config: {},
      devices: {},
    }),
  view: (o, s) => ({ ...o, used_by: projectUsers(s, o.name) }),
  canDelete: (o, s) =>
    o.name === 'default'
      ? 'The "default" project cannot be deleted'
      : [...s.instances.values()].some((i) => i.project === o.name) ||
          [...s.profiles.keys()].some((k) => k.startsWith(`${o.name}/`) && !k.endsWith('/default'))
        ? 'Only empty projects can be removed'
        : null,
});

/** Instances, profiles (through a disk device) and custom volumes on a pool, as the daemon lists them. */
function poolUsers(s: SimStore, pool: string): string[] {
  const q = (project: string) => (project === 'default' ? '' : `?project=${project}`);
  const uses = (devices: unknown) =>
    Object.values((devices ?? {}) as Record<string, Record<string, string>>).some(
      (d) => d.type === 'disk' && d.pool === pool,
    );
  return [
    ...[...s.instances.values()]
      .filter((i) => uses(expandedDevices(s, i.project, i.profiles, i.devices)))
      .map((i) => `/1.0/instances/${i.name}${q(i.project)}`),
    ...[...s.profiles.entries()]
      .filter(([, p]) => uses(p.devices))
      .map(([k]) => `/1.0/profiles/${k.split('/')[1]}${q(k.split('/')[0]!)}`),
    ...[...s.volumes.keys()]
      .filter((k) => k.startsWith(`${pool}/`))
      .map((k) => `/1.0/storage-pools/${pool}/volumes/custom/${k.split('/')[2]}${q(k.split('/')[1]!)}`),
  ];
}

function expandedDevices(
  s: SimStore,
  project: string,
  profiles: string[],
  own: Record<string, unknown>,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const p of profiles)
    Object.assign(out, (s.profiles.get(scoped(project, p)) ?? s.profiles.get(scoped('default', p)))?.devices ?? {});
  return { ...out, ...own };
}

/** What a pool's PUT replaces: description and config, keeping the pool's source. */
const poolWritable = (b: Body, cur: Obj) => ({
  description: str(b.description),
  config: {
    ...map(b.config),
    ...(cur.config && 'source' in (cur.config as Obj) && !('source' in map(b.config))
      ? { source: (cur.config as Record<string, string>).source }
      : {}),
  },
});

export const poolRoutes = namedRoutes({
  base: '/1.0/storage-pools',
  what: 'Storage pool',
  entity: 'storage-pool',
  map: (s) => s.pools,
  scopedKey: false,
  etag: false,
  duplicate: { code: 400, message: 'Storage pool already exists' },
  make: (b) =>
    !['dir', 'zfs', 'lvm', 'btrfs', 'ceph', 'cephfs', 'cephobject'].includes(str(b.driver))
      ? err(400, `Storage driver "${str(b.driver)}" is not supported`)
      : poolConfigRefusal(str(b.driver), map(b.config))
        ? err(500, poolConfigRefusal(str(b.driver), map(b.config))!)
        : {
            name: str(b.name),
            description: str(b.description),
            driver: str(b.driver),
            status: 'Created',
            locations: ['none'],
            config: { source: `/var/lib/lxd/storage-pools/${str(b.name)}`, ...map(b.config) },
          },
  writable: (b, cur) =>
    poolConfigRefusal(String(cur.driver), map(b.config))
      ? err(400, poolConfigRefusal(String(cur.driver), map(b.config))!)
      : poolWritable(b, cur),
  view: (o, s) => ({ ...o, used_by: poolUsers(s, o.name) }),
  canDelete: (o, s) =>
    poolUsers(s, o.name).length || o.name === 'default' ? 'The storage pool is currently in use' : null,
});

export const groupRoutes = namedRoutes({
  base: '/1.0/auth/groups',
  what: 'Group',
  entity: 'auth-group',
  map: (s) => s.groups,
  scopedKey: false,
  duplicate: { code: 409, message: 'Group already exists' },
  gate: (s) => s.hasExtension('access_management'),
  make: (b) => ({
    name: str(b.name),
    description: str(b.description),
    permissions: Array.isArray(b.permissions) ? b.permissions : [],
    identities: {},
    identity_provider_groups: [],
  }),
  writable: (b) => ({
    description: str(b.description),
    permissions: Array.isArray(b.permissions) ? b.permissions : [],
  }),
});
