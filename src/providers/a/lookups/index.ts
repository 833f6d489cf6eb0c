// Provider A's lookups (prova:index/<fn>:<fn>): read existing objects. Every output the seed calls
// always present is always present (empty strings, lists and maps rather than missing keys).
import { z } from 'zod';
import { defineLookup } from '../../../engine/provider/define.js';
import { LookupError } from '../../../engine/errors.js';
import type { OperationContext } from '../../../engine/provider/context.js';
import { scopeIssues } from '../resources/checks.js';
import type { ProvaConfig } from '../wire/connections.js';
import { fromWire } from '../wire/devices.js';
import { formatId } from '../wire/ids.js';
import { findImage } from '../wire/images.js';
import { getObject, projectOf } from '../wire/objects.js';
import { authClient, fromWirePermission, type WireGroup } from '../resources/auth-group.js';
import { getInstance as fetchInstance, readOutputs, splitConfig } from '../wire/instances.js';
import { networkAddresses, type WireNetwork } from '../resources/network.js';
import type { WireProfile } from '../resources/profile.js';
import type { WireProject } from '../resources/project.js';
import type { WirePool } from '../resources/storage-pool.js';
import { isRunning, readState } from '../wire/runtime.js';

type Ctx = OperationContext<ProvaConfig>;
const remote = z
  .string()
  .optional()
  .describe("Name of the remote to read from; when omitted, the provider's default remote is used.");
/** Every lookup: an unknown `remote` is an error before any request. */
const check = (a: { remote?: string }, config: ProvaConfig) => scopeIssues({ remote: a.remote }, config);
const project = z
  .string()
  .optional()
  .describe("Project to look in; when omitted, the remote's `default` project is used.");

function notFound(token: string, criteria: string): LookupError {
  return new LookupError(token, 'not_found', [], criteria);
}

export const getAuthGroup = defineLookup({
  token: 'prova:index/getAuthGroup:getAuthGroup',
  check,
  args: z
    .object({ name: z.string().min(1).describe('Name of the authorization group.'), remote })
    .describe('Reads an authorization group (its description and permissions) by name.'),
  async run(ctx: Ctx, a) {
    const client = await authClient(ctx, ctx.config, a.remote, 'auth group lookups');
    const got = await getObject<WireGroup>(ctx, client, {
      template: '/1.0/auth/groups/{name}',
      params: { name: a.name },
      what: 'auth group',
    });
    if (!got) throw notFound('prova:index/getAuthGroup:getAuthGroup', `name=${a.name}`);
    return {
      id: formatId(client.remote, undefined, [a.name]),
      name: got.obj.name,
      description: got.obj.description ?? '',
      permissions: (got.obj.permissions ?? []).map(fromWirePermission),
      remote: client.remote,
    };
  },
});

type WireIdentity = {
  authentication_method: string;
  type?: string;
  id: string;
  name: string;
  groups: string[] | null;
  tls_certificate?: string;
};

export const getAuthIdentity = defineLookup({
  token: 'prova:index/getAuthIdentity:getAuthIdentity',
  check,
  args: z
    .object({
      authMethod: z
        .enum(['tls', 'bearer', 'oidc'])
        .describe('How the identity authenticates: `tls` (client certificate), `bearer` or `oidc`.'),
      name: z.string().min(1).describe('Name of the identity.'),
      remote,
    })
    .describe(
      'Reads an authentication identity (its groups, identifier and, for TLS identities, its certificate) by method and name.',
    ),
  async run(ctx: Ctx, a) {
    const client = await authClient(ctx, ctx.config, a.remote, 'auth identity lookups');
    const got = await getObject<WireIdentity>(ctx, client, {
      template: '/1.0/auth/identities/{method}/{name}',
      params: { method: a.authMethod, name: a.name },
      what: 'auth identity',
    });
    if (!got)
      throw notFound('prova:index/getAuthIdentity:getAuthIdentity', `authMethod=${a.authMethod} name=${a.name}`);
    const i = got.obj;
    return {
      id: formatId(client.remote, '', [a.authMethod, i.name]),
      authMethod: i.authentication_method,
      groups: i.groups ?? [],
      identifier: i.id,
      name: i.name,
      remote: client.remote,
      tlsCertificate: a.authMethod === 'tls' ? (i.tls_certificate ?? '') : '',
    };
  },
});

type WireImage = {
  fingerprint: string;
  architecture: string;
  type?: string;
  created_at: string;
  aliases: { name: string }[] | null;
  properties?: Record<string, string>;
};

