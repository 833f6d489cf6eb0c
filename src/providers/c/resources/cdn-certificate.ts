// CdnCertificate: an SSL certificate for CDN resources (/cdn/sslData), either uploaded (certificate
// and private key, both secret and never returned by the API) or issued by Let's Encrypt
// (automated). find reads the CDN activity log for this create's POST since it started (certificates
// have no creation time or free text: ../support/activity.ts), so another stack's certificate is never found.
import { z } from 'zod';
import { ProviderError } from '../../../engine/errors.js';
import type { Ctx } from '../client.js';
import type { ProvcConfig, ProvcContext } from '../config.js';
import type { CdnCertificate, CdnCertificateRequest } from '../wire/cdn.js';
import { certificateShape } from '../lookups/cdn.js';
import { cdnId, certificateOutputFields, findCdnCreated } from './shared.js';
import { orNull } from '../../../kit/gone.js';
import { createdSince } from '../support/activity.js';
import { defineResource, isCannotTell } from '../../../engine/provider/define.js';
import { readByGroup } from '../../../kit/read-many.js';
import type { Prior, ReadResult } from '../../../engine/provider/define.js';

const inputs = z
  .object({
    name: z.string().min(1).describe('Certificate name, unique in the account.'),
    sslCertificate: z
      .string()
      .min(1)
      .optional()
      .describe(
        'PEM certificate chain to upload (secret; the API never returns it). Required unless automated is true, and must not be set when it is.',
      ),
    sslPrivateKey: z
      .string()
      .min(1)
      .optional()
      .describe(
        'PEM private key of the certificate (secret; the API never returns it). Required unless automated is true, and must not be set when it is.',
      ),
    validateRootCa: z
      .boolean()
      .default(false)
      .describe(
        'Ask the CDN to check that the uploaded chain leads to a trusted root CA. Not read back: the declared value is kept.',
      ),
    automated: z
      .boolean()
      .default(false)
      .describe(
        "Let Gcore issue and renew a Let's Encrypt certificate instead of uploading one. Changing it forces replacement; an automated certificate cannot be updated in place.",
      ),
  })
  .describe(
    "An SSL certificate for CDN resources (/cdn/sslData): either uploaded (certificate and private key, both secret) or issued by Let's Encrypt (automated). find reads the CDN activity log for this create's request, so another stack's certificate is never adopted.",
  );
type Inputs = z.output<typeof inputs>;

const outputs = z.object({
  sslId: z.number().describe('Integer id of the certificate (the resource id); CDN resources refer to it as sslData.'),
  name: z.string().describe('Certificate name.'),
  automated: z.boolean().optional().describe("True when Gcore issues the certificate through Let's Encrypt."),
  certIssuer: z.string().optional().describe('Issuer of the certificate.'),
  ...certificateOutputFields,
});

const outputsOf = (w: CdnCertificate) => ({ ...certificateShape(w), sslId: w.id });

function body(i: Inputs): CdnCertificateRequest {
  if (i.automated) return { name: i.name, automated: true };
  return {
    name: i.name,
    sslCertificate: i.sslCertificate,
    sslPrivateKey: i.sslPrivateKey,
    validate_root_ca: i.validateRootCa,
  };
}

/** The id a 2xx create without a body made: the activity log's entry of this POST (never a search by name). */
async function madeBy(
  ctx: Ctx & { operationId?: string },
  config: ProvcConfig,
  i: Inputs,
  startedAt: string,
): Promise<number | undefined> {
  const made = await createdSince(ctx, config.client, '/sslData', body(i), {
    startedAt,
    operationId: ctx.operationId ?? '',
  });
  return made && !isCannotTell(made) ? made.id : undefined;
}

/** What read answers for a listed or fetched object. */
function certificateResult(w: CdnCertificate, prior: Prior): ReadResult {
  const old = prior.inputs as Partial<Inputs>;
  const readInputs: Record<string, unknown> = {
    name: w.name,
    automated: Boolean(w.automated),
    validateRootCa: old.validateRootCa ?? false,
  };
  if (old.sslCertificate !== undefined) readInputs.sslCertificate = old.sslCertificate;
  if (old.sslPrivateKey !== undefined) readInputs.sslPrivateKey = old.sslPrivateKey;
  return { inputs: readInputs, outputs: outputsOf(w) };
}

export const cdnCertificate = defineResource({
  token: 'provc:index/cdnCertificate:CdnCertificate',
  inputs,
  outputs,
  secrets: ['sslCertificate', 'sslPrivateKey'],
  replaceOn: ['automated'],
  computedOnUpdate: [
    'certIssuer',
    'certSubjectCn',
    'certSubjectAlt',
    'validityNotBefore',
    'validityNotAfter',
    'sslCertificateChain',
  ],
  check: (i) =>
    i.automated
      ? (['sslCertificate', 'sslPrivateKey'] as const)
          .filter((k) => i[k] !== undefined)
          .map((k) => ({
            path: [k],
            code: 'invalid_value',
            message: `${k} must not be set for an automated certificate`,
          }))
      : (['sslCertificate', 'sslPrivateKey'] as const)
          .filter((k) => i[k] === undefined)
          .map((k) => ({ path: [k], code: 'invalid_value', message: `${k} is required unless automated is true` })),
  create: async (ctx: ProvcContext, i) => {
    const startedAt = new Date().toISOString();
    const answer = await ctx.config.client.createCdnCertificate(ctx, body(i));
    // The POST answer (when there is one) says deleted: true; the object itself is read back.
    const id = typeof answer?.id === 'number' ? answer.id : await madeBy(ctx, ctx.config, i, startedAt);
    if (typeof id !== 'number') {
      throw new ProviderError({
        provider: 'provc',
        operation: 'create CDN certificate',
        retryable: false,
        outcomeUnknown: true,
        detail: `certificate '${i.name}' was accepted but the answer does not say which it is`,
      });
    }
    return { id: String(id), outputs: outputsOf(await ctx.config.client.getCdnCertificate(ctx, id)) };
  },
  read: async (ctx, id, prior) => {
    const w = await orNull(() => ctx.config.client.getCdnCertificate(ctx, cdnId(id, 'certificate')));
    return w ? certificateResult(w, prior) : null;
  },
  readMany: readByGroup({
    groupOf: () => '',
    list: (ctx) => ctx.config.client.allCdnCertificates(ctx),
    idOf: (w) => String(w.id),
    toResult: (w, prior) => certificateResult(w, prior),
  }),
  update: async (ctx, id, _olds, news) => {
    if (news.automated)
      throw new ProviderError({
        provider: 'provc',
        operation: 'update CDN certificate',
        retryable: false,
        detail: 'an automated certificate cannot be changed in place; replace it instead',
      });
    return {
      outputs: outputsOf(await ctx.config.client.replaceCdnCertificate(ctx, cdnId(id, 'certificate'), body(news))),
    };
  },
  delete: async (ctx, id) => {
    await ctx.config.client.deleteCdnCertificate(ctx, cdnId(id, 'certificate'));
  },
  find: (ctx, i, hint) =>
    findCdnCreated(ctx, '/sslData', body(i), hint, async (id) => ({
      id: String(id),
      outputs: outputsOf(await ctx.config.client.getCdnCertificate(ctx, id)),
    })),
  importId: (importId) => String(cdnId(importId, 'certificate')),
});
