// provb:index/reservedIp:ReservedIp: a reserved public address (allocated shortly after create). The
// name updates in place; the region forces replacement.
import { z } from 'zod';
import { defineResource } from '../../../engine/provider/define.js';
import { isCannotTell } from '../../../engine/provider/define.js';
import { claim } from './claim.js';
import type { ProvbConfig } from '../config.js';
import type * as W from '../wire/objects.js';
import { orNull } from '../../../kit/gone.js';
import { checkRegion, priorRegion, regionOf } from '../support/region.js';
import { afterCreated, waitUntil } from '../support/wait.js';
import { defined } from '../../../kit/wire.js';
import type { Prior, ReadResult } from '../../../engine/provider/define.js';
import { readByRegion } from './read-many.js';

export const reservedIpInputs = z
  .strictObject({
    name: z
      .string()
      .min(1)
      .regex(/^\S+$/, 'must not contain whitespace')
      .describe('Name of the reserved IP (no whitespace). Updates in place.'),
    region: z
      .string()
      .optional()
      .describe("Civo region code (e.g. LON1); defaults to the provider's region. Changing it forces replacement."),
  })
  .describe('A reserved public IPv4 address that can be assigned to an instance or load balancer.');

export const reservedIpOutputs = z.object({
  reservedIpId: z.string().describe('Id of the reserved IP (the resource id).'),
  ip: z.string().describe('The reserved IPv4 address.'),
  instanceId: z.string().describe('Id of the instance the address is assigned to; empty when unassigned.'),
  instanceName: z.string().describe('Name of the instance the address is assigned to; empty when unassigned.'),
});

const outputsOf = (ip: W.ReservedIp) => ({
  reservedIpId: ip.id,
  ip: ip.ip ?? '',
  instanceId: ip.assigned_to?.id ?? '',
  instanceName: ip.assigned_to?.name ?? '',
});

/** What read answers for a reserved IP. */
const ipResult = (ip: W.ReservedIp, prior: Prior): ReadResult => ({
  inputs: defined({ name: ip.name, region: prior.inputs.region as string | undefined }),
  outputs: outputsOf(ip),
});

export const reservedIp = defineResource({
  token: 'provb:index/reservedIp:ReservedIp',
  inputs: reservedIpInputs,
  outputs: reservedIpOutputs,
  replaceOn: ['region'],
  computedOnUpdate: ['instanceId', 'instanceName'],
  check: (inputs, config: ProvbConfig) => checkRegion(inputs, config),
  existing: async (ctx, inputs) => {
    const region = regionOf(ctx, inputs);
    return (await ctx.config.client.listIps(ctx, region)).filter((x) => x.name === inputs.name).map((x) => x.id);
  },
  create: async (ctx, inputs) => {
    const region = regionOf(ctx, inputs);
    const res = await ctx.config.client.createIp(ctx, region, inputs.name);
    const ip = await afterCreated(ctx, res.id, () =>
      waitUntil(
        ctx,
        'ip',
        `reserved IP ${res.id} to be allocated`,
        () => ctx.config.client.getIp(ctx, region, res.id),
        (x) => !!x.ip,
        () => 'BUILDING',
      ),
    );
    return { id: ip.id, outputs: outputsOf(ip) };
  },
  read: async (ctx, id, prior) => {
    const ip = await orNull(() => ctx.config.client.getIp(ctx, priorRegion(ctx, prior), id));
    return ip ? ipResult(ip, prior) : null;
  },
  readMany: readByRegion((ctx, region) => ctx.config.client.listIps(ctx, region), ipResult),
  update: async (ctx, id, _olds, news) => {
    const region = regionOf(ctx, news);
    await ctx.config.client.renameIp(ctx, region, id, news.name);
    return { outputs: outputsOf(await ctx.config.client.getIp(ctx, region, id)) };
  },
  delete: async (ctx, id, prior) => {
    await ctx.config.client.deleteIp(ctx, priorRegion(ctx, prior), id);
  },
  // find: the reserved IPs so named (names need not be unique) that did not exist when the create sent its request (claim.ts).
  find: async (ctx, inputs, hint) => {
    const ip = claim(
      hint,
      (await ctx.config.client.listIps(ctx, regionOf(ctx, inputs))).filter((x) => x.name === inputs.name),
      { what: `reserved IP '${inputs.name}'` },
    );
    return !ip || isCannotTell(ip) ? ip : { id: ip.id, outputs: outputsOf(ip) };
  },
  importId: (id) => id,
});
