// provb:index/kubernetesCluster:KubernetesCluster: a managed cluster with its one default pool
// (BUILDING → ACTIVE, `ready`). Name, tags, version, firewall and the pool's count, labels and
// taints update in place; type, CNI, applications, network and pool size force replacement.
import { randomUUID } from 'node:crypto';
import { type z } from 'zod';
import { defineResource } from '../../../engine/provider/define.js';
import { isCannotTell } from '../../../engine/provider/define.js';
import { claim, derivedId } from './claim.js';
import type { ProvbConfig, ProvbContext } from '../config.js';
import type * as W from '../wire/objects.js';
import { orNull } from '../../../kit/gone.js';
import { checkRegion, priorRegion, regionOf } from '../support/region.js';
import { afterCreated, waitGone } from '../support/wait.js';
import { reporter } from './reported.js';
import { checkCluster, clusterInputs, clusterOutputs, type ClusterInputs } from './kubernetes-cluster-schema.js';
import { defined } from '../../../kit/wire.js';
import { userLabels, waitCluster, waitPool, wireTaints } from './kubernetes-shared.js';
import type { Prior, ReadResult } from '../../../engine/provider/define.js';
import { readByRegion } from './read-many.js';

const firstPool = (c: W.KubernetesCluster, label?: string): W.KubernetesPool | undefined =>
  (c.pools ?? []).find((p) => p.id === label) ?? c.pools?.[0];

function outputsOf(
  c: W.KubernetesCluster,
  inputs: { pools: { label?: string }; writeKubeconfig: boolean },
): z.output<typeof clusterOutputs> {
  const pool = firstPool(c, inputs.pools.label);
  return {
    clusterId: c.id,
    name: c.name,
    apiEndpoint: c.api_endpoint ?? '',
    createdAt: c.created_at ?? '',
    dnsEntry: c.dns_entry ?? '',
    masterIp: c.master_ip ?? '',
    status: c.status,
    ready: c.ready === true,
    kubernetesVersion: c.kubernetes_version ?? '',
    networkId: c.network_id ?? '',
    poolId: pool?.id ?? '',
    instanceNames: pool?.instance_names ?? [],
    installedApplications: (c.installed_applications ?? []).map((a) => ({
      application: a.application ?? a.name ?? '',
      version: a.version ?? '',
      installed: a.installed === true,
      category: a.category ?? '',
    })),
    ...(inputs.writeKubeconfig && c.kubeconfig ? { kubeconfig: c.kubeconfig } : {}),
  };
}

const sameVersion = (a: string | undefined, b: string | null | undefined) =>
  !!a && !!b && a.replace(/^v/, '') === b.replace(/^v/, '');

function reportInputs(c: W.KubernetesCluster, prior: Parameters<typeof reporter>[0]): ClusterInputs {
  const r = reporter(prior);
  const priorPool = (r.kept<ClusterInputs['pools']>('pools') ?? {}) as Partial<ClusterInputs['pools']>;
  const pool: Partial<W.KubernetesPool> = firstPool(c, priorPool.label) ?? {};
  const req: Partial<W.KubernetesPool> = (c.required_pools ?? []).find((p) => p.id === pool.id) ?? pool;
  const labels = userLabels(req.labels ?? pool.labels);
  const taints = wireTaints(req.taints ?? pool.taints);
  const priorVersion = r.kept<string>('kubernetesVersion');
  return defined({
    firewallId: c.firewall_id,
    pools: defined({
      label: r.importing || priorPool.label !== undefined ? pool.id : undefined,
      nodeCount: req.count ?? pool.count,
      size: pool.size,
      publicIpNodePool:
        r.importing || priorPool.publicIpNodePool !== undefined ? pool.public_ip_node_pool === true : undefined,
      labels: priorPool.labels !== undefined || Object.keys(labels).length ? labels : undefined,
      taints: priorPool.taints !== undefined || taints.length ? taints : undefined,
    }) as ClusterInputs['pools'],
    name: r.computed('name', c.name),
    clusterType: c.cluster_type === 'talos' ? 'talos' : 'k3s',
    cni: c.cni_plugin === 'cilium' ? 'cilium' : 'flannel',
    kubernetesVersion: sameVersion(priorVersion, c.kubernetes_version)
      ? priorVersion
      : r.computed('kubernetesVersion', c.kubernetes_version),
    applications: r.kept<string>('applications'),
    networkId: r.computed('networkId', c.network_id),
    numTargetNodes: r.kept<number>('numTargetNodes') ?? c.num_target_nodes ?? 3,
    targetNodesSize: r.kept<string>('targetNodesSize'),
    tags: r.optional('tags', (c.tags ?? []).join(' ')),
    volumeType: r.computed('volumeType', c.volume_type),
    writeKubeconfig: r.kept<boolean>('writeKubeconfig') ?? false,
    region: r.kept<string>('region'),
  }) as ClusterInputs;
}

/** The declared name, else one derived from the create's operation id (so find knows it too); undefined lets the API pick. */
const nameOf = (name: string | undefined, operationId: string | undefined) =>
  name ?? (operationId ? `cluster-${derivedId(operationId).slice(0, 8)}` : undefined);

/** The clusters a create of these inputs could have made (its key: the name, in the region). */
const matching = async (ctx: ProvbContext, inputs: ClusterInputs, operationId: string | undefined) => {
  const name = nameOf(inputs.name, operationId);
  return (await ctx.config.client.listClusters(ctx, regionOf(ctx, inputs))).filter((x) => x.name === name);
};

