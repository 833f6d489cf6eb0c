// prova:index/storageVolume:StorageVolume: a custom volume in a pool, keyed by pool and name
// (import id `[remote:][project]/pool/name`); updates PUT description and config with If-Match.
import { z } from 'zod';
import { defineResource } from '../../../engine/provider/define.js';
import type { ProvaConfig, ProvaContext } from '../config.js';
import { formatId, parseId, scopeInputs } from '../support/ids.js';
import { checkScope } from './checks.js';
import { configIssues } from './config-checks.js';
import { findTagged } from '../support/find.js';
import { computedKeys, desiredConfig, observedConfigFor, taggedConfig } from '../support/keys.js';
import { createObject, deleteObject, getObject, projectOf, replaceObject, type Where } from '../support/objects.js';
import { readByGroup } from '../../../kit/read-many.js';
import type { Prior, ReadResult } from '../../../engine/provider/define.js';
import { orNull } from '../../../kit/gone.js';

const inputs = z
  .object({
    pool: z
      .string()
      .min(1)
      .describe('Name of the storage pool that holds the volume. Changing it replaces the volume.'),
    name: z.string().min(1).describe('Name of the volume. Changing it replaces the volume.'),
    type: z
      .literal('custom')
      .default('custom')
      .describe('Volume type; only `custom` volumes are managed. Changing it replaces the volume.'),
    contentType: z
      .enum(['filesystem', 'block'])
      .default('filesystem')
      .describe('`filesystem` (default) or `block`. Changing it replaces the volume.'),
    description: z.string().default('').describe('Free-text description of the volume; default empty.'),
    config: z
      .record(z.string(), z.string())
      .default({})
      .describe('Volume config settings as LXD key/value strings (e.g. `size`); default empty.'),
    project: z
      .string()
      .optional()
      .describe(
        "Project the volume lives in; when omitted, the remote's `default` project is used. Changing it replaces the volume.",
      ),
    remote: z
      .string()
      .optional()
      .describe(
        "Name of the remote that holds the volume; when omitted, the provider's default remote is used. Changing it replaces the volume.",
      ),
    target: z
      .string()
      .optional()
      .describe(
        'Cluster member to create the volume on; ignored on a standalone server. Changing it replaces the volume.',
      ),
  })
  .describe('A custom storage volume in a pool, attachable to instances as a `disk` device.');
const outputs = z.object({
  location: z.string().describe('Cluster member holding the volume; empty on a standalone server.'),
});

type WireVolume = {
  name: string;
  type: string;
  content_type?: string;
  description: string;
  config: Record<string, string>;
  location?: string;
};
const isComputed = computedKeys(['volatile.', 'block.', 'zfs.', 'lvm.', 'btrfs.'], ['size']);
const where = (pool: string, name: string, project?: string, target?: string): Where => ({
  template: '/1.0/storage-pools/{pool}/volumes/custom/{name}',
  params: { pool, name },
  what: `storage volume ${name} in pool ${pool}`,
  project: projectOf(project),
  target,
});
const idOf = (id: string, config: ProvaConfig) => parseId(id, 2, config.settings.defaultRemote, 'storage volume');
const location = (v: WireVolume) => (v.location && v.location !== 'none' ? v.location : '');

/** What read answers for custom volume `v`. */
function volumeResult(ctx: ProvaContext, ref: ReturnType<typeof idOf>, prior: Prior, v: WireVolume): ReadResult {
  const pool = ref.fields[0]!;
  return {
    id: formatId(ref.remote, ref.project, [pool, v.name]),
    inputs: {
      pool,
      name: v.name,
      type: 'custom',
      contentType: v.content_type ?? 'filesystem',
      description: v.description,
      config: observedConfigFor(v.config, (prior.inputs.config as Record<string, string>) ?? {}, isComputed),
      ...scopeInputs(prior.inputs, ref, ctx.config.settings.defaultRemote),
    },
    outputs: { location: location(v) },
  };
}

