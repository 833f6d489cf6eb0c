// GPU cluster and image lookups (bare metal and virtual), under /cloud/v3/gpu/<kind>/{project}/{region}.
// Cluster lists default to 10 per page on the server; the list lookups page until maxItems. The API
// does not return project and region on these objects, so the resolved ones are added.
import { z } from 'zod';
import { type GpuKind, type Wire } from '../client.js';
import { collectPages } from '../support/query.js';
import type { Scope } from '../wire/cloud.js';
import { camelize, SEED_FIELDS, withSeedFields } from '../support/shape.js';
import {
  checkScope,
  describeCriteria,
  effectiveMax,
  exactlyOne,
  exactlyOneOf,
  getOne,
  listId,
  maxItemsArg,
  provcLookup,
  requireScope,
  scopeArgs,
} from './shared.js';

export const managedBies = ['k8s', 'user'] as const;

const clusterShape = (kind: GpuKind) => (w: Wire, s: Scope) =>
  withSeedFields(
    { ...(camelize(w) as Record<string, unknown>), clusterId: w.id, projectId: s.projectId, regionId: s.regionId },
    kind === 'baremetal' ? [...SEED_FIELDS.gpuCluster, ...SEED_FIELDS.gpuBaremetalCluster] : SEED_FIELDS.gpuCluster,
  );
const imageShape = (w: Wire, s: Scope) =>
  withSeedFields(
    { ...(camelize(w) as Record<string, unknown>), imageId: w.id, projectId: s.projectId, regionId: s.regionId },
    SEED_FIELDS.gpuImage,
  );
/** Cluster and image ids are UUID strings (wire notes: TF inputs `cluster_id` / `image_id`). */
// `format: 'uuid'` only tells the docs (JSON Schema) what the pattern is; parsing is the regex's.
const uuidArg = z
  .string()
  .regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, 'must be a UUID')
  .meta({ format: 'uuid' });
const T = (fn: string) => `provc:index/${fn}:${fn}`;
const words = (kind: GpuKind) => (kind === 'baremetal' ? 'bare metal' : kind);

const bmFindOneBy = z
  .object({
    name: z.string().optional().describe('Exact cluster name (case-insensitive on the server).'),
    managedBies: z
      .array(z.enum(managedBies))
      .optional()
      .describe("Only clusters managed by these: 'k8s' (managed Kubernetes) or 'user'; the server defaults to user."),
  })
  .strict();

export const getCloudGpuBaremetalCluster = provcLookup({
  token: T('getCloudGpuBaremetalCluster'),
  args: z
    .object({
      ...scopeArgs,
      clusterId: uuidArg
        .optional()
        .describe('UUID of the GPU bare metal cluster. Exactly one of clusterId and findOneBy must be set.'),
      findOneBy: bmFindOneBy
        .optional()
        .describe(
          'Filters that must match exactly one cluster on the first page of results (then read by id). Exactly one of clusterId and findOneBy must be set.',
        ),
    })
    .describe('Reads one GPU bare metal cluster, by id or by filters that match exactly one.'),
  check: (a, c) => [...checkScope(a, c), ...exactlyOneOf(a, 'clusterId', 'findOneBy')],
  run: async (ctx, a) => {
    const s = requireScope(a, ctx.config);
    let id = a.clusterId;
    if (id === undefined) {
      const f = a.findOneBy ?? {};
      const page = await ctx.config.client.listGpuClusters(ctx, 'baremetal', s, {
        'name[exact]': f.name,
        managed_by: f.managedBies,
      });
      id = String(exactlyOne(T('getCloudGpuBaremetalCluster'), page.results, describeCriteria(f)).id);
    }
    return clusterShape('baremetal')(
      await getOne(T('getCloudGpuBaremetalCluster'), `clusterId=${id}`, () =>
        ctx.config.client.getGpuCluster(ctx, 'baremetal', s, id!),
      ),
      s,
    );
  },
});

const singleCluster = (kind: GpuKind, fn: string) =>
  provcLookup({
    token: T(fn),
    args: z
      .object({ ...scopeArgs, clusterId: uuidArg.describe(`UUID of the GPU ${words(kind)} cluster.`) })
      .describe(`Reads one GPU ${words(kind)} cluster by id.`),
    check: (a, c) => checkScope(a, c),
    run: async (ctx, a) => {
      const s = requireScope(a, ctx.config);
      return clusterShape(kind)(
        await getOne(T(fn), `clusterId=${a.clusterId}`, () =>
          ctx.config.client.getGpuCluster(ctx, kind, s, a.clusterId),
        ),
        s,
      );
    },
  });

const singleImage = (kind: GpuKind, fn: string) =>
  provcLookup({
    token: T(fn),
    args: z
      .object({ ...scopeArgs, imageId: uuidArg.describe(`UUID of the GPU ${words(kind)} cluster image.`) })
      .describe(`Reads one image for GPU ${words(kind)} clusters by id.`),
    check: (a, c) => checkScope(a, c),
    run: async (ctx, a) => {
      const s = requireScope(a, ctx.config);
      return imageShape(
        await getOne(T(fn), `imageId=${a.imageId}`, () => ctx.config.client.getGpuImage(ctx, kind, s, a.imageId)),
        s,
      );
    },
  });

export const getCloudGpuVirtualCluster = singleCluster('virtual', 'getCloudGpuVirtualCluster');
export const getCloudGpuBaremetalClusterImage = singleImage('baremetal', 'getCloudGpuBaremetalClusterImage');
export const getCloudGpuVirtualClusterImage = singleImage('virtual', 'getCloudGpuVirtualClusterImage');

export const getCloudGpuBaremetalClusters = provcLookup({
  token: T('getCloudGpuBaremetalClusters'),
  args: z
    .object({
      ...scopeArgs,
      managedBies: z
        .array(z.enum(managedBies))
        .optional()
        .describe("Only clusters managed by these: 'k8s' (managed Kubernetes) or 'user'; the server defaults to user."),
      maxItems: maxItemsArg,
    })
    .describe('Lists the GPU bare metal clusters of a project and region, up to maxItems.'),
  check: (a, c) => checkScope(a, c),
  run: async (ctx, a) => {
    const s = requireScope(a, ctx.config);
    const query = { managed_by: a.managedBies?.length ? a.managedBies : undefined };
    const items = await collectPages(
      (offset) => ctx.config.client.listGpuClusters(ctx, 'baremetal', s, { ...query, offset }),
      effectiveMax(a.maxItems),
    );
    return {
      ...a,
      items: items.map((w) => clusterShape('baremetal')(w, s)),
      id: listId(T('getCloudGpuBaremetalClusters'), a),
    };
  },
});

export const getCloudGpuVirtualClusters = provcLookup({
  token: T('getCloudGpuVirtualClusters'),
  args: z
    .object({ ...scopeArgs, maxItems: maxItemsArg })
    .describe('Lists the GPU virtual clusters of a project and region, up to maxItems.'),
  check: (a, c) => checkScope(a, c),
  run: async (ctx, a) => {
    const s = requireScope(a, ctx.config);
    const items = await collectPages(
      (offset) => ctx.config.client.listGpuClusters(ctx, 'virtual', s, { offset }),
      effectiveMax(a.maxItems),
    );
    return {
      ...a,
      items: items.map((w) => clusterShape('virtual')(w, s)),
      id: listId(T('getCloudGpuVirtualClusters'), a),
    };
  },
});
