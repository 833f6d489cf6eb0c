// prova:index/storagePool:StoragePool: a storage pool (global; no rename). Driver-specific keys the
// server fills (source, size, zfs.pool_name, …) are ignored unless set. 5.0 sends no ETag here.
import { z } from 'zod';
import { defineResource } from '../../../engine/provider/define.js';
import type { ProvaConfig, ProvaContext } from '../config.js';
import { formatId, parseId, scopeInputs } from '../support/ids.js';
import { checkScope } from './checks.js';
import { configIssues } from './config-checks.js';
import { findTagged } from '../support/find.js';
import { computedKeys, desiredConfig, observedConfigFor, taggedConfig, type KeyPolicy } from '../support/keys.js';
import { createObject, deleteObject, getObject, projectOf, replaceObject, type Where } from '../support/objects.js';

const inputs = z
  .object({
    name: z.string().min(1).describe('Name of the storage pool. Changing it replaces the storage pool.'),
    driver: z
      .enum(['dir', 'zfs', 'lvm', 'btrfs', 'ceph', 'cephfs', 'cephobject'])
      .describe(
        'Storage driver: `dir`, `zfs`, `lvm`, `btrfs`, `ceph`, `cephfs` or `cephobject`. Changing it replaces the pool.',
      ),
    description: z.string().default('').describe('Free-text description of the storage pool; default empty.'),
    source: z
      .string()
      .optional()
      .describe(
        "Where the pool's data lives (a directory, block device or existing pool/volume group, by driver); when omitted, the server creates a loop file or directory. Changing it replaces the pool.",
      ),
    config: z
      .record(z.string(), z.string())
      .default({})
      .describe('Storage pool config settings as LXD key/value strings (vary by driver, e.g. `size`); default empty.'),
    project: z
      .string()
      .optional()
      .describe(
        "Project the storage pool lives in; when omitted, the remote's `default` project is used. Changing it replaces the storage pool.",
      ),
    remote: z
      .string()
      .optional()
      .describe(
        "Name of the remote that holds the storage pool; when omitted, the provider's default remote is used. Changing it replaces the storage pool.",
      ),
    target: z
      .string()
      .optional()
      .describe('Cluster member to create the pool on; ignored on a standalone server. Changing it replaces the pool.'),
  })
  .describe('A storage pool that holds instance root disks, images and custom volumes.');
const outputs = z.object({
  status: z.string().describe('Pool status as the server reports it, such as `Created`.'),
  locations: z.array(z.string()).describe('Cluster members the pool is defined on; empty on a standalone server.'),
});

export type WirePool = {
  name: string;
  description: string;
  driver: string;
  status: string;
  config: Record<string, string> | null;
  locations?: string[];
  used_by?: string[];
};
const driverKeys: Record<string, string[]> = {
  dir: ['source'],
  zfs: ['source', 'size', 'zfs.pool_name'],
  lvm: ['source', 'size', 'lvm.vg_name', 'lvm.thinpool_name'],
  btrfs: ['source', 'size'],
};
export const poolComputed = (driver: string): KeyPolicy => computedKeys(['volatile.'], driverKeys[driver] ?? []);
const where = (name: string, project?: string, target?: string): Where => ({
  template: '/1.0/storage-pools/{name}',
  params: { name },
  what: `storage pool ${name}`,
  project: projectOf(project),
  target,
});
const idOf = (id: string, config: ProvaConfig) => parseId(id, 1, config.settings.defaultRemote, 'storage pool');
const outputsOf = (p: WirePool) => ({
  status: p.status ?? '',
  locations: (p.locations ?? []).filter((l) => l !== 'none'),
});

export const storagePool = defineResource({
  token: 'prova:index/storagePool:StoragePool',
  inputs,
  outputs,
  replaceOn: ['name', 'driver', 'source', 'project', 'remote', 'target'],
  computedOnUpdate: ['status'],
  check: (i, config: ProvaConfig) => [
    ...checkScope(i, config),
    ...configIssues(i.config, { kind: 'pool', sub: i.driver }),
  ],
  async create(ctx: ProvaContext, i) {
    const client = await ctx.config.client(ctx, i.remote);
    const config = taggedConfig(
      { ...i.config, ...(i.source !== undefined ? { source: i.source } : {}) },
      ctx.operationId,
    );
    await createObject(
      ctx,
      client,
      {
        template: '/1.0/storage-pools',
        what: 'storage pool',
        project: projectOf(i.project),
        target: i.target,
      },
      { name: i.name, driver: i.driver, description: i.description, config },
    );
    const got = await getObject<WirePool>(ctx, client, where(i.name, i.project));
    return { id: formatId(client.remote, i.project, [i.name]), outputs: outputsOf(got!.obj) };
  },
  async read(ctx: ProvaContext, id, prior) {
    const ref = idOf(id, ctx.config);
    const got = await getObject<WirePool>(
      ctx,
      await ctx.config.client(ctx, ref.remote),
      where(ref.fields[0]!, ref.project),
    );
    if (!got) return null;
    const p = got.obj;
    return {
      id: formatId(ref.remote, ref.project, [p.name]),
      inputs: {
        name: p.name,
        driver: p.driver,
        description: p.description,
        config: observedConfigFor(
          p.config,
          (prior.inputs.config as Record<string, string>) ?? {},
          poolComputed(p.driver),
        ),
        ...(prior.inputs.source !== undefined ? { source: prior.inputs.source } : {}),
        ...scopeInputs(prior.inputs, ref, ctx.config.settings.defaultRemote),
      },
      outputs: outputsOf(p),
    };
  },
  async update(ctx: ProvaContext, id, _olds, news) {
    const ref = idOf(id, ctx.config);
    const client = await ctx.config.client(ctx, ref.remote);
    await replaceObject<WirePool>(ctx, client, where(ref.fields[0]!, ref.project), (cur) => ({
      description: news.description,
      config: desiredConfig(cur.config, news.config, poolComputed(cur.driver)),
    }));
    return { outputs: outputsOf((await getObject<WirePool>(ctx, client, where(ref.fields[0]!, ref.project)))!.obj) };
  },
  async delete(ctx: ProvaContext, id) {
    const ref = idOf(id, ctx.config);
    await deleteObject(ctx, await ctx.config.client(ctx, ref.remote), where(ref.fields[0]!, ref.project));
  },
  /** Exact: the pool of this name carrying the create's operation id (config user.converge.operation). */
  async find(ctx: ProvaContext, i, hint) {
    const client = await ctx.config.client(ctx, i.remote);
    const p = await findTagged<WirePool & { config: Record<string, string> | null }>(
      ctx,
      client,
      where(i.name, i.project),
      hint,
    );
    return p ? { id: formatId(client.remote, i.project, [i.name]), outputs: outputsOf(p) } : null;
  },
  importId: (importId, config: ProvaConfig) => {
    const ref = idOf(importId, config);
    return formatId(ref.remote, ref.project, ref.fields);
  },
});
