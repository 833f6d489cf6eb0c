// Lookups of named server objects: networks, profiles, projects and storage pools.
import { z } from 'zod';
import { defineLookup } from '../../../engine/provider/define.js';
import { fromWire } from '../support/devices.js';
import { formatId } from '../support/ids.js';
import { getObject, projectOf } from '../support/objects.js';
import { networkAddresses, type WireNetwork } from '../resources/network.js';
import type { WireProfile } from '../resources/profile.js';
import type { WireProject } from '../resources/project.js';
import type { WirePool } from '../resources/storage-pool.js';
import { remote, project, check, notFound } from './shared.js';
import type { ProvaContext } from '../config.js';

export const getNetwork = defineLookup({
  token: 'prova:index/getNetwork:getNetwork',
  check,
  args: z
    .object({ name: z.string().min(1).describe('Name of the network.'), project, remote })
    .describe('Reads a network (type, config, addresses, managed) by name.'),
  async run(ctx: ProvaContext, a) {
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
  async run(ctx: ProvaContext, a) {
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
  async run(ctx: ProvaContext, a) {
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
  async run(ctx: ProvaContext, a) {
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
