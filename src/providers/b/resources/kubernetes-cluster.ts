// provb:index/kubernetesCluster:KubernetesCluster: a managed cluster with its one default pool
// (BUILDING → ACTIVE, `ready`). Name, tags, version, firewall and the pool's count, labels and
// taints update in place; type, CNI, applications, network and pool size force replacement.
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { defineResource, type CheckIssue } from '../../../engine/provider/define.js';
import { isCannotTell } from '../../../engine/provider/define.js';
import { claim, derivedId } from './claim.js';
import type { ProvbConfig } from '../config.js';
import type * as W from '../wire/objects.js';
import { orNull } from '../../../kit/gone.js';
import { checkRegion, priorRegion, regionOf } from '../wire/region.js';
import { afterCreated, waitGone } from '../wire/wait.js';
import { reporter } from './reported.js';
import { defined } from '../../../kit/wire.js';
import { poolLabel, taint, userLabels, waitCluster, waitPool, wireTaints } from './kubernetes-shared.js';
import type { Prior, ReadResult } from '../../../engine/provider/define.js';
import { readByRegion } from './read-many.js';

export const clusterPool = z
  .strictObject({
    label: poolLabel
      .optional()
      .describe(
        'Label (id) of the default pool: letters, digits, `-`, `_` and `.`; generated when omitted. Changing it forces replacement.',
      ),
    nodeCount: z.number().int().min(1).describe('Number of nodes in the pool (at least 1). Updates in place.'),
    size: z.string().min(1).describe('Node size name, e.g. `g4s.kube.medium`. Changing it forces replacement.'),
    publicIpNodePool: z.boolean().optional().describe('Give each node a public IP. Changing it forces replacement.'),
    labels: z
      .record(z.string(), z.string())
      .optional()
      .describe("Kubernetes labels on the pool's nodes. Update in place."),
    taints: z.array(taint).optional().describe("Taints on the pool's nodes. Update in place."),
  })
  .describe("The cluster's default node pool.");

export const clusterInputs = z
  .strictObject({
    firewallId: z.string().min(1).describe("Firewall for the cluster's nodes (required). Updates in place."),
    pools: clusterPool.describe('The default node pool (required).'),
    name: z
      .string()
      .min(1)
      .max(63)
      .regex(/^\S+$/, 'must not contain whitespace')
      .optional()
      .describe(
        'Cluster name, unique within the account, at most 63 characters, no whitespace; generated when omitted. Updates in place.',
      ),
    clusterType: z
      .enum(['k3s', 'talos'])
      .default('k3s')
      .describe('`k3s` (default) or `talos`. Changing it forces replacement.'),
    cni: z
      .enum(['cilium', 'flannel'])
      .default('flannel')
      .describe('Network plugin: `flannel` (default) or `cilium` (not for talos). Changing it forces replacement.'),
    kubernetesVersion: z
      .string()
      .optional()
      .describe(
        'Kubernetes version, e.g. `1.28.7-k3s1` (k3s) or `talos-v1.7.0` (talos); the latest stable when omitted. Upgrades in place.',
      ),
    applications: z
      .string()
      .optional()
      .describe(
        'Comma-separated marketplace applications (case-sensitive); prefix `-` to remove a default one, `name:plan` picks a plan. Changing it forces replacement.',
      ),
    networkId: z
      .string()
      .optional()
      .describe('Network of the cluster; the default network when omitted. Changing it forces replacement.'),
    /** Deprecated: use pools.nodeCount. */
    numTargetNodes: z.number().int().min(1).default(3).describe('Deprecated: use `pools.nodeCount`. Default 3.'),
    /** Deprecated: use pools.size. */
    targetNodesSize: z.string().optional().describe('Deprecated: use `pools.size`.'),
    tags: z.string().optional().describe('Space-separated tags. Update in place.'),
    volumeType: z
      .string()
      .optional()
      .describe("Storage class of the nodes' volumes; the API default when omitted. Changing it forces replacement."),
    writeKubeconfig: z
      .boolean()
      .default(false)
      .describe('When true, the kubeconfig is kept in state as the `kubeconfig` output. Default false.'),
    region: z
      .string()
      .optional()
      .describe("Civo region code (e.g. LON1); defaults to the provider's region. Changing it forces replacement."),
  })
  .describe(
    "A managed Kubernetes cluster with its default node pool (BUILDING → ACTIVE, then `ready`). Name, tags, version, firewall and the pool's count, labels and taints update in place.",
  );
