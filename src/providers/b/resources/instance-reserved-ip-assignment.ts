// provb:index/instanceReservedIpAssignment:InstanceReservedIpAssignment: a reserved IP assigned to an
// instance. Every input forces replacement; the id is `<reservedIpId>:<instanceId>`. The instance's
// own `publicIp` output shows the address only after its next refresh.
import { z } from 'zod';
import { defineResource } from '../../../engine/provider/define.js';
import { isCannotTell } from '../../../engine/provider/define.js';
import { claim } from './claim.js';
import type { ProvbConfig } from '../config.js';
import { orNull } from '../../../kit/gone.js';
import { missingObject } from '../errors.js';
import { ProviderError } from '../../../engine/errors.js';
import { checkRegion, priorRegion, regionOf } from '../support/region.js';
import { waitUntil } from '../support/wait.js';
import { defined } from '../../../kit/wire.js';

export const assignmentInputs = z
  .strictObject({
    instanceId: z
      .string()
      .min(1)
      .describe('Id of the instance to assign the address to. Changing it forces replacement.'),
    reservedIpId: z
      .string()
      .min(1)
      .describe('Id of the reserved IP to assign; it must not be assigned elsewhere. Changing it forces replacement.'),
    region: z
      .string()
      .optional()
      .describe("Civo region code (e.g. LON1); defaults to the provider's region. Changing it forces replacement."),
  })
  .describe(
    "Assigns a reserved IP to an instance (id `<reservedIpId>:<instanceId>`). The instance's `publicIp` shows the address only after its next refresh.",
  );

export const assignmentOutputs = z.object({ ip: z.string().describe('The assigned IPv4 address.') });

function split(id: string): [string, string] {
  const i = id.indexOf(':');
  if (i <= 0 || i === id.length - 1)
    throw new TypeError(`Expected an assignment id like '<reservedIpId>:<instanceId>', got '${id}'`);
  return [id.slice(0, i), id.slice(i + 1)];
}

export const instanceReservedIpAssignment = defineResource({
  token: 'provb:index/instanceReservedIpAssignment:InstanceReservedIpAssignment',
  inputs: assignmentInputs,
  outputs: assignmentOutputs,
  replaceOn: ['instanceId', 'reservedIpId', 'region'],
  check: (inputs, config: ProvbConfig) => checkRegion(inputs, config),
  existing: async (ctx, inputs) => {
    const ip = await ctx.config.client.getIp(ctx, regionOf(ctx, inputs), inputs.reservedIpId);
    return ip.assigned_to?.id === inputs.instanceId ? [`${inputs.reservedIpId}:${inputs.instanceId}`] : [];
  },
  create: async (ctx, inputs) => {
    const region = regionOf(ctx, inputs);
    const c = ctx.config.client;
    const ip = await c.getIp(ctx, region, inputs.reservedIpId);
    if (ip.assigned_to?.id && ip.assigned_to.id !== inputs.instanceId) {
      throw new ProviderError({
        provider: 'provb',
        operation: 'assign reserved IP',
        retryable: false,
        vendorCode: 'database_cannot_move_ip',
        detail: `reserved IP ${inputs.reservedIpId} is already assigned to ${ip.assigned_to.type} ${ip.assigned_to.id}; unassign it first`,
      });
    }
    if (ip.assigned_to?.id !== inputs.instanceId) await c.ipAction(ctx, region, ip.id, 'assign', inputs.instanceId);
    await waitUntil(
      ctx,
      'ip',
      `instance ${inputs.instanceId} to carry ${ip.ip}`,
      () => c.getInstance(ctx, region, inputs.instanceId),
      (i) => i.public_ip === ip.ip,
      () => 'PENDING',
    );
    return { id: `${inputs.reservedIpId}:${inputs.instanceId}`, outputs: { ip: ip.ip } };
  },
  read: async (ctx, id, prior) => {
    const [reservedIpId, instanceId] = split(id);
    const ip = await orNull(() => ctx.config.client.getIp(ctx, priorRegion(ctx, prior), reservedIpId));
    if (!ip || ip.assigned_to?.id !== instanceId) return null;
    return {
      inputs: defined({ instanceId, reservedIpId, region: prior.inputs.region as string | undefined }),
      outputs: { ip: ip.ip },
    };
  },
  delete: async (ctx, id, prior) => {
    const [reservedIpId, instanceId] = split(id);
    const region = priorRegion(ctx, prior);
    const c = ctx.config.client;
    // The IP gone, or no longer assigned to the instance (unassigned meanwhile, or a retry after a lost
    // answer): the assignment is not found, which the engine's delete step takes as done.
    const ip = await c.getIp(ctx, region, reservedIpId);
    if (ip.assigned_to?.id !== instanceId)
      throw missingObject(
        'delete reserved IP assignment',
        `reserved IP ${reservedIpId} is not assigned to ${instanceId}`,
      );
    await c.ipAction(ctx, region, reservedIpId, 'unassign', instanceId);
    // The IP deleted while the unassignment settles: the assignment went with it, done here (the
    // unassign was this delete's own call, and it was answered).
    await orNull(() =>
      waitUntil(
        ctx,
        'ip',
        `reserved IP ${reservedIpId} to be unassigned`,
        () => c.getIp(ctx, region, reservedIpId),
        (x) => !x.assigned_to?.id,
        () => 'PENDING',
      ),
    );
  },
  // find: the assignment if the IP was not already assigned to the instance when the create began (claim.ts).
  find: async (ctx, inputs, hint) => {
    const ip = await orNull(() => ctx.config.client.getIp(ctx, regionOf(ctx, inputs), inputs.reservedIpId));
    const id = `${inputs.reservedIpId}:${inputs.instanceId}`;
    const a = claim(hint, ip && ip.assigned_to?.id === inputs.instanceId ? [{ ...ip, id }] : [], {
      what: `the assignment of reserved IP ${inputs.reservedIpId} to instance ${inputs.instanceId}`,
    });
    return !a || isCannotTell(a) ? a : { id, outputs: { ip: a.ip } };
  },
  importId: (id) => {
    split(id);
    return id;
  },
});
