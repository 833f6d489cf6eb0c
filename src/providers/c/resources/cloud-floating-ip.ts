// CloudFloatingIp: a public IP in a project and region, optionally assigned to a port. Create,
// update (tags, port assignment) and delete are Cloud tasks, polled until they finish. The id is
// the floating IP's UUID; import takes '<uuid>' or '<projectId>/<regionId>/<uuid>'.
import { z } from 'zod';
import type { ProvcConfig, Wire } from '../client.js';
import { resolveScope, scopeIssues, type Scope } from '../config.js';
import { camelize, tagMap } from '../shape.js';
import { waitForCreated, waitForFirst } from '../tasks.js';
import { defined, ignoreGone, orNull, provcResource } from './shared.js';

const inputs = z.object({
  projectId: z.number().int().positive().optional(),
  regionId: z.number().int().positive().optional(),
  /** The port to assign the IP to; absent leaves it unassigned (status DOWN). */
  portId: z.string().uuid().optional(),
  /** Which of the port's fixed IPs to map; needs portId. */
  fixedIpAddress: z.ipv4().optional(),
  tags: z.record(z.string().min(1).max(255), z.string().min(1).max(255)).default({}),
});
type Inputs = z.output<typeof inputs>;

const tag = z.object({ key: z.string(), value: z.string(), readOnly: z.boolean() });
const outputs = z.object({
  floatingIpId: z.string(),
  floatingIpAddress: z.string().nullable(),
  fixedIpAddress: z.string().nullable(),
  portId: z.string().nullable(),
  routerId: z.string().nullable(),
  status: z.string().nullable(),
  tags: z.array(tag),
  projectId: z.number(),
  regionId: z.number(),
  region: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  creatorTaskId: z.string().nullable(),
});

function toOutputs(w: Wire): Record<string, unknown> {
  const c = camelize(w) as Record<string, unknown>;
  return {
    floatingIpId: w.id, floatingIpAddress: c.floatingIpAddress ?? null, fixedIpAddress: c.fixedIpAddress ?? null, portId: c.portId ?? null,
    routerId: c.routerId ?? null, status: c.status ?? null, tags: c.tags ?? [], projectId: c.projectId, regionId: c.regionId, region: c.region,
    createdAt: c.createdAt, updatedAt: c.updatedAt, creatorTaskId: c.creatorTaskId ?? null,
  };
}

function scopeOf(config: ProvcConfig, i: Partial<Inputs>): Scope {
  const s = resolveScope(config.settings, i.projectId, i.regionId);
  return { projectId: s.projectId!, regionId: s.regionId! };
}

/** Splits '<projectId>/<regionId>/<uuid>' (an import id) or returns a bare uuid. */
function parseId(id: string): { uuid: string; projectId?: number; regionId?: number } {
  const parts = id.split('/');
  if (parts.length === 3) return { projectId: Number(parts[0]), regionId: Number(parts[1]), uuid: parts[2]! };
  return { uuid: id };
}

export const cloudFloatingIp = provcResource({
  token: 'provc:index/cloudFloatingIp:CloudFloatingIp',
  inputs,
  outputs,
  replaceOn: ['projectId', 'regionId'],
  computedOnUpdate: ['fixedIpAddress', 'portId', 'status', 'tags', 'updatedAt', 'routerId'],
  check: (i, config) => [
    ...scopeIssues(config.settings, i.projectId, i.regionId),
    ...(i.fixedIpAddress !== undefined && i.portId === undefined ? [{ path: ['fixedIpAddress'], code: 'invalid_value', message: 'fixedIpAddress needs portId' }] : []),
  ],
  create: async (ctx, i) => {
    const s = scopeOf(ctx.config, i);
    const body = defined({ port_id: i.portId, fixed_ip_address: i.fixedIpAddress, tags: Object.keys(i.tags).length ? i.tags : undefined });
    const tasks = await ctx.config.client.createFloatingIp(ctx, s, body);
    const id = await waitForCreated(ctx, ctx.config.client, tasks, 'floatingips');
    return { id, outputs: toOutputs(await ctx.config.client.getFloatingIp(ctx, s, id)) };
  },
  read: async (ctx, id, prior) => {
    const parsed = parseId(id);
    const priorInputs = prior.inputs as Partial<Inputs>;
    const explicit = {
      projectId: priorInputs.projectId ?? (parsed.projectId !== ctx.config.settings.cloudProjectId ? parsed.projectId : undefined),
      regionId: priorInputs.regionId ?? (parsed.regionId !== ctx.config.settings.cloudRegionId ? parsed.regionId : undefined),
    };
    const fromOutputs = prior.outputs as { projectId?: number; regionId?: number };
    const s = scopeOf(ctx.config, { projectId: explicit.projectId ?? fromOutputs.projectId, regionId: explicit.regionId ?? fromOutputs.regionId });
    const w = await orNull(() => ctx.config.client.getFloatingIp(ctx, s, parsed.uuid));
    if (!w) return null;
    const readInputs = defined({
      ...explicit,
      portId: (w.port_id as string | null) ?? undefined,
      fixedIpAddress: priorInputs.fixedIpAddress !== undefined ? ((w.fixed_ip_address as string | null) ?? undefined) : undefined,
      tags: tagMap(w.tags),
    });
    return { id: parsed.uuid, inputs: readInputs, outputs: toOutputs(w) };
  },
  update: async (ctx, id, olds, news) => {
    const s = scopeOf(ctx.config, news);
    const old = olds.inputs as Partial<Inputs>;
    const body: Wire = {};
    if (old.portId !== news.portId) body.port_id = news.portId ?? null;
    if (old.fixedIpAddress !== news.fixedIpAddress || 'port_id' in body) body.fixed_ip_address = news.fixedIpAddress ?? null;
    const tagChanges: Record<string, string | null> = {};
    for (const [k, v] of Object.entries(news.tags)) if (old.tags?.[k] !== v) tagChanges[k] = v;
    for (const k of Object.keys(old.tags ?? {})) if (!(k in news.tags)) tagChanges[k] = null;
    if (Object.keys(tagChanges).length) body.tags = tagChanges;
    if (Object.keys(body).length) await waitForFirst(ctx, ctx.config.client, await ctx.config.client.updateFloatingIp(ctx, s, parseId(id).uuid, body));
    return { outputs: toOutputs(await ctx.config.client.getFloatingIp(ctx, s, parseId(id).uuid)) };
  },
  delete: async (ctx, id, prior) => {
    const o = prior.outputs as { projectId?: number; regionId?: number };
    const s = scopeOf(ctx.config, { projectId: o.projectId ?? (prior.inputs as Inputs).projectId, regionId: o.regionId ?? (prior.inputs as Inputs).regionId });
    await ignoreGone(async () => waitForFirst(ctx, ctx.config.client, await ctx.config.client.deleteFloatingIp(ctx, s, parseId(id).uuid)));
  },
  importId: (importId) => {
    const p = parseId(importId);
    if (!p.uuid || (importId.includes('/') && !(Number.isInteger(p.projectId) && Number.isInteger(p.regionId)))) {
      throw new TypeError(`Expected a floating IP import id '<uuid>' or '<projectId>/<regionId>/<uuid>', got '${importId}'`);
    }
    return importId;
  },
});
