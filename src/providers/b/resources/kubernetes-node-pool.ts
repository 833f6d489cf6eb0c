// provb:index/kubernetesNodePool:KubernetesNodePool: an extra pool of a cluster. Count, labels and
// taints update in place; cluster, size, label and public-IP mode force replacement. Its id (and
// import id) is `<cluster_id>:<pool_id>`.
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { defineResource } from '../../../engine/provider/define.js';
import { isCannotTell } from '../../../engine/provider/define.js';
import { claim, derivedId } from './claim.js';
import type { ProvbConfig, ProvbContext } from '../config.js';
import type * as W from '../wire/objects.js';
import { orNull } from '../../../kit/gone.js';
import { checkRegion, priorRegion, regionOf, scanRegions } from '../support/region.js';
import { afterCreated, waitGone } from '../support/wait.js';
import { reporter } from './reported.js';
import { defined } from '../../../kit/wire.js';
import { poolLabel, taint, userLabels, waitCluster, waitPool, wireTaints } from './kubernetes-shared.js';
import type { Prior, ReadResult } from '../../../engine/provider/define.js';
import { readGroupedById } from './read-many.js';

export const nodePoolInputs = z
  .strictObject({
    clusterId: z.string().min(1).describe('Id of the cluster the pool belongs to. Changing it forces replacement.'),
    nodeCount: z.number().int().min(1).describe('Number of nodes (at least 1). Updates in place.'),
    size: z.string().min(1).describe('Node size name, e.g. `g4s.kube.medium`. Changing it forces replacement.'),
    /** The pool's id; generated when omitted. */
    label: poolLabel
      .optional()
      .describe(
        'Label (id) of the pool: letters, digits, `-`, `_` and `.`; generated when omitted. Changing it forces replacement.',
      ),
    labels: z
      .record(z.string(), z.string())
      .optional()
      .describe("Kubernetes labels on the pool's nodes. Update in place."),
    publicIpNodePool: z.boolean().optional().describe('Give each node a public IP. Changing it forces replacement.'),
    taints: z.array(taint).optional().describe("Taints on the pool's nodes. Update in place."),
    region: z
      .string()
      .optional()
      .describe("Civo region code (e.g. LON1); defaults to the provider's region. Changing it forces replacement."),
  })
  .describe(
    'An extra node pool of a Kubernetes cluster; id and import id `<clusterId>:<poolId>`. Count, labels and taints update in place.',
  );
type NodePoolInputs = z.output<typeof nodePoolInputs>;

export const nodePoolOutputs = z.object({
  poolId: z.string().describe('Id of the pool.'),
  instanceNames: z.array(z.string()).describe("Names of the pool's nodes."),
});

const outputsOf = (p: W.KubernetesPool) => ({ poolId: p.id, instanceNames: p.instance_names ?? [] });
/** The outputs of pool `poolId` of cluster `c` (a cluster waited on until the pool is ready has it). */
const outputsIn = (c: W.KubernetesCluster, poolId: string) =>
  outputsOf((c.pools ?? []).find((p) => p.id === poolId) ?? { id: poolId, count: 0, size: '' });

function split(id: string): [string, string] {
  const i = id.indexOf(':');
  if (i <= 0 || i === id.length - 1)
    throw new TypeError(`Expected a node pool id like '<cluster_id>:<pool_id>', got '${id}'`);
  return [id.slice(0, i), id.slice(i + 1)];
}

/** What read answers for pool `poolId` of cluster `c` (null when the cluster has no such pool). */
function poolResult(
  c: W.KubernetesCluster,
  poolId: string,
  prior: Prior,
  elsewhere: string | undefined,
  clusterId: string,
): ReadResult | null {
  const pool = c?.pools?.find((p) => p.id === poolId);
  if (!pool) return null;
  const req = (c.required_pools ?? []).find((p) => p.id === poolId) ?? pool;
  const r = reporter(prior);
  const labels = userLabels(req.labels ?? pool.labels);
  const taints = wireTaints(req.taints ?? pool.taints);
  const inputs: NodePoolInputs = defined({
    clusterId,
    nodeCount: req.count ?? pool.count,
    size: pool.size,
    label: r.computed('label', pool.id),
    labels: r.kept('labels') !== undefined || Object.keys(labels).length ? labels : undefined,
    publicIpNodePool: r.computed('publicIpNodePool', pool.public_ip_node_pool === true),
    taints: r.kept('taints') !== undefined || taints.length ? taints : undefined,
    region: elsewhere ?? r.kept<string>('region'),
  });
  return { inputs, outputs: outputsOf(pool) };
}

