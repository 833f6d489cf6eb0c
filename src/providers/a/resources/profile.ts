// prova:index/profile:Profile: config and devices applied to instances. The profile `default` is
// adopted (PUT) instead of created, and on delete reset to empty (left alone in project default).
import { z } from 'zod';
import { defineResource } from '../../../engine/provider/define.js';
import type { ProvaConfig, ProvaContext } from '../config.js';
import { deviceSchema, fromWire, sortDevices, toWire, type WireDevices } from '../support/devices.js';
import { formatId, parseId, scopeInputs } from '../support/ids.js';
import { checkScope } from './checks.js';
import { configIssues } from './config-checks.js';
import { findTagged } from '../support/find.js';
import { computedKeys, desiredConfig, observedConfigFor, taggedConfig } from '../support/keys.js';
import { createObject, deleteObject, getObject, projectOf, replaceObject, type Where } from '../support/objects.js';
import { readByGroup } from '../../../kit/read-many.js';
import type { Prior, ReadResult } from '../../../engine/provider/define.js';

const inputs = z
  .object({
    name: z.string().min(1).describe('Name of the profile. Changing it replaces the profile.'),
    description: z.string().default('').describe('Free-text description of the profile; default empty.'),
    config: z
      .record(z.string(), z.string())
      .default({})
      .describe(
        'Profile config settings as LXD key/value strings (instance config keys, e.g. `limits.cpu`); default empty.',
      ),
    devices: z
      .array(deviceSchema)
      .default([])
      .transform(sortDevices)
      .describe('Devices every instance using the profile gets; default none.'),
    project: z
      .string()
      .optional()
      .describe(
        "Project the profile lives in; when omitted, the remote's `default` project is used. Changing it replaces the profile.",
      ),
    remote: z
      .string()
      .optional()
      .describe(
        "Name of the remote that holds the profile; when omitted, the provider's default remote is used. Changing it replaces the profile.",
      ),
  })
  .describe('A profile: config and devices shared by the instances that list it.');

export type WireProfile = {
  name: string;
  description: string;
  config: Record<string, string>;
  devices: WireDevices;
  used_by?: string[];
};
const isComputed = computedKeys(['volatile.']);
const where = (name: string, project?: string): Where => ({
  template: '/1.0/profiles/{name}',
  params: { name },
  what: `profile ${name}`,
  project: projectOf(project),
});
const idOf = (id: string, config: ProvaConfig) => parseId(id, 1, config.settings.defaultRemote, 'profile');

/** What read answers for profile `p`. */
function profileResult(ctx: ProvaContext, ref: ReturnType<typeof idOf>, prior: Prior, p: WireProfile): ReadResult {
  return {
    id: formatId(ref.remote, ref.project, [p.name]),
    inputs: {
      name: p.name,
      description: p.description,
      config: observedConfigFor(p.config, (prior.inputs.config as Record<string, string>) ?? {}, isComputed),
      devices: fromWire(p.devices),
      ...scopeInputs(prior.inputs, ref, ctx.config.settings.defaultRemote),
    },
    outputs: {},
  };
}

export const profile = defineResource({
  token: 'prova:index/profile:Profile',
  inputs,
  outputs: z.object({}),
  replaceOn: ['name', 'project', 'remote'],
  check: (i, config: ProvaConfig) => [...checkScope(i, config), ...configIssues(i.config, { kind: 'instance' })],
  keyedLists: { devices: 'name' },
  async create(ctx: ProvaContext, i) {
    const client = await ctx.config.client(ctx, i.remote);
    const body = {
      description: i.description,
      config: taggedConfig(i.config, ctx.operationId),
      devices: toWire(i.devices),
    };
    if (i.name === 'default') await replaceObject<WireProfile>(ctx, client, where(i.name, i.project), () => body);
    else
      await createObject(
        ctx,
        client,
        { template: '/1.0/profiles', what: 'profile', project: projectOf(i.project) },
        { name: i.name, ...body },
      );
    return { id: formatId(client.remote, i.project, [i.name]), outputs: {} };
  },
  async read(ctx: ProvaContext, id, prior) {
    const ref = idOf(id, ctx.config);
    const got = await getObject<WireProfile>(
      ctx,
      await ctx.config.client(ctx, ref.remote),
      where(ref.fields[0]!, ref.project),
    );
    return got ? profileResult(ctx, ref, prior, got.obj) : null;
  },
  // One `GET /1.0/profiles?recursion=1` per remote and project.
  readMany: readByGroup<ProvaContext, WireProfile>({
    groupOf: (ctx, it) => {
      const ref = idOf(it.id, ctx.config);
      return JSON.stringify([ref.remote, ref.project]);
    },
    list: async (ctx, group) => {
      const [remote, project] = JSON.parse(group) as [string, string];
      const client = await ctx.config.client(ctx, remote);
      return (
        await client.request<WireProfile[]>(ctx, {
          method: 'GET',
          pathTemplate: '/1.0/profiles',
          operation: 'list profiles',
          project: projectOf(project),
          query: { recursion: '1' },
        })
      ).metadata;
    },
    idOf: (p) => p.name,
    pick: (listed, _all, id) => listed.get(parseId(id, 1, '', 'profile').fields[0]!),
    toResult: (p, prior, id, ctx) => profileResult(ctx, idOf(id, ctx.config), prior, p),
  }),
  async update(ctx: ProvaContext, id, _olds, news) {
    const ref = idOf(id, ctx.config);
    await replaceObject<WireProfile>(
      ctx,
      await ctx.config.client(ctx, ref.remote),
      where(ref.fields[0]!, ref.project),
      (cur) => ({
        description: news.description,
        config: desiredConfig(cur.config, news.config, isComputed),
        devices: toWire(news.devices),
      }),
    );
    return { outputs: {} };
  },
  async delete(ctx: ProvaContext, id) {
    const ref = idOf(id, ctx.config);
    const client = await ctx.config.client(ctx, ref.remote);
    if (ref.fields[0] === 'default') {
      if (ref.project === 'default') {
        ctx.report({
          kind: 'warning',
          message: 'the default profile of project default is left as it is (it cannot be deleted or emptied safely)',
        });
        return;
      }
      await replaceObject<WireProfile>(ctx, client, where('default', ref.project), () => ({
        description: '',
        config: {},
        devices: {},
      }));
      return;
    }
    await deleteObject(ctx, client, where(ref.fields[0]!, ref.project));
  },
  /** Exact: the profile of this name carrying the create's operation id (config user.converge.operation). */
  async find(ctx: ProvaContext, i, hint) {
    const client = await ctx.config.client(ctx, i.remote);
    return (await findTagged<WireProfile>(ctx, client, where(i.name, i.project), hint))
      ? { id: formatId(client.remote, i.project, [i.name]), outputs: {} }
      : null;
  },
  importId: (importId, config: ProvaConfig) => {
    const ref = idOf(importId, config);
    return formatId(ref.remote, ref.project, ref.fields);
  },
});