export const storageVolume = defineResource({
  token: 'prova:index/storageVolume:StorageVolume',
  inputs,
  outputs,
  replaceOn: ['pool', 'name', 'type', 'contentType', 'project', 'remote', 'target'],
  check: (i, config: ProvaConfig) => [...checkScope(i, config), ...configIssues(i.config, { kind: 'volume' })],
  async create(ctx: ProvaContext, i) {
    const client = await ctx.config.client(ctx, i.remote);
    await createObject(
      ctx,
      client,
      {
        template: '/1.0/storage-pools/{pool}/volumes',
        params: { pool: i.pool },
        what: 'storage volume',
        project: projectOf(i.project),
        target: i.target,
      },
      {
        name: i.name,
        type: i.type,
        content_type: i.contentType,
        description: i.description,
        config: taggedConfig(i.config, ctx.operationId),
      },
    );
    const got = await getObject<WireVolume>(ctx, client, where(i.pool, i.name, i.project));
    return { id: formatId(client.remote, i.project, [i.pool, i.name]), outputs: { location: location(got!.obj) } };
  },
  async read(ctx: ProvaContext, id, prior) {
    const ref = idOf(id, ctx.config);
    const [pool, name] = ref.fields as [string, string];
    const got = await getObject<WireVolume>(
      ctx,
      await ctx.config.client(ctx, ref.remote),
      where(pool, name, ref.project),
    );
    return got ? volumeResult(ctx, ref, prior, got.obj) : null;
  },
  // One `GET /1.0/storage-pools/{pool}/volumes/custom?recursion=1` per remote, project and pool.
  readMany: readByGroup<ProvaContext, WireVolume>({
    groupOf: (ctx, it) => {
      const ref = idOf(it.id, ctx.config);
      return JSON.stringify([ref.remote, ref.project, ref.fields[0]]);
    },
    list: async (ctx, group) => {
      const [remote, project, pool] = JSON.parse(group) as [string, string, string];
      const client = await ctx.config.client(ctx, remote);
      return orNull(
        async () =>
          (
            await client.request<WireVolume[]>(ctx, {
              method: 'GET',
              pathTemplate: '/1.0/storage-pools/{pool}/volumes/custom',
              params: { pool },
              operation: 'list storage volumes',
              project: projectOf(project),
              query: { recursion: '1' },
            })
          ).metadata,
      );
    },
    idOf: (v) => v.name,
    pick: (listed, _all, id) => listed.get(parseId(id, 2, '', 'storage volume').fields[1]!),
    toResult: (v, prior, id, ctx) => volumeResult(ctx, idOf(id, ctx.config), prior, v),
  }),
  async update(ctx: ProvaContext, id, _olds, news) {
    const ref = idOf(id, ctx.config);
    await replaceObject<WireVolume>(
      ctx,
      await ctx.config.client(ctx, ref.remote),
      where(ref.fields[0]!, ref.fields[1]!, ref.project),
      (cur) => ({ description: news.description, config: desiredConfig(cur.config, news.config, isComputed) }),
    );
    return { outputs: { location: '' } };
  },
  async delete(ctx: ProvaContext, id) {
    const ref = idOf(id, ctx.config);
    await deleteObject(
      ctx,
      await ctx.config.client(ctx, ref.remote),
      where(ref.fields[0]!, ref.fields[1]!, ref.project),
    );
  },
  /** Exact: the volume of this name carrying the create's operation id (config user.converge.operation). */
  async find(ctx: ProvaContext, i, hint) {
    const client = await ctx.config.client(ctx, i.remote);
    const v = await findTagged<WireVolume>(ctx, client, where(i.pool, i.name, i.project), hint);
    return v ? { id: formatId(client.remote, i.project, [i.pool, i.name]), outputs: { location: location(v) } } : null;
  },
  importId: (importId, config: ProvaConfig) => {
    const ref = idOf(importId, config);
    return formatId(ref.remote, ref.project, ref.fields);
  },
});
