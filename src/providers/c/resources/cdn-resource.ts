// CdnResource: a CDN delivery domain (cname) in front of an origin group (or one origin host).
// PUT replaces the settings; a resource must be deactivated before DELETE, so delete first turns
// it off. find reads the CDN activity log for this create's POST since it started (../support/activity.ts),
// so a resource someone else made with the same cname is never found. Options keep the vendor's
// option names; unset (null) options are left out of the inputs.
import { z } from 'zod';
import type { Ctx } from '../client.js';
import type { ProvcConfig, ProvcContext } from '../config.js';
import type { CdnResource, CdnResourceRequest, CdnResourceSettings } from '../wire/cdn.js';
import { defineResource } from '../../../engine/provider/define.js';
import { resourceShape } from '../lookups/cdn.js';
import { cdnId, findCdnCreated, setOptions } from './shared.js';
import { defined } from '../../../kit/wire.js';
import { orNull } from '../../../kit/gone.js';
import { readByGroup } from '../../../kit/read-many.js';

const protocols = ['HTTP', 'HTTPS', 'MATCH'] as const;

const inputs = z
  .object({
    cname: z
      .string()
      .min(1)
      .max(255)
      .describe(
        'Delivery domain of the resource (cdn.example.com); unique across the CDN. Changing it forces replacement.',
      ),
    originGroup: z
      .number()
      .int()
      .positive()
      .optional()
      .describe('Id of the origin group to pull content from. Exactly one of originGroup and origin must be set.'),
    origin: z
      .string()
      .min(1)
      .optional()
      .describe(
        'A single origin host (or IP) instead of an origin group; the CDN makes a group for it. Exactly one of originGroup and origin must be set; changing it forces replacement.',
      ),
    originProtocol: z
      .enum(protocols)
      .default('HTTP')
      .describe(
        'Protocol the CDN uses to reach the origin; MATCH uses the protocol of the request (the origin must serve both).',
      ),
    name: z.string().optional().describe('Optional display name of the resource.'),
    description: z.string().default('').describe('Free-text description of the resource.'),
    active: z
      .boolean()
      .default(true)
      .describe(
        'Whether the resource delivers content; delete switches it off first, as the API refuses to delete an active resource.',
      ),
    secondaryHostnames: z
      .array(z.string())
      .default([])
      .describe('Additional delivery domains (CNAMEs) of the resource.'),
    sslEnabled: z
      .boolean()
      .default(false)
      .describe('Deliver content over HTTPS, with the certificate given in sslData.'),
    sslData: z
      .number()
      .int()
      .positive()
      .optional()
      .describe('Id of the CDN certificate (CdnCertificate sslId) used for HTTPS delivery.'),
    proxySslEnabled: z
      .boolean()
      .default(false)
      .describe("Verify the origin's SSL certificate before connecting to it over HTTPS."),
    proxySslCa: z
      .number()
      .int()
      .positive()
      .optional()
      .describe(
        'Id of the trusted CA certificate (CdnTrustedCaCertificate) that verifies the origin; used only with proxySslEnabled.',
      ),
    proxySslData: z
      .number()
      .int()
      .positive()
      .optional()
      .describe('Id of the SSL certificate used to verify the origin; used only with proxySslEnabled.'),
    options: z
      .record(z.string(), z.unknown())
      .default({})
      .describe(
        "CDN options by the vendor's names, each an object with enabled and its payload ({ gzipOn: { enabled: true, value: true } }); options not set are left out.",
      ),
  })
  .describe(
    "A CDN resource: a delivery domain (cname) in front of an origin group or one origin host. Updates replace the settings (PUT); delete deactivates it first. find reads the CDN activity log for this create's request, so a resource someone else made with the same cname is never adopted.",
  );
type Inputs = z.output<typeof inputs>;

const outputs = z.object({
  resourceId: z.number().describe('Integer id of the CDN resource (the resource id); rules refer to it.'),
  cname: z.string().describe('Delivery domain of the resource.'),
  originGroup: z.number().describe('Id of the origin group in use (the one made for origin, when origin was given).'),
  originGroupName: z.string().optional().describe('Name of the origin group in use.'),
  status: z.string().describe("Resource status: 'active', 'processed', 'suspended' or 'deleted'."),
  enabled: z.boolean().optional().describe('Whether the account may use the resource (set by Gcore, read-only).'),
  client: z.number().optional().describe('Id of the account that owns the resource.'),
  created: z.string().optional().describe('Creation time, an ISO 8601 timestamp.'),
  updated: z.string().optional().describe('Time of the last change, an ISO 8601 timestamp.'),
  rules: z.array(z.string()).describe("The resource's rules, each as a JSON string (as the API returns them)."),
  options: z
    .record(z.string(), z.unknown())
    .optional()
    .describe("All CDN options as the API returns them, by the vendor's names (null for an option not set)."),
});

