// What the cluster and node-pool resources share: the pool and taint schemas, label filtering, and
// the wait for a pool to reach its node count with every node ACTIVE.
import { z } from 'zod';
import type * as W from '../wire/objects.js';
import type { ProvbContext } from '../config.js';
import { waitUntil } from '../support/wait.js';

export const taint = z
  .strictObject({
    key: z.string().min(1).describe('Taint key.'),
    value: z.string().describe('Taint value (may be empty).'),
    effect: z
      .enum(['NoSchedule', 'PreferNoSchedule', 'NoExecute'])
      .describe('Taint effect: `NoSchedule`, `PreferNoSchedule` or `NoExecute`.'),
  })
  .describe("A Kubernetes taint put on the pool's nodes.");
export type Taint = z.output<typeof taint>;
export const poolLabel = z.string().regex(/^[a-zA-Z0-9-_.]+$/, 'may hold only letters, digits, "-", "_" and "."');

/** Labels without the ones the server adds (`kubernetes.civo.com/...`). */
export function userLabels(labels: Record<string, string> | null | undefined): Record<string, string> {
  return Object.fromEntries(Object.entries(labels ?? {}).filter(([k]) => !k.startsWith('kubernetes.civo.com/')));
}

export const wireTaints = (t: readonly W.Taint[] | null | undefined): Taint[] =>
  (t ?? []).map((x) => ({ key: x.key, value: x.value ?? '', effect: x.effect }));

/** Waits until the pool's desired count is met and every node is ACTIVE (and the cluster is ACTIVE). */
export function waitPool(
  ctx: ProvbContext,
  region: string,
  clusterId: string,
  poolId: string,
): Promise<W.KubernetesCluster> {
  return waitUntil(
    ctx,
    'pool',
    `node pool ${poolId} to be ready`,
    () => ctx.config.client.getCluster(ctx, region, clusterId),
    (c) => {
      const pool = (c.pools ?? []).find((p) => p.id === poolId);
      const want = (c.required_pools ?? []).find((p) => p.id === poolId)?.count ?? pool?.count ?? 0;
      return (
        c.status === 'ACTIVE' &&
        !!pool &&
        (pool.instances ?? []).length === want &&
        (pool.instances ?? []).every((i) => i.status === 'ACTIVE')
      );
    },
    (c) => c.status,
  );
}

/** Waits until the cluster is ACTIVE and ready. */
export function waitCluster(ctx: ProvbContext, region: string, clusterId: string): Promise<W.KubernetesCluster> {
  return waitUntil(
    ctx,
    'cluster',
    `cluster ${clusterId} to be ACTIVE`,
    () => ctx.config.client.getCluster(ctx, region, clusterId),
    (c) => c.status === 'ACTIVE' && c.ready === true,
    (c) => c.status,
  );
}
