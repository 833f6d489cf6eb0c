// CdnOriginGroup: the origins a CDN resource pulls from (host sources). Synchronous CDN CRUD:
// POST 201, PUT replaces, DELETE 204 (refused while a resource or rule uses it). Names are unique
// per account; find reads the CDN activity log for this create's POST since it started (origin
// groups have no creation time or free-text field: see ../support/activity.ts), never another stack's group.
import { z } from 'zod';
import type { ProvcContext } from '../config.js';
import type { CdnOriginGroup, CdnOriginGroupRequest } from '../wire/cdn.js';
import { originGroupShape } from '../lookups/cdn.js';
import { defineResource } from '../../../engine/provider/define.js';
import { cdnId, findCdnCreated } from './shared.js';
import { defined } from '../../../kit/wire.js';
import { orNull } from '../../../kit/gone.js';
import { readByGroup } from '../../../kit/read-many.js';

export const proxyNextUpstreamValues = [
  'error',
  'timeout',
  'invalid_header',
  'http_403',
  'http_404',
  'http_429',
  'http_500',
  'http_502',
  'http_503',
  'http_504',
] as const;

const source = z.object({
  source: z
    .string()
    .min(1)
    .max(255)
    .describe('Origin host name or IP address, optionally with a port (example.com, 203.0.113.5:8080).'),
  backup: z.boolean().default(false).describe('A backup origin, used only when the main (non-backup) origins fail.'),
  enabled: z
    .boolean()
    .default(true)
    .describe('Whether the CDN pulls from this origin; a disabled origin stays in the group unused.'),
  hostHeaderOverride: z
    .string()
    .max(255)
    .optional()
    .describe('Host header sent to this origin instead of the one of the request.'),
});

const inputs = z
  .object({
    name: z.string().min(1).max(255).describe('Origin group name, unique in the account.'),
    sources: z.array(source).min(1).describe('The origins (host sources) of the group; at least one.'),
    useNext: z
      .boolean()
      .default(false)
      .describe('Retry the request on the next origin when one fails in a way listed in proxyNextUpstreams.'),
    proxyNextUpstreams: z
      .array(z.enum(proxyNextUpstreamValues))
      .default(['error', 'timeout'])
      .describe(
        'Failures that send a request to the next origin when useNext is true: connection error, timeout, invalid header or an HTTP status.',
      ),
  })
  .describe(
    "The origins a CDN resource (or rule) pulls content from. DELETE is refused while a resource or rule uses the group. find reads the CDN activity log for this create's request, so another stack's group is never adopted.",
  );
type Inputs = z.output<typeof inputs>;

const outputs = z.object({
  originGroupId: z
    .number()
    .describe('Integer id of the origin group (the resource id); CDN resources and rules refer to it as originGroup.'),
  name: z.string().describe('Origin group name.'),
  hasRelatedResources: z.boolean().optional().describe('True while a CDN resource or rule uses the group.'),
  useNext: z.boolean().describe('Whether a failed request is retried on the next origin.'),
  proxyNextUpstreams: z.array(z.string()).describe('Failures that send a request to the next origin.'),
  auth: z
    .record(z.string(), z.unknown())
    .nullable()
    .describe('Deprecated S3 authentication settings; null for host origins.'),
  authType: z.string().nullable().describe("Deprecated: 'none' for host origins, 'awsSignatureV4' for S3 ones."),
  path: z.string().nullable().describe('Deprecated origin path prefix.'),
  sources: z
    .array(z.record(z.string(), z.unknown()))
    .describe('The origins as the API returns them (source, backup, enabled, host_header_override, origin_type, ...).'),
});

function toWire(i: Inputs): CdnOriginGroupRequest {
  return {
    name: i.name,
    sources: i.sources.map((s) =>
      defined({ source: s.source, backup: s.backup, enabled: s.enabled, host_header_override: s.hostHeaderOverride }),
    ),
    use_next: i.useNext,
    proxy_next_upstream: i.proxyNextUpstreams,
  };
}

function toInputs(w: CdnOriginGroup): Inputs {
  const sources = w.sources ?? [];
  return {
    name: w.name,
    sources: sources.map((s) => ({
      source: String(s.source),
      backup: Boolean(s.backup),
      enabled: s.enabled !== false,
      ...(typeof s.host_header_override === 'string' ? { hostHeaderOverride: s.host_header_override } : {}),
    })),
    useNext: Boolean(w.use_next),
    proxyNextUpstreams: (w.proxy_next_upstream as Inputs['proxyNextUpstreams'] | undefined) ?? ['error', 'timeout'],
  };
}

export const cdnOriginGroup = defineResource({
  token: 'provc:index/cdnOriginGroup:CdnOriginGroup',
  inputs,
  outputs,
  computedOnUpdate: ['hasRelatedResources', 'sources'],
  create: async (ctx: ProvcContext, i) => {
    const w = await ctx.config.client.createCdnOriginGroup(ctx, toWire(i));
    return { id: String(w.id), outputs: originGroupShape(w) };
  },
  read: async (ctx, id) => {
    const w = await orNull(() => ctx.config.client.getCdnOriginGroup(ctx, cdnId(id, 'origin group')));
    return w && { inputs: toInputs(w), outputs: originGroupShape(w) };
  },
  readMany: readByGroup({
    groupOf: () => '',
    list: (ctx) => ctx.config.client.allCdnOriginGroups(ctx),
    idOf: (w) => String(w.id),
    toResult: (w) => ({ inputs: toInputs(w), outputs: originGroupShape(w) }),
  }),
  update: async (ctx, id, _olds, news) => ({
    outputs: originGroupShape(
      await ctx.config.client.replaceCdnOriginGroup(ctx, cdnId(id, 'origin group'), toWire(news)),
    ),
  }),
  delete: async (ctx, id) => {
    await ctx.config.client.deleteCdnOriginGroup(ctx, cdnId(id, 'origin group'));
  },
  find: (ctx, i, hint) =>
    findCdnCreated(ctx, '/origin_groups', toWire(i), hint, async (id) => {
      const w = await ctx.config.client.getCdnOriginGroup(ctx, id);
      return { id: String(w.id), outputs: originGroupShape(w) };
    }),
  importId: (importId) => String(cdnId(importId, 'origin group')),
});
