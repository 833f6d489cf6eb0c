// CDN lookups: one GET by integer id each. Outputs are the seed's camelCase fields; `options`
// keeps the vendor's option names, and a resource's `rules` are JSON strings (as upstream keeps them).
import { z } from 'zod';
import type { Wire } from '../client.js';
import { camelize, SEED_FIELDS, withSeedFields } from '../support/shape.js';
import { getOne, provcLookup } from './shared.js';

const id = z.number().int().positive();
const T = (fn: string) => `provc:index/${fn}:${fn}`;

export const certificateShape = (w: Wire) =>
  withSeedFields({ ...(camelize(w) as Record<string, unknown>), sslId: w.id }, SEED_FIELDS.cdnCertificate);
export const caCertificateShape = (w: Wire) =>
  withSeedFields(camelize(w) as Record<string, unknown>, SEED_FIELDS.cdnTrustedCaCertificate);

/** `auth` (deprecated) exists only for S3-signature groups; host-origin groups have it as null. */
export function originGroupShape(w: Wire): Record<string, unknown> {
  const { proxyNextUpstream, ...rest } = camelize(w) as Record<string, unknown>;
  return withSeedFields(
    { ...rest, proxyNextUpstreams: proxyNextUpstream ?? [], originGroupId: w.id },
    SEED_FIELDS.cdnOriginGroup,
  );
}

export function resourceShape(w: Wire): Record<string, unknown> {
  const out = camelize(w, { opaque: ['options', 'rules'] }) as Record<string, unknown>;
  return withSeedFields(
    { ...out, rules: Array.isArray(w.rules) ? w.rules.map((r) => JSON.stringify(r)) : [], resourceId: w.id },
    SEED_FIELDS.cdnResource,
  );
}

/** overrideOriginProtocol null means the rule inherits the resource's protocol: it is kept as null. */
export const ruleShape = (w: Wire, resourceId: number) =>
  withSeedFields(
    { ...(camelize(w, { opaque: ['options'] }) as Record<string, unknown>), resourceId, ruleId: w.id },
    SEED_FIELDS.cdnResourceRule,
  );
export const ruleTemplateShape = (w: Wire) =>
  withSeedFields(
    { ...(camelize(w, { opaque: ['options'] }) as Record<string, unknown>), ruleTemplateId: w.id },
    SEED_FIELDS.cdnRuleTemplate,
  );

export const getCdnCertificate = provcLookup({
  token: T('getCdnCertificate'),
  args: z
    .object({ sslId: id.describe('Integer id of the CDN certificate (/cdn/sslData).') })
    .describe('Reads one CDN SSL certificate by id.'),
  run: async (ctx, a) =>
    certificateShape(
      await getOne(T('getCdnCertificate'), `sslId=${a.sslId}`, () => ctx.config.client.getCdnCertificate(ctx, a.sslId)),
    ),
});

export const getCdnOriginGroup = provcLookup({
  token: T('getCdnOriginGroup'),
  args: z
    .object({ originGroupId: id.describe('Integer id of the CDN origin group.') })
    .describe('Reads one CDN origin group by id.'),
  run: async (ctx, a) =>
    originGroupShape(
      await getOne(T('getCdnOriginGroup'), `originGroupId=${a.originGroupId}`, () =>
        ctx.config.client.getCdnOriginGroup(ctx, a.originGroupId),
      ),
    ),
});

export const getCdnResource = provcLookup({
  token: T('getCdnResource'),
  args: z
    .object({ resourceId: id.describe('Integer id of the CDN resource.') })
    .describe('Reads one CDN resource by id.'),
  run: async (ctx, a) =>
    resourceShape(
      await getOne(T('getCdnResource'), `resourceId=${a.resourceId}`, () =>
        ctx.config.client.getCdnResource(ctx, a.resourceId),
      ),
    ),
});

export const getCdnResourceRule = provcLookup({
  token: T('getCdnResourceRule'),
  args: z
    .object({
      resourceId: id.describe('Integer id of the CDN resource the rule belongs to.'),
      ruleId: id.describe('Integer id of the rule within that resource.'),
    })
    .describe('Reads one rule of a CDN resource by ids.'),
  run: async (ctx, a) =>
    ruleShape(
      await getOne(T('getCdnResourceRule'), `resourceId=${a.resourceId}, ruleId=${a.ruleId}`, () =>
        ctx.config.client.getCdnRule(ctx, a.resourceId, a.ruleId),
      ),
      a.resourceId,
    ),
});

export const getCdnRuleTemplate = provcLookup({
  token: T('getCdnRuleTemplate'),
  args: z
    .object({ ruleTemplateId: id.describe('Integer id of the CDN rule template.') })
    .describe('Reads one CDN rule template by id.'),
  run: async (ctx, a) =>
    ruleTemplateShape(
      await getOne(T('getCdnRuleTemplate'), `ruleTemplateId=${a.ruleTemplateId}`, () =>
        ctx.config.client.getCdnRuleTemplate(ctx, a.ruleTemplateId),
      ),
    ),
});

export const getCdnTrustedCaCertificate = provcLookup({
  token: T('getCdnTrustedCaCertificate'),
  args: z
    .object({ id: id.describe('Integer id of the trusted CA certificate (/cdn/sslCertificates).') })
    .describe('Reads one trusted CA certificate of the CDN by id.'),
  run: async (ctx, a) =>
    caCertificateShape(
      await getOne(T('getCdnTrustedCaCertificate'), `id=${a.id}`, () =>
        ctx.config.client.getCdnCaCertificate(ctx, a.id),
      ),
    ),
});

export const cdnLookups = [
  getCdnCertificate,
  getCdnOriginGroup,
  getCdnResource,
  getCdnResourceRule,
  getCdnRuleTemplate,
  getCdnTrustedCaCertificate,
] as const;