function settings(i: Inputs, originGroup: number | undefined): CdnResourceSettings {
  return defined({
    originGroup,
    originProtocol: i.originProtocol,
    name: i.name,
    description: i.description,
    active: i.active,
    secondaryHostnames: i.secondaryHostnames,
    sslEnabled: i.sslEnabled,
    sslData: i.sslData,
    proxy_ssl_enabled: i.proxySslEnabled,
    proxy_ssl_ca: i.proxySslCa,
    proxy_ssl_data: i.proxySslData,
    options: i.options,
  });
}

const orUndef = <T>(v: T | null | undefined) => (v === null ? undefined : v);

function toInputs(w: CdnResource, prior: Partial<Inputs>): Partial<Inputs> {
  return defined({
    cname: w.cname,
    ...(prior.origin !== undefined ? { origin: prior.origin } : { originGroup: w.originGroup }),
    originProtocol: w.originProtocol as Inputs['originProtocol'],
    name: orUndef(w.name),
    description: w.description ?? '',
    active: w.active,
    secondaryHostnames: w.secondaryHostnames ?? [],
    sslEnabled: Boolean(w.sslEnabled),
    sslData: orUndef(w.sslData),
    proxySslEnabled: Boolean(w.proxy_ssl_enabled),
    proxySslCa: orUndef(w.proxy_ssl_ca),
    proxySslData: orUndef(w.proxy_ssl_data),
    options: setOptions(w.options),
  });
}

const createBody = (i: Inputs): CdnResourceRequest => ({
  cname: i.cname,
  ...settings(i, i.originGroup),
  ...(i.origin !== undefined ? { origin: i.origin } : {}),
});

async function deactivate(ctx: Ctx, config: ProvcConfig, id: number): Promise<void> {
  const w = await config.client.getCdnResource(ctx, id);
  if (!w.active) return;
  await config.client.replaceCdnResource(ctx, id, {
    ...settings({ ...(toInputs(w, {}) as Inputs), options: setOptions(w.options) }, w.originGroup),
    active: false,
  });
}

export const cdnResource = defineResource({
  token: 'provc:index/cdnResource:CdnResource',
  inputs,
  outputs,
  replaceOn: ['cname', 'origin'],
  computedOnUpdate: ['updated', 'originGroupName', 'options', 'rules', 'status', 'enabled'],
  check: (i) =>
    (i.originGroup === undefined) === (i.origin === undefined)
      ? [
          {
            path: [i.originGroup === undefined ? 'originGroup' : 'origin'],
            code: 'invalid_value',
            message: 'exactly one of originGroup and origin must be set',
          },
        ]
      : [],
  create: async (ctx: ProvcContext, i) => {
    const w = await ctx.config.client.createCdnResource(ctx, createBody(i));
    return { id: String(w.id), outputs: resourceShape(w) };
  },
  read: async (ctx, id, prior) => {
    const w = await orNull(() => ctx.config.client.getCdnResource(ctx, cdnId(id, 'CDN resource')));
    return w && { inputs: toInputs(w, prior.inputs as Partial<Inputs>), outputs: resourceShape(w) };
  },
  readMany: readByGroup({
    groupOf: () => '',
    list: (ctx) => ctx.config.client.allCdnResources(ctx),
    idOf: (w) => String(w.id),
    toResult: (w, prior) => ({ inputs: toInputs(w, prior.inputs as Partial<Inputs>), outputs: resourceShape(w) }),
  }),
  update: async (ctx, id, olds, news) => {
    const originGroup = news.originGroup ?? (olds.outputs as { originGroup?: number }).originGroup;
    return {
      outputs: resourceShape(
        await ctx.config.client.replaceCdnResource(ctx, cdnId(id, 'CDN resource'), settings(news, originGroup)),
      ),
    };
  },
  delete: async (ctx, id) => {
    const n = cdnId(id, 'CDN resource');
    await deactivate(ctx, ctx.config, n);
    await ctx.config.client.deleteCdnResource(ctx, n);
  },
  find: (ctx, i, hint) =>
    findCdnCreated(ctx, '/resources', createBody(i), hint, async (id) => {
      const w = await ctx.config.client.getCdnResource(ctx, id);
      return { id: String(w.id), outputs: resourceShape(w) };
    }),
  importId: (importId) => String(cdnId(importId, 'CDN resource')),
});
