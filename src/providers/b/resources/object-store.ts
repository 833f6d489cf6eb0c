// provb:index/objectStore:ObjectStore: an S3-compatible bucket (creating → ready). Its size limit
// updates in place; name, region and owning credential force replacement.
import { z } from 'zod';
import { defineResource } from '../../../engine/provider/define.js';
import { isCannotTell } from '../../../engine/provider/define.js';
import { claim } from './claim.js';
import type { ProvbConfig, ProvbContext } from '../config.js';
import type * as W from '../wire/objects.js';
import { orNull } from '../../../kit/gone.js';
import { checkRegion, priorRegion, regionOf } from '../support/region.js';
import { afterCreated, waitUntil } from '../support/wait.js';
import { reporter } from './reported.js';
import { defined } from '../../../kit/wire.js';
import type { Prior, ReadResult } from '../../../engine/provider/define.js';
import { readByRegion } from './read-many.js';

export const objectStoreInputs = z
  .strictObject({
    name: z
      .string()
      .min(1)
      .max(63)
      .regex(/^\S+$/, 'must not contain whitespace')
      .describe('Bucket name, at most 63 characters, no whitespace. Changing it forces replacement.'),
    maxSizeGb: z.number().int().positive().default(500).describe('Size limit in GB; default 500. Updates in place.'),
    region: z
      .string()
      .optional()
      .describe("Civo region code (e.g. LON1); defaults to the provider's region. Changing it forces replacement."),
    /** An existing credential's access key; a new credential is made when omitted. */
    accessKeyId: z
      .string()
      .optional()
      .describe(
        'Access key id of an existing object store credential to own the bucket; a new credential is made when omitted. Changing it forces replacement.',
      ),
  })
  .describe('An S3-compatible object store bucket (creating → ready). Its size limit updates in place.');
type ObjectStoreInputs = z.output<typeof objectStoreInputs>;

export const objectStoreOutputs = z.object({
  objectStoreId: z.string().describe('Id of the object store (the resource id).'),
  accessKeyId: z
    .string()
    .describe('Access key id of the owning credential; usable as the id of getObjectStoreCredential.'),
  bucketUrl: z.string().describe('Endpoint URL of the bucket.'),
  status: z.string().describe('Object store status, e.g. `ready`.'),
});

const outputsOf = (o: W.ObjectStore) => ({
  objectStoreId: o.id,
  accessKeyId: o.owner_info?.access_key_id ?? '',
  bucketUrl: o.objectstore_endpoint ?? '',
  status: o.status,
});

const waitReady = (ctx: ProvbContext, region: string, id: string) =>
  waitUntil(
    ctx,
    'objectStore',
    `object store ${id} to be ready`,
    () => ctx.config.client.getObjectStore(ctx, region, id),
    (o) => o.status === 'ready',
    (o) => o.status,
  );

/** What read answers for a listed or fetched object. */
function objectStoreResult(o: W.ObjectStore, prior: Prior): ReadResult {
  const r = reporter(prior);
  const inputs: ObjectStoreInputs = defined({
    name: o.name,
    maxSizeGb: o.max_size,
    region: r.kept<string>('region'),
    accessKeyId: r.computed('accessKeyId', o.owner_info?.access_key_id),
  });
  return { inputs, outputs: outputsOf(o) };
}

export const objectStore = defineResource({
  token: 'provb:index/objectStore:ObjectStore',
  inputs: objectStoreInputs,
  outputs: objectStoreOutputs,
  replaceOn: ['name', 'region', 'accessKeyId'],
  computedOnUpdate: ['status'],
  check: (inputs, config: ProvbConfig) => checkRegion(inputs, config),
  existing: async (ctx, inputs) => {
    const region = regionOf(ctx, inputs);
    return (await ctx.config.client.listObjectStores(ctx, region))
      .filter((x) => x.name === inputs.name)
      .map((x) => x.id);
  },
  create: async (ctx, inputs) => {
    const region = regionOf(ctx, inputs);
    const o = await ctx.config.client.createObjectStore(
      ctx,
      region,
      defined({ name: inputs.name, max_size_gb: inputs.maxSizeGb, access_key_id: inputs.accessKeyId }),
    );
    return { id: o.id, outputs: outputsOf(await afterCreated(ctx, o.id, () => waitReady(ctx, region, o.id))) };
  },
  read: async (ctx, id, prior) => {
    const o = await orNull(() => ctx.config.client.getObjectStore(ctx, priorRegion(ctx, prior), id));
    return o ? objectStoreResult(o, prior) : null;
  },
  readMany: readByRegion(
    (ctx, region) => ctx.config.client.listObjectStores(ctx, region),
    (w, prior) => objectStoreResult(w, prior),
  ),
  update: async (ctx, id, _olds, news) => ({
    outputs: outputsOf(await ctx.config.client.resizeObjectStore(ctx, regionOf(ctx, news), id, news.maxSizeGb)),
  }),
  delete: async (ctx, id, prior) => {
    await ctx.config.client.deleteObjectStore(ctx, priorRegion(ctx, prior), id);
  },
  // find: the object stores so named that did not exist when the create sent its request (claim.ts).
  find: async (ctx, inputs, hint) => {
    const region = regionOf(ctx, inputs);
    const o = claim(
      hint,
      (await ctx.config.client.listObjectStores(ctx, region)).filter((x) => x.name === inputs.name),
      { what: `object store '${inputs.name}'` },
    );
    return !o || isCannotTell(o)
      ? o
      : { id: o.id, outputs: outputsOf(await afterCreated(ctx, o.id, () => waitReady(ctx, region, o.id))) };
  },
  importId: (id) => id,
});
