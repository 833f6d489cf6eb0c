// prova:index/project:Project: a project (global object). Server-filled features.* keys are
// ignored unless set; delete is a plain (non-forced) DELETE, which fails while the project is used.
import { z } from 'zod';
import { defineResource } from '../../../engine/provider/define.js';
import type { ProvaConfig, ProvaContext } from '../config.js';
import { formatId, parseId, scopeInputs } from '../support/ids.js';
import { checkScope } from './checks.js';
import { configIssues } from './config-checks.js';
import { findTagged } from '../support/find.js';
import { computedKeys, desiredConfig, observedConfigFor, taggedConfig } from '../support/keys.js';
import { createObject, deleteObject, getObject, replaceObject, type Where } from '../support/objects.js';

const inputs = z
  .object({
    name: z.string().min(1).describe('Name of the project. Changing it replaces the project.'),
    description: z.string().default('').describe('Free-text description of the project; default empty.'),
    config: z
      .record(z.string(), z.string())
      .default({})
      .describe(
        'Project config settings as LXD key/value strings (e.g. `features.images`, `limits.instances`); default empty.',
      ),
    remote: z
      .string()
      .optional()
      .describe(
        "Name of the remote that holds the project; when omitted, the provider's default remote is used. Changing it replaces the project.",
      ),
  })
  .describe('A project: a namespace of instances, profiles, networks and volumes, with its own features and limits.');

export type WireProject = { name: string; description: string; config: Record<string, string>; used_by?: string[] };
export const isProjectComputed = computedKeys(
  ['volatile.'],
  [
    'features.images',
    'features.profiles',
    'features.storage.volumes',
    'features.storage.buckets',
    'features.networks',
    'features.networks.zones',
  ],
);
const where = (name: string): Where => ({
  template: '/1.0/projects/{name}',
  params: { name },
  what: `project ${name}`,
});
const idOf = (id: string, config: ProvaConfig) => parseId(id, 1, config.settings.defaultRemote, 'project');

export const project = defineResource({
  token: 'prova:index/project:Project',
  inputs,
  outputs: z.object({}),
  replaceOn: ['name', 'remote'],
  check: (i, config: ProvaConfig) => [...checkScope(i, config), ...configIssues(i.config, { kind: 'project' })],
  async create(ctx: ProvaContext, i) {
    const client = await ctx.config.client(ctx, i.remote);
    await createObject(
      ctx,
      client,
      { template: '/1.0/projects', what: 'project' },
      { name: i.name, description: i.description, config: taggedConfig(i.config, ctx.operationId) },
    );
    return { id: formatId(client.remote, undefined, [i.name]), outputs: {} };
  },
  async read(ctx: ProvaContext, id, prior) {
    const ref = idOf(id, ctx.config);
    const got = await getObject<WireProject>(ctx, await ctx.config.client(ctx, ref.remote), where(ref.fields[0]!));
    if (!got) return null;
    return {
      id: formatId(ref.remote, undefined, [got.obj.name]),
      inputs: {
        name: got.obj.name,
        description: got.obj.description,
        config: observedConfigFor(
          got.obj.config,
          (prior.inputs.config as Record<string, string>) ?? {},
          isProjectComputed,
        ),
        ...scopeInputs(prior.inputs, ref, ctx.config.settings.defaultRemote, false),
      },
      outputs: {},
    };
  },
  async update(ctx: ProvaContext, id, _olds, news) {
    const ref = idOf(id, ctx.config);
    await replaceObject<WireProject>(ctx, await ctx.config.client(ctx, ref.remote), where(ref.fields[0]!), (cur) => ({
      description: news.description,
      config: desiredConfig(cur.config, news.config, isProjectComputed),
    }));
    return { outputs: {} };
  },
  async delete(ctx: ProvaContext, id) {
    const ref = idOf(id, ctx.config);
    await deleteObject(ctx, await ctx.config.client(ctx, ref.remote), where(ref.fields[0]!));
  },
  /** Exact: the project of this name carrying the create's operation id (config user.converge.operation). */
  async find(ctx: ProvaContext, i, hint) {
    const client = await ctx.config.client(ctx, i.remote);
    return (await findTagged<WireProject>(ctx, client, where(i.name), hint))
      ? { id: formatId(client.remote, undefined, [i.name]), outputs: {} }
      : null;
  },
  importId: (importId, config: ProvaConfig) => {
    const ref = idOf(importId, config);
    return formatId(ref.remote, undefined, ref.fields);
  },
});