export const getImage = defineLookup({
  token: 'prova:index/getImage:getImage',
  check,
  args: z
    .object({
      architecture: z
        .string()
        .optional()
        .describe('Architecture the image must have, such as `x86_64` or `aarch64`; when omitted, any.'),
      fingerprint: z
        .string()
        .optional()
        .describe('Image fingerprint (SHA-256 of the image, or a unique prefix of it).'),
      name: z.string().optional().describe('Image alias to look up.'),
      project,
      remote,
      type: z
        .enum(['container', 'virtual-machine'])
        .optional()
        .describe('Image type, `container` or `virtual-machine`; when omitted, any.'),
    })
    .describe(
      'Reads one image (aliases, architecture, fingerprint, type) by name (alias) or fingerprint; every criterion is optional.',
    ),
  async run(ctx: Ctx, a) {
    const client = await ctx.config.client(ctx, a.remote);
    const p = projectOf(a.project);
    let candidates: WireImage[];
    if (a.fingerprint || a.name) {
      const found = await findImage(ctx, client, a.fingerprint ?? a.name!, p);
      candidates = found
        ? [
            (await getObject<WireImage>(ctx, client, {
              template: '/1.0/images/{fingerprint}',
              params: { fingerprint: found.fingerprint },
              what: 'image',
              project: p,
            }))!.obj,
          ]
        : [];
    } else {
      candidates =
        (
          await client.request<WireImage[]>(ctx, {
            method: 'GET',
            pathTemplate: '/1.0/images',
            operation: 'list images',
            project: p,
            query: { recursion: '1' },
          })
        ).metadata ?? [];
    }
    const matches = candidates.filter(
      (i) => (!a.architecture || i.architecture === a.architecture) && (!a.type || (i.type ?? 'container') === a.type),
    );
    const criteria = Object.entries(a)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => `${k}=${String(v)}`)
      .join(' ');
    if (matches.length === 0) throw notFound('prova:index/getImage:getImage', criteria);
    if (matches.length > 1)
      throw new LookupError(
        'prova:index/getImage:getImage',
        'ambiguous',
        matches.map((m) => m.fingerprint.slice(0, 12)),
        criteria,
      );
    const img = matches[0]!;
    const aliases = (img.aliases ?? []).map((x) => x.name);
    return {
      id: formatId(client.remote, a.project, [img.fingerprint]),
      aliases,
      architecture: img.architecture,
      createdAt: Math.floor(Date.parse(img.created_at) / 1000),
      fingerprint: img.fingerprint,
      name: a.name ?? aliases[0] ?? '',
      project: a.project ?? 'default',
      remote: client.remote,
      type: img.type ?? 'container',
    };
  },
});

type WireMember = {
  server_name: string;
  url: string;
  status: string;
  message?: string;
  architecture?: string;
  roles?: string[];
  failure_domain?: string;
  description?: string;
  groups?: string[];
};

export const getInfo = defineLookup({
  token: 'prova:index/getInfo:getInfo',
  check,
  args: z
    .object({ remote })
    .describe("Reads facts about the remote's server: API extensions, cluster members and supported instance types."),
  async run(ctx: Ctx, a) {
    const client = await ctx.config.client(ctx, a.remote);
    const s = await client.server(ctx, true);
    const members: Record<string, unknown> = {};
    if (s.environment?.server_clustered) {
      const list =
        (
          await client.request<WireMember[]>(ctx, {
            method: 'GET',
            pathTemplate: '/1.0/cluster/members',
            operation: 'list cluster members',
            query: { recursion: '1' },
          })
        ).metadata ?? [];
      for (const m of list)
        members[m.server_name] = {
          url: m.url,
          status: m.status,
          message: m.message ?? '',
          architecture: m.architecture ?? '',
          roles: m.roles ?? [],
          failureDomain: m.failure_domain ?? '',
          description: m.description ?? '',
          groups: m.groups ?? [],
        };
    }
    const driver = s.environment?.driver ?? '';
    const instanceTypes = s.environment?.instance_types ?? [
      ...(driver.includes('lxc') ? ['container'] : []),
      ...(driver.includes('qemu') ? ['virtual-machine'] : []),
    ];
    return {
      id: client.remote,
      apiExtensions: s.api_extensions,
      clusterMembers: members,
      instanceTypes,
      remote: client.remote,
    };
  },
});

export const getInstance = defineLookup({
  token: 'prova:index/getInstance:getInstance',
  check,
  args: z
    .object({ name: z.string().min(1).describe('Name of the instance.'), project, remote })
    .describe('Reads an instance (config, devices, addresses, status) by name.'),
  async run(ctx: Ctx, a) {
    const client = await ctx.config.client(ctx, a.remote);
    const got = await fetchInstance(ctx, client, a.name, projectOf(a.project));
    if (!got) throw notFound('prova:index/getInstance:getInstance', `name=${a.name}`);
    const w = got.instance;
    const state = await readState(ctx, client, w.name, projectOf(a.project));
    const out = await readOutputs(ctx, client, w, projectOf(a.project));
    const split = splitConfig(w.config);
    const devices = Object.fromEntries(fromWire(w.devices).map((d) => [d.name, d]));
    return {
      id: formatId(client.remote, a.project, [w.name]),
      name: w.name,
      description: w.description,
      type: w.type,
      ephemeral: w.ephemeral,
      running: isRunning(state),
      status: out.status,
      location: out.location,
      ipv4Address: out.ipv4Address,
      ipv6Address: out.ipv6Address,
      macAddress: out.macAddress,
      interfaces: out.interfaces,
      config: split.config,
      limits: split.limits,
      profiles: w.profiles ?? [],
      devices,
      project: a.project ?? 'default',
      remote: client.remote,
    };
  },
});

