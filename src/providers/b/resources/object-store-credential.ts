// provb:index/objectStoreCredential:ObjectStoreCredential: an object-store access key pair
// (pending → ready). The keys update in place; name and region force replacement. The secret key
// (`secret_access_key_id` on the wire) is a secret here, unlike upstream.
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

export const credentialInputs = z
  .strictObject({
    name: z.string().min(1).describe('Name of the credential. Changing it forces replacement.'),
    region: z
      .string()
      .optional()
      .describe("Civo region code (e.g. LON1); defaults to the provider's region. Changing it forces replacement."),
    accessKeyId: z.string().optional().describe('Access key id to use; generated when omitted. Updates in place.'),
    secretAccessKey: z
      .string()
      .optional()
      .describe('Secret access key to use (secret); generated when omitted. Updates in place.'),
  })
  .describe('An object store access key pair (pending → ready). The keys update in place.');
type CredentialInputs = z.output<typeof credentialInputs>;

export const credentialOutputs = z.object({
  objectStoreCredentialId: z.string().describe('Id of the credential (the resource id).'),
  accessKeyId: z.string().describe('The access key id.'),
  secretAccessKey: z.string().describe('The secret access key (secret).'),
  status: z.string().describe('Credential status, e.g. `ready`.'),
});

const outputsOf = (c: W.ObjectStoreCredential) => ({
  objectStoreCredentialId: c.id,
  accessKeyId: c.access_key_id ?? '',
  secretAccessKey: c.secret_access_key_id ?? '',
  status: c.status,
});

const waitReady = (ctx: ProvbContext, region: string, id: string) =>
  waitUntil(
    ctx,
    'credential',
    `credential ${id} to be ready`,
    () => ctx.config.client.getCredential(ctx, region, id),
    (c) => c.status === 'ready',
    (c) => c.status,
  );

/** What read answers for a listed or fetched object. */
function credentialResult(c: W.ObjectStoreCredential, prior: Prior): ReadResult {
  const r = reporter(prior);
  const inputs: CredentialInputs = defined({
    name: c.name,
    region: r.kept<string>('region'),
    accessKeyId: r.computed('accessKeyId', c.access_key_id),
    secretAccessKey: r.computed('secretAccessKey', c.secret_access_key_id),
  });
  return { inputs, outputs: outputsOf(c) };
}

export const objectStoreCredential = defineResource({
  token: 'provb:index/objectStoreCredential:ObjectStoreCredential',
  inputs: credentialInputs,
  outputs: credentialOutputs,
  replaceOn: ['name', 'region'],
  secrets: ['secretAccessKey'],
  computedOnUpdate: ['accessKeyId', 'secretAccessKey', 'status'],
  check: (inputs, config: ProvbConfig) => checkRegion(inputs, config),
  existing: async (ctx, inputs) => {
    const region = regionOf(ctx, inputs);
    return (await ctx.config.client.listCredentials(ctx, region))
      .filter((x) => x.name === inputs.name)
      .map((x) => x.id);
  },
  create: async (ctx, inputs) => {
    const region = regionOf(ctx, inputs);
    const c = await ctx.config.client.createCredential(ctx, region, {
      name: inputs.name,
      access_key_id: inputs.accessKeyId ?? null,
      secret_access_key_id: inputs.secretAccessKey ?? null,
    });
    return { id: c.id, outputs: outputsOf(await afterCreated(ctx, c.id, () => waitReady(ctx, region, c.id))) };
  },
  read: async (ctx, id, prior) => {
    const c = await orNull(() => ctx.config.client.getCredential(ctx, priorRegion(ctx, prior), id));
    return c ? credentialResult(c, prior) : null;
  },
  readMany: readByRegion(
    (ctx, region) => ctx.config.client.listCredentials(ctx, region),
    (w, prior) => credentialResult(w, prior),
  ),
  update: async (ctx, id, _olds, news) => {
    const c = await ctx.config.client.updateCredential(ctx, regionOf(ctx, news), id, {
      access_key_id: news.accessKeyId ?? null,
      secret_access_key_id: news.secretAccessKey ?? null,
    });
    return { outputs: outputsOf(c) };
  },
  delete: async (ctx, id, prior) => {
    await ctx.config.client.deleteCredential(ctx, priorRegion(ctx, prior), id);
  },
  // find: the credentials so named that did not exist when the create sent its request (claim.ts).
  find: async (ctx, inputs, hint) => {
    const region = regionOf(ctx, inputs);
    const c = claim(
      hint,
      (await ctx.config.client.listCredentials(ctx, region)).filter((x) => x.name === inputs.name),
      { what: `object store credential '${inputs.name}'` },
    );
    return !c || isCannotTell(c) ? c : { id: c.id, outputs: outputsOf(await waitReady(ctx, region, c.id)) };
  },
  importId: (id) => id,
});
