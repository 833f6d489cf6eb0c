// provb:index/volumeAttachment:VolumeAttachment: a volume attached to an instance (attaching →
// attached). Every input forces replacement; the id is `<instanceId>:<volumeId>`.
import { z } from 'zod';
import { defineResource } from '../../../engine/provider/define.js';
import { isCannotTell } from '../../../engine/provider/define.js';
import { claim } from './claim.js';
import type { ProvbConfig } from '../config.js';
import { orNull } from '../../../kit/gone.js';
import { missingObject } from '../errors.js';
import { tolerate } from './tolerate.js';
import { checkRegion, priorRegion, regionOf } from '../support/region.js';
import { rememberAttachAtBoot, waitVolume } from './volume.js';
import { defined } from '../../../kit/wire.js';

export const volumeAttachmentInputs = z
  .strictObject({
    instanceId: z.string().min(1).describe('Id of the instance to attach to. Changing it forces replacement.'),
    volumeId: z.string().min(1).describe('Id of the volume to attach. Changing it forces replacement.'),
    region: z
      .string()
      .optional()
      .describe("Civo region code (e.g. LON1); defaults to the provider's region. Changing it forces replacement."),
    /** Attach again when the instance boots; the instance needs a reboot to see it. */
    attachAtBoot: z
      .boolean()
      .default(false)
      .describe(
        'Attach when the instance next boots instead of live; the instance must then be rebooted to see the volume. Default false; changing it forces replacement.',
      ),
  })
  .describe(
    'Attaches a volume to an instance (attaching → attached); id `<instanceId>:<volumeId>`. Every input forces replacement.',
  );

export const volumeAttachmentOutputs = z.object({
  mountPoint: z.string().describe('Device path of the volume on the instance (e.g. `/dev/vdb`).'),
  status: z.string().describe('Volume status, `attached` once done.'),
});

function split(id: string): [string, string] {
  const i = id.indexOf(':');
  if (i <= 0 || i === id.length - 1)
    throw new TypeError(`Expected a volume attachment id like '<instanceId>:<volumeId>', got '${id}'`);
  return [id.slice(0, i), id.slice(i + 1)];
}

const attachmentId = (i: { instanceId: string; volumeId: string }) => `${i.instanceId}:${i.volumeId}`;

export const volumeAttachment = defineResource({
  token: 'provb:index/volumeAttachment:VolumeAttachment',
  inputs: volumeAttachmentInputs,
  outputs: volumeAttachmentOutputs,
  replaceOn: ['instanceId', 'volumeId', 'region', 'attachAtBoot'],
  check: (inputs, config: ProvbConfig) => checkRegion(inputs, config),
  warnings: (inputs) =>
    inputs.attachAtBoot ? ['attachAtBoot: the instance must be rebooted before it sees the volume'] : [],
  existing: async (ctx, inputs) => {
    const v = await ctx.config.client.getVolume(ctx, regionOf(ctx, inputs), inputs.volumeId);
    return v.instance_id === inputs.instanceId ? [attachmentId(inputs)] : [];
  },
  create: async (ctx, inputs) => {
    const region = regionOf(ctx, inputs);
    const v = await ctx.config.client.getVolume(ctx, region, inputs.volumeId);
    if (v.instance_id !== inputs.instanceId) {
      if (v.status !== 'available') await waitVolume(ctx, region, inputs.volumeId, 'available');
      // A retried attach (its first answer lost) is refused as a second attach: that is success here.
      await ctx.config.client
        .attachVolume(ctx, region, inputs.volumeId, inputs.instanceId, inputs.attachAtBoot)
        .catch((error) => tolerate(error, 'database_volume_cannot_multiple_attach'));
    }
    rememberAttachAtBoot(inputs.volumeId, inputs.attachAtBoot);
    const done = await waitVolume(ctx, region, inputs.volumeId, 'attached', inputs.instanceId);
    return {
      id: `${inputs.instanceId}:${inputs.volumeId}`,
      outputs: { mountPoint: done.mountpoint ?? '', status: done.status },
    };
  },
  read: async (ctx, id, prior) => {
    const [instanceId, volumeId] = split(id);
    const v = await orNull(() => ctx.config.client.getVolume(ctx, priorRegion(ctx, prior), volumeId));
    if (!v || v.instance_id !== instanceId) return null;
    const inputs = defined({
      instanceId,
      volumeId,
      region: prior.inputs.region as string | undefined,
      attachAtBoot: (prior.inputs.attachAtBoot as boolean | undefined) ?? false,
    });
    rememberAttachAtBoot(volumeId, inputs.attachAtBoot);
    return { inputs, outputs: { mountPoint: v.mountpoint ?? '', status: v.status } };
  },
  delete: async (ctx, id, prior) => {
    const [instanceId, volumeId] = split(id);
    const region = priorRegion(ctx, prior);
    // The volume gone, or attached elsewhere or nowhere: the attachment is not found, which the
    // engine's delete step takes as done.
    const v = await ctx.config.client.getVolume(ctx, region, volumeId);
    if (v.instance_id !== instanceId)
      throw missingObject('delete volume attachment', `volume ${volumeId} is not attached to ${instanceId}`);
    // "Not attached" to the detach: a retry whose first attempt (its answer lost) detached it.
    await ctx.config.client
      .detachVolume(ctx, region, volumeId)
      .catch((error) => tolerate(error, 'database_volume_not_attached'));
    // The volume deleted while the detach settles: it is detached, done here (the detach was answered).
    await orNull(() => waitVolume(ctx, region, volumeId, 'available'));
  },
  // find: the attachment if the volume was not already attached to the instance when the create began (claim.ts).
  find: async (ctx, inputs, hint) => {
    const v = await orNull(() => ctx.config.client.getVolume(ctx, regionOf(ctx, inputs), inputs.volumeId));
    const a = claim(hint, v && v.instance_id === inputs.instanceId ? [{ ...v, id: attachmentId(inputs) }] : [], {
      what: `the attachment of volume ${inputs.volumeId} to instance ${inputs.instanceId}`,
    });
    return !a || isCannotTell(a) ? a : { id: a.id, outputs: { mountPoint: a.mountpoint ?? '', status: a.status } };
  },
  importId: (id) => {
    split(id);
    return id;
  },
});
