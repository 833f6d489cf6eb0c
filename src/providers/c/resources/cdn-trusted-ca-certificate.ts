// CdnTrustedCaCertificate: a CA certificate CDN resources use to verify their origins
// (/cdn/sslCertificates — not /cdn/sslData). Only the name can change in place; a new
// certificate replaces the object. find reads the CDN activity log for this create's POST since it
// started (../support/activity.ts), so a CA certificate of the same name made by someone else is never found.
import { z } from 'zod';
import type { ProvcContext } from '../config.js';
import type { CdnCaCertificate } from '../wire/cdn.js';
import { caCertificateShape } from '../lookups/cdn.js';
import { cdnId, certificateOutputFields, findCdnCreated } from './shared.js';
import { orNull } from '../../../kit/gone.js';
import { readByGroup } from '../../../kit/read-many.js';
import { defineResource, type Prior, type ReadResult } from '../../../engine/provider/define.js';

const inputs = z
  .object({
    name: z.string().min(1).describe('Name of the CA certificate; the only field that changes in place.'),
    sslCertificate: z
      .string()
      .min(1)
      .describe('PEM CA certificate used to verify origins. Changing it forces replacement.'),
  })
  .describe(
    "A trusted CA certificate (/cdn/sslCertificates, not /cdn/sslData) that CDN resources use to verify their origins over HTTPS (proxySslCa). find reads the CDN activity log for this create's request, so a same-named certificate made by someone else is never adopted.",
  );

const outputs = z.object({
  name: z.string().describe('Name of the CA certificate.'),
  certIssuer: z.string().optional().describe('Issuer of the CA certificate.'),
  ...certificateOutputFields,
});

const outputsOf = (w: CdnCaCertificate) => caCertificateShape(w);

/** What read answers for a listed or fetched object. */
function caCertificateResult(w: CdnCaCertificate, prior: Prior): ReadResult {
  const old = prior.inputs as { sslCertificate?: string };
  return {
    inputs: { name: w.name, sslCertificate: old.sslCertificate ?? w.sslCertificateChain },
    outputs: outputsOf(w),
  };
}

export const cdnTrustedCaCertificate = defineResource({
  token: 'provc:index/cdnTrustedCaCertificate:CdnTrustedCaCertificate',
  inputs,
  outputs,
  replaceOn: ['sslCertificate'],
  create: async (ctx: ProvcContext, i) => {
    const w = await ctx.config.client.createCdnCaCertificate(ctx, { name: i.name, sslCertificate: i.sslCertificate });
    return { id: String(w.id), outputs: outputsOf(w) };
  },
  read: async (ctx, id, prior) => {
    const w = await orNull(() => ctx.config.client.getCdnCaCertificate(ctx, cdnId(id, 'CA certificate')));
    return w ? caCertificateResult(w, prior) : null;
  },
  readMany: readByGroup({
    groupOf: () => '',
    list: (ctx) => ctx.config.client.allCdnCaCertificates(ctx),
    idOf: (w) => String(w.id),
    toResult: (w, prior) => caCertificateResult(w, prior),
  }),
  update: async (ctx, id, _olds, news) => ({
    outputs: outputsOf(
      await ctx.config.client.replaceCdnCaCertificate(ctx, cdnId(id, 'CA certificate'), { name: news.name }),
    ),
  }),
  delete: async (ctx, id) => {
    await ctx.config.client.deleteCdnCaCertificate(ctx, cdnId(id, 'CA certificate'));
  },
  find: (ctx, i, hint) =>
    findCdnCreated(ctx, '/sslCertificates', { name: i.name, sslCertificate: i.sslCertificate }, hint, async (id) => {
      const w = await ctx.config.client.getCdnCaCertificate(ctx, id);
      return { id: String(w.id), outputs: outputsOf(w) };
    }),
  importId: (importId) => String(cdnId(importId, 'CA certificate')),
});