export const getNetwork = defineLookup({
  token: 'prova:index/getNetwork:getNetwork',
  check,
  args: z
    .object({ name: z.string().min(1).describe('Name of the network.'), project, remote })
    .describe('Reads a network (type, config, addresses, managed) by name.'),
  async run(ctx: Ctx, a) {
    const client = await ctx.config.client(ctx, a.remote);
    const got = await getObject<WireNetwork>(ctx, client, {
      template: '/1.0/networks/{name}',
      params: { name: a.name },
      what: 'network',
      project: projectOf(a.project),
    });
    if (!got) throw notFound('prova:index/getNetwork:getNetwork', `name=${a.name}`);
    const n = got.obj;
    return {
      id: formatId(client.remote, a.project, [n.name]),
      name: n.name,
      description: n.description ?? '',
      type: n.type,
      managed: n.managed,
      config: n.config ?? {},
      ...(await networkAddresses(ctx, client, n, projectOf(a.project))),
      project: a.project ?? 'default',
      remote: client.remote,
    };
  },
});

export const getProfile = defineLookup({
  token: 'prova:index/getProfile:getProfile',
  check,
  args: z
    .object({
      name: z.string().min(1).describe('Name of the profile.'),
      devices: z
        .array(z.unknown())
        .optional()
        .describe(
          "Device entries accepted for compatibility with the upstream lookup; the profile's own devices are read from the server.",
        ),
      project,
      remote,
    })
    .describe('Reads a profile (config and devices) by name.'),
  async run(ctx: Ctx, a) {
    const client = await ctx.config.client(ctx, a.remote);
    const got = await getObject<WireProfile>(ctx, client, {
      template: '/1.0/profiles/{name}',
      params: { name: a.name },
      what: 'profile',
      project: projectOf(a.project),
    });
    if (!got) throw notFound('prova:index/getProfile:getProfile', `name=${a.name}`);
    const p = got.obj;
    return {
      id: formatId(client.remote, a.project, [p.name]),
      name: p.name,
      description: p.description ?? '',
      config: p.config ?? {},
      devices: fromWire(p.devices),
      project: a.project ?? 'default',
      remote: client.remote,
    };
  },
});

export const getProject = defineLookup({
  token: 'prova:index/getProject:getProject',
  check,
  args: z
    .object({ name: z.string().min(1).describe('Name of the project.'), remote })
    .describe('Reads a project (description and config) by name.'),
  async run(ctx: Ctx, a) {
    const client = await ctx.config.client(ctx, a.remote);
    const got = await getObject<WireProject>(ctx, client, {
      template: '/1.0/projects/{name}',
      params: { name: a.name },
      what: 'project',
    });
    if (!got) throw notFound('prova:index/getProject:getProject', `name=${a.name}`);
    return {
      id: formatId(client.remote, undefined, [got.obj.name]),
      name: got.obj.name,
      description: got.obj.description ?? '',
      config: got.obj.config ?? {},
      remote: client.remote,
    };
  },
});

export const getStoragePool = defineLookup({
  token: 'prova:index/getStoragePool:getStoragePool',
  check,
  args: z
    .object({ name: z.string().min(1).describe('Name of the storage pool.'), project, remote })
    .describe('Reads a storage pool (driver, config, status, cluster locations) by name.'),
  async run(ctx: Ctx, a) {
    const client = await ctx.config.client(ctx, a.remote);
    const got = await getObject<WirePool>(ctx, client, {
      template: '/1.0/storage-pools/{name}',
      params: { name: a.name },
      what: 'storage pool',
    });
    if (!got) throw notFound('prova:index/getStoragePool:getStoragePool', `name=${a.name}`);
    const p = got.obj;
    return {
      id: formatId(client.remote, a.project, [p.name]),
      name: p.name,
      description: p.description ?? '',
      driver: p.driver,
      config: p.config ?? {},
      locations: (p.locations ?? []).filter((l) => l !== 'none'),
      status: p.status ?? '',
      project: a.project ?? 'default',
      remote: client.remote,
    };
  },
});

export const lookups = [
  getAuthGroup,
  getAuthIdentity,
  getImage,
  getInfo,
  getInstance,
  getNetwork,
  getProfile,
  getProject,
  getStoragePool,
] as const;
