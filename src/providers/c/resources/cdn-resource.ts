// CdnResource: a CDN delivery domain (cname) in front of an origin group (or one origin host).
// PUT replaces the settings; a resource must be deactivated before DELETE, so delete first turns
// it off. find reads the CDN activity log for this create's POST since it started (../activity.ts),
// so a resource someone else made with the same cname is never found. Options keep the vendor's
// option names; unset (null) options are left out of the inputs.
import { z } from 'zod';
import type { Ctx, ProvcConfig, Wire } from '../client.js';
import { resourceShape } from '../lookups/cdn.js';
import { cdnId, defined, findCdnCreated, ignoreGone, orNull, provcResource } from './shared.js';

const protocols = ['HTTP', 'HTTPS', 'MATCH'] as const;

const inputs = z.object({
  cname: z.string().min(1).max(255),
  originGroup: z.number().int().positive().optional(),
  origin: z.string().min(1).optional(),
  originProtocol: z.enum(protocols).default('HTTP'),
  name: z.string().optional(),
  description: z.string().default(''),
  active: z.boolean().default(true),
  secondaryHostnames: z.array(z.string()).default([]),
  sslEnabled: z.boolean().default(false),
  sslData: z.number().int().positive().optional(),
  proxySslEnabled: z.boolean().default(false),
  proxySslCa: z.number().int().positive().optional(),
  proxySslData: z.number().int().positive().optional(),
  /** CDN options by the vendor's names ({ gzipOn: { enabled: true, value: true } }). */
  options: z.record(z.string(), z.unknown()).default({}),
});
type Inputs = z.output<typeof inputs>;

const outputs = z.object({
  resourceId: z.number(), cname: z.string(), originGroup: z.number(), originGroupName: z.string().optional(), status: z.string(),
  enabled: z.boolean().optional(), client: z.number().optional(), created: z.string().optional(), updated: z.string().optional(),
  rules: z.array(z.string()), options: z.record(z.string(), z.unknown()).optional(),
});

function settings(i: Inputs, originGroup: number | undefined): Wire {
  return defined({
    originGroup, originProtocol: i.originProtocol, name: i.name, description: i.description, active: i.active,
    secondaryHostnames: i.secondaryHostnames, sslEnabled: i.sslEnabled, sslData: i.sslData,
    proxy_ssl_enabled: i.proxySslEnabled, proxy_ssl_ca: i.proxySslCa, proxy_ssl_data: i.proxySslData, options: i.options,
  });
}

const setOptions = (o: unknown) => Object.fromEntries(Object.entries((o ?? {}) as Record<string, unknown>).filter(([, v]) => v !== null && v !== undefined));
const orUndef = <T>(v: T | null | undefined) => (v === null ? undefined : v);

function toInputs(w: Wire, prior: Partial<Inputs>): Partial<Inputs> {
  return defined({
    cname: w.cname as string,
    ...(prior.origin !== undefined ? { origin: prior.origin } : { originGroup: w.originGroup as number }),
    originProtocol: w.originProtocol as Inputs['originProtocol'], name: orUndef(w.name as string | null), description: (w.description as string) ?? '',
    active: w.active as boolean, secondaryHostnames: (w.secondaryHostnames as string[]) ?? [], sslEnabled: Boolean(w.sslEnabled),
    sslData: orUndef(w.sslData as number | null), proxySslEnabled: Boolean(w.proxy_ssl_enabled), proxySslCa: orUndef(w.proxy_ssl_ca as number | null),
    proxySslData: orUndef(w.proxy_ssl_data as number | null), options: setOptions(w.options),
  });
}

const createBody = (i: Inputs): Wire => ({ cname: i.cname, ...settings(i, i.originGroup), ...(i.origin !== undefined ? { origin: i.origin } : {}) });

async function deactivate(ctx: Ctx, config: ProvcConfig, id: number): Promise<void> {
  const w = await config.client.getCdnResource(ctx, id);
  if (!w.active) return;
  await config.client.replaceCdnResource(ctx, id, { ...settings({ ...(toInputs(w, {}) as Inputs), options: setOptions(w.options) }, w.originGroup as number), active: false });
}

export const cdnResource = provcResource({
  token: 'provc:index/cdnResource:CdnResource',
  inputs,
  outputs,
  replaceOn: ['cname', 'origin'],
  computedOnUpdate: ['updated', 'originGroupName', 'options', 'rules', 'status', 'enabled'],
  check: (i) => ((i.originGroup === undefined) === (i.origin === undefined)
    ? [{ path: [i.originGroup === undefined ? 'originGroup' : 'origin'], code: 'invalid_value', message: 'exactly one of originGroup and origin must be set' }]
    : []),
  create: async (ctx, i) => {
    const w = await ctx.config.client.createCdnResource(ctx, createBody(i));
    return { id: String(w.id), outputs: resourceShape(w) };
  },
  read: async (ctx, id, prior) => {
    const w = await orNull(() => ctx.config.client.getCdnResource(ctx, cdnId(id, 'CDN resource')));
    return w && { inputs: toInputs(w, prior.inputs as Partial<Inputs>), outputs: resourceShape(w) };
  },
  update: async (ctx, id, olds, news) => {
    const originGroup = news.originGroup ?? (olds.outputs as { originGroup?: number }).originGroup;
    return { outputs: resourceShape(await ctx.config.client.replaceCdnResource(ctx, cdnId(id, 'CDN resource'), settings(news, originGroup))) };
  },
  delete: async (ctx, id) => ignoreGone(async () => {
    const n = cdnId(id, 'CDN resource');
    await deactivate(ctx, ctx.config, n);
    await ctx.config.client.deleteCdnResource(ctx, n);
  }),
  find: (ctx, i, hint) => findCdnCreated(ctx, '/resources', createBody(i), hint, async (id) => {
    const w = await ctx.config.client.getCdnResource(ctx, id);
    return { id: String(w.id), outputs: resourceShape(w) };
  }),
  importId: (importId) => String(cdnId(importId, 'CDN resource')),
});
