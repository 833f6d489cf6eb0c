// provb:index/kubernetesCluster:KubernetesCluster's inputs and outputs as data (every field
// described, for the reference pages and editor hovers), and the checks of its inputs.
import { z } from 'zod';
import type { CheckIssue } from '../../../engine/provider/define.js';
import { poolLabel, taint } from './kubernetes-shared.js';

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
export type ClusterInputs = z.output<typeof clusterInputs>;

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

export function checkCluster(i: ClusterInputs): CheckIssue[] {
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