type ClusterInputs = z.output<typeof clusterInputs>;

export const clusterOutputs = z.object({
  clusterId: z.string().describe('Id of the cluster (the resource id; import by it).'),
  name: z.string().describe('Cluster name as the API reports it.'),
  apiEndpoint: z.string().describe('URL of the Kubernetes API server.'),
  createdAt: z.string().describe('When the cluster was created (timestamp).'),
  dnsEntry: z.string().describe('DNS name of the cluster.'),
  masterIp: z.string().describe('Public IP address of the control plane.'),
  status: z.string().describe('Cluster status, e.g. `BUILDING` or `ACTIVE`.'),
  ready: z.boolean().describe('True when the cluster is ready.'),
  kubernetesVersion: z.string().describe('Kubernetes version running.'),
  networkId: z.string().describe("Id of the cluster's network."),
  poolId: z.string().describe('Id of the default node pool.'),
  instanceNames: z.array(z.string()).describe("Names of the default pool's nodes."),
  installedApplications: z
    .array(
      z.object({
        application: z.string().describe('Application name.'),
        version: z.string().describe('Installed application version.'),
        installed: z.boolean().describe('Whether installation finished.'),
        category: z.string().describe('Marketplace category of the application.'),
      }),
    )
    .describe('Marketplace applications installed on the cluster.'),
  kubeconfig: z
    .string()
    .optional()
    .describe('Kubeconfig to reach the cluster (secret); present only with `writeKubeconfig`.'),
});

function checkCluster(i: ClusterInputs): CheckIssue[] {
  const issues: CheckIssue[] = [];
  if (i.clusterType === 'talos' && i.cni === 'cilium')
    issues.push({
      path: ['cni'],
      code: 'invalid_value',
      message: 'cilium is not available for talos clusters; use flannel',
    });
  const v = i.kubernetesVersion;
  if (v && i.clusterType === 'k3s' && !/^v?\d+\.\d+\.\d+-k3s\d+(-gpu(-.*)?)?$/.test(v))
    issues.push({
      path: ['kubernetesVersion'],
      code: 'invalid_format',
      message: "must look like '1.28.7-k3s1' for a k3s cluster",
    });
  if (v && i.clusterType === 'talos' && !/^talos-v\d+\.\d+\.\d+$/.test(v))
    issues.push({
      path: ['kubernetesVersion'],
      code: 'invalid_format',
      message: "must look like 'talos-v1.7.0' for a talos cluster",
    });
  return issues;
}

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
    if ((await orNull(() => ctx.config.client.deleteCluster(ctx, region, id))) === null) return;
    await waitGone(ctx, `cluster ${id}`, () => ctx.config.client.getCluster(ctx, region, id));
  },
  // find: the cluster so named (an undeclared name is derived from the operation id) whose created_at
  // is not before the create started (claim.ts).
  find: async (ctx, inputs, hint) => {
    const region = regionOf(ctx, inputs);
    const name = nameOf(inputs.name, hint.operationId);
    const found = claim(
      hint,
      (await ctx.config.client.listClusters(ctx, region)).filter((x) => x.name === name),
      { what: `Kubernetes cluster '${name}'`, createdAt: (x) => x.created_at },
    );
    if (!found || isCannotTell(found)) return found;
    const c = await waitCluster(ctx, region, found.id);
    return { id: c.id, outputs: outputsOf(c, inputs) };
  },
  importId: (id) => id,
});
