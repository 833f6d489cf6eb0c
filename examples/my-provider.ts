// The README's "writing your own provider": a tiny provider over an in-memory "API", written with
// the same interface the shipped providers use. tests/examples/readme.test.ts runs it end to end.
// #region provider
import { z } from 'zod';
import {
  defineProvider,
  defineResource,
  defineLookup,
  resourceHelper,
  lookupHelper,
  LookupError,
  ProviderError,
  type OperationContext,
} from 'converge';

type Api = { buckets: Map<string, { region: string; versioning: boolean; madeBy?: string }> };

const bucket = defineResource({
  token: 'mine:index/bucket:Bucket',
  inputs: z.object({
    name: z.string().min(3),
    region: z.string().default('eu'),
    versioning: z.boolean().default(false),
  }),
  outputs: z.object({ url: z.string() }),
  replaceOn: ['name', 'region'], // a change here replaces the bucket
  secrets: [], // input or output paths never shown
  async create(ctx: OperationContext<Api>, inputs) {
    if (ctx.config.buckets.has(inputs.name)) {
      throw new ProviderError({
        provider: 'mine',
        operation: 'create bucket',
        status: 409,
        retryable: false,
        detail: 'taken',
      });
    }
    // The operation id lets find tell this create's bucket from one someone else made.
    ctx.config.buckets.set(inputs.name, {
      region: inputs.region,
      versioning: inputs.versioning,
      madeBy: ctx.operationId,
    });
    return { id: inputs.name, outputs: { url: `https://${inputs.name}.${inputs.region}.example` } };
  },
  async read(ctx, id) {
    // null: it is gone
    const b = ctx.config.buckets.get(id);
    return b
      ? {
          inputs: { name: id, region: b.region, versioning: b.versioning },
          outputs: { url: `https://${id}.${b.region}.example` },
        }
      : null;
  },
  async update(ctx, id, _olds, news) {
    ctx.config.buckets.set(id, { ...ctx.config.buckets.get(id)!, region: news.region, versioning: news.versioning });
    return { outputs: { url: `https://${id}.${news.region}.example` } };
  },
  async delete(ctx, id) {
    ctx.config.buckets.delete(id);
  },
  async find(ctx, inputs, hint) {
    // after a lost answer or a crash: did this create happen?
    const b = ctx.config.buckets.get(inputs.name); // never claim a bucket this create did not make
    return b?.madeBy === hint.operationId
      ? { id: inputs.name, outputs: { url: `https://${inputs.name}.${inputs.region}.example` } }
      : null;
  },
  importId: (id) => id,
});

const getBucket = defineLookup({
  token: 'mine:index/getBucket:getBucket',
  args: z.object({ name: z.string() }),
  async run(ctx: OperationContext<Api>, args) {
    const b = ctx.config.buckets.get(args.name);
    if (!b) throw new LookupError('mine:index/getBucket:getBucket', 'not_found', [], `name '${args.name}'`);
    return { name: args.name, region: b.region, versioning: b.versioning };
  },
});

export function mine(api: Api = { buckets: new Map() }) {
  return defineProvider({ name: 'mine', config: api, resources: [bucket], lookups: [getBucket] });
}
export const mineBucket = resourceHelper(bucket); // mineBucket('logs', { name: 'logs' })
export const mineGetBucket = lookupHelper(getBucket); // engine.lookup(mineGetBucket({ name: 'logs' }))
// #endregion provider