async function readPool(ctx: ProvbContext, id: string, prior: Prior): Promise<ReadResult | null> {
  const [clusterId, poolId] = split(id);
  const home = priorRegion(ctx, prior);
  // An import looks in every region, as the vendor's provider does.
  const found = await scanRegions(ctx, home, (region) =>
    orNull(() => ctx.config.client.getCluster(ctx, region, clusterId)),
  );
  return found
    ? poolResult(found.value, poolId!, prior, found.region === home ? undefined : found.region, clusterId!)
    : null;
}

export const kubernetesNodePool = defineResource({
  token: 'provb:index/kubernetesNodePool:KubernetesNodePool',
  inputs: nodePoolInputs,
  outputs: nodePoolOutputs,
  replaceOn: ['clusterId', 'size', 'label', 'publicIpNodePool', 'region'],
  computedOnUpdate: ['instanceNames'],
  check: (inputs, config: ProvbConfig) => checkRegion(inputs, config),
  // The pool of this id that existed before the request (a labelled pool's id is its label).
  existing: async (ctx, inputs) => {
    const region = regionOf(ctx, inputs);
    const poolId = inputs.label ?? (ctx.operationId ? derivedId(ctx.operationId) : '');
    return ((await orNull(() => ctx.config.client.getCluster(ctx, region, inputs.clusterId)))?.pools ?? [])
      .filter((p) => p.id === poolId)
      .map((p) => p.id);
  },
  create: async (ctx, inputs) => {
    const region = regionOf(ctx, inputs);
    const poolId = inputs.label ?? (ctx.operationId ? derivedId(ctx.operationId) : randomUUID());
    await waitCluster(ctx, region, inputs.clusterId);
    await ctx.config.client.createPool(
      ctx,
      region,
      inputs.clusterId,
      defined({
        id: poolId,
        count: inputs.nodeCount,
        size: inputs.size,
        labels: inputs.labels,
        taints: inputs.taints ?? null,
        public_ip_node_pool: inputs.publicIpNodePool,
      }),
    );
    const c = await afterCreated(ctx, `${inputs.clusterId}:${poolId}`, () =>
      waitPool(ctx, region, inputs.clusterId, poolId),
    );
    return { id: `${inputs.clusterId}:${poolId}`, outputs: outputsIn(c, poolId) };
  },
  read: readPool,
  // One cluster listing per region; a pool whose cluster is missing there is read as read does (other regions).
  readMany: readGroupedById({
    groupOf: (ctx, it) => priorRegion(ctx, it.prior),
    list: (ctx, region) => ctx.config.client.listClusters(ctx, region),
    pick: (listed, _all, id) => listed.get(split(id)[0]!),
    toResult: (c, prior, id) => poolResult(c, split(id)[1]!, prior, undefined, split(id)[0]!),
  }),
  update: async (ctx, id, _olds, news) => {
    const [clusterId, poolId] = split(id);
    const region = regionOf(ctx, news);
    await ctx.config.client.updatePool(ctx, region, clusterId, poolId, {
      count: news.nodeCount,
      labels: news.labels ?? {},
      taints: news.taints ?? [],
    });
    const c = await waitPool(ctx, region, clusterId, poolId);
    return { outputs: outputsIn(c, poolId) };
  },
  delete: async (ctx, id, prior) => {
    const [clusterId, poolId] = split(id);
    const region = priorRegion(ctx, prior);
    await ctx.config.client.deletePool(ctx, region, clusterId, poolId);
    await waitGone(ctx, `node pool ${poolId}`, () => ctx.config.client.getPool(ctx, region, clusterId, poolId));
  },
  // find: an undeclared label is the id derived from the operation id (exact); a declared one is the
  // pool with that id if it did not exist when the create sent its request (claim.ts).
  find: async (ctx, inputs, hint) => {
    const region = regionOf(ctx, inputs);
    const poolId = inputs.label ?? derivedId(hint.operationId);
    const c = await orNull(() => ctx.config.client.getCluster(ctx, region, inputs.clusterId));
    const matches = (c?.pools ?? []).filter((p) => p.id === poolId);
    const pool = inputs.label ? claim(hint, matches, { what: `node pool '${poolId}'` }) : (matches[0] ?? null);
    if (!pool || isCannotTell(pool)) return pool;
    const settled = await waitPool(ctx, region, inputs.clusterId, pool.id);
    return {
      id: `${inputs.clusterId}:${pool.id}`,
      outputs: outputsIn(settled, pool.id),
    };
  },
  importId: (id) => {
    split(id);
    return id;
  },
});