/** What read answers for a cluster. */
function clusterResult(c: W.KubernetesCluster, prior: Prior): ReadResult {
  const inputs = reportInputs(c, prior);
  return { inputs, outputs: outputsOf(c, inputs) };
}

export const kubernetesCluster = defineResource({
  token: 'provb:index/kubernetesCluster:KubernetesCluster',
  inputs: clusterInputs,
  outputs: clusterOutputs,
  replaceOn: [
    'clusterType',
    'cni',
    'applications',
    'networkId',
    'region',
    'volumeType',
    'pools.size',
    'pools.label',
    'pools.publicIpNodePool',
  ],
  secrets: ['kubeconfig'],
  computedOnUpdate: [
    'name',
    'status',
    'ready',
    'kubernetesVersion',
    'instanceNames',
    'installedApplications',
    'kubeconfig',
  ],
  check: (inputs, config: ProvbConfig) => [...checkRegion(inputs, config), ...checkCluster(inputs)],
  warnings: (inputs) => [
    ...(inputs.numTargetNodes !== 3
      ? ['numTargetNodes is deprecated and not sent to the API; set pools.nodeCount instead']
      : []),
    ...(inputs.targetNodesSize !== undefined
      ? ['targetNodesSize is deprecated and not sent to the API; set pools.size instead']
      : []),
  ],
  existing: async (ctx, inputs) => (await matching(ctx, inputs, ctx.operationId)).map((x) => x.id),
  create: async (ctx, inputs) => {
    const region = regionOf(ctx, inputs);
    const p = inputs.pools;
    const created = await ctx.config.client.createCluster(
      ctx,
      region,
      defined({
        name: nameOf(inputs.name, ctx.operationId),
        cluster_type: inputs.clusterType,
        kubernetes_version: inputs.kubernetesVersion,
        network_id: inputs.networkId,
        tags: inputs.tags,
        pools: [
          defined({
            id: p.label ?? randomUUID(),
            count: p.nodeCount,
            size: p.size,
            labels: p.labels,
            taints: p.taints ?? null,
            public_ip_node_pool: p.publicIpNodePool,
          }),
        ],
        applications: inputs.applications,
        instance_firewall: inputs.firewallId,
        cni_plugin: inputs.cni,
        volume_type: inputs.volumeType,
      }),
    );
    const c = await afterCreated(ctx, created.id, () => waitCluster(ctx, region, created.id));
    return { id: c.id, outputs: outputsOf(c, inputs) };
  },
  read: async (ctx, id, prior) => {
    const c = await orNull(() => ctx.config.client.getCluster(ctx, priorRegion(ctx, prior), id));
    return c ? clusterResult(c, prior) : null;
  },
  readMany: readByRegion(
    (ctx, region) => ctx.config.client.listClusters(ctx, region),
    (c, prior) => clusterResult(c, prior),
  ),
  update: async (ctx, id, olds, news) => {
    const region = regionOf(ctx, news);
    const c = ctx.config.client;
    const o = olds.inputs as ClusterInputs;
    const changed: W.Body = defined({
      name: o.name !== news.name ? news.name : undefined,
      tags: (o.tags ?? '') !== (news.tags ?? '') ? (news.tags ?? '') : undefined,
      kubernetes_version:
        !sameVersion(o.kubernetesVersion, news.kubernetesVersion) && news.kubernetesVersion
          ? news.kubernetesVersion
          : undefined,
      firewall_id: o.firewallId !== news.firewallId ? news.firewallId : undefined,
    });
    if (Object.keys(changed).length) {
      await c.updateCluster(ctx, region, id, changed);
      await waitCluster(ctx, region, id);
    }
    const op = o.pools,
      np = news.pools;
    if (
      op.nodeCount !== np.nodeCount ||
      JSON.stringify(op.labels ?? {}) !== JSON.stringify(np.labels ?? {}) ||
      JSON.stringify(op.taints ?? []) !== JSON.stringify(np.taints ?? [])
    ) {
      const cluster = await c.getCluster(ctx, region, id);
      const poolId = firstPool(cluster, np.label)?.id;
      if (poolId) {
        await c.updatePool(ctx, region, id, poolId, {
          count: np.nodeCount,
          labels: np.labels ?? {},
          taints: np.taints ?? [],
        });
        await waitPool(ctx, region, id, poolId);
      }
    }
    return { outputs: outputsOf(await c.getCluster(ctx, region, id), news) };
  },
  delete: async (ctx, id, prior) => {
    const region = priorRegion(ctx, prior);
    await ctx.config.client.deleteCluster(ctx, region, id);
    await waitGone(ctx, `cluster ${id}`, () => ctx.config.client.getCluster(ctx, region, id));
  },
  // find: the cluster so named (an undeclared name is derived from the operation id) that was not
  // there before the request (or, for a record without that note, whose created_at is not before
  // the create started: claim.ts).
  find: async (ctx, inputs, hint) => {
    const found = claim(hint, await matching(ctx, inputs, hint.operationId), {
      what: `Kubernetes cluster '${nameOf(inputs.name, hint.operationId)}'`,
      createdAt: (x) => x.created_at,
    });
    if (!found || isCannotTell(found)) return found;
    const c = await waitCluster(ctx, regionOf(ctx, inputs), found.id);
    return { id: c.id, outputs: outputsOf(c, inputs) };
  },
  importId: (id) => id,
});
