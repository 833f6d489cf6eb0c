// provb:index/volume:Volume: a block volume (creating → available). The size grows in place (an
// attached volume is detached, resized and attached again); name, network and type force replacement.
import { z } from 'zod';
import { defineResource } from '../../../engine/provider/define.js';
import { isCannotTell } from '../../../engine/provider/define.js';
import { claim } from './claim.js';
import type { ProvbConfig, ProvbContext } from '../config.js';
import type * as W from '../wire/objects.js';
import { orNull } from '../../../kit/gone.js';
import { checkRegion, priorRegion, regionOf, scanRegions } from '../support/region.js';
import { afterCreated, waitUntil } from '../support/wait.js';
import { reporter } from './reported.js';
import { defined } from '../../../kit/wire.js';
import { ProviderError } from '../../../engine/errors.js';
import { tolerate } from './tolerate.js';
import { missingObject } from '../errors.js';
import type { Prior, ReadResult } from '../../../engine/provider/define.js';
import { readByRegion } from './read-many.js';

export const volumeInputs = z
  .strictObject({
    name: z
      .string()
      .min(1)
      .regex(/^\S+$/, 'must not contain whitespace')
      .describe('Name of the volume (no whitespace). Changing it forces replacement.'),
    sizeGb: z
      .number()
      .int()
      .positive()
      .describe(
        'Size in GB (positive integer); it can only grow, in place (an attached volume is detached, resized and re-attached).',
      ),
    networkId: z
      .string()
      .optional()
      .describe('Network of the volume; the default network when omitted. Changing it forces replacement.'),
    region: z
      .string()
      .optional()
      .describe("Civo region code (e.g. LON1); defaults to the provider's region. Changing it forces replacement."),
    volumeType: z
      .string()
      .optional()
      .describe("Volume type (storage class); the region's default when omitted. Changing it forces replacement."),
  })
  .describe('A block storage volume (creating → available); attach it with VolumeAttachment.');
type VolumeInputs = z.output<typeof volumeInputs>;

export const volumeOutputs = z.object({
  volumeId: z.string().describe('Id of the volume (the resource id).'),
  mountPoint: z.string().describe('Device path on the instance while attached (e.g. `/dev/vdb`); empty when detached.'),
  networkId: z.string().describe("Id of the volume's network."),
  status: z.string().describe('Volume status, e.g. `available` or `attached`.'),
  createdAt: z.string().describe('When the volume was created (timestamp).'),
});

const outputsOf = (v: W.Volume) => ({
  volumeId: v.id,
  mountPoint: v.mountpoint && v.mountpoint !== 'null' ? v.mountpoint : '',
  networkId: v.network_id,
  status: v.status,
  createdAt: v.created_at ?? '',
});

/** The volumes a create of these inputs could have made (its key: the name, in the region). */
const matching = async (ctx: ProvbContext, inputs: { name: string; region?: string }) =>
  (await ctx.config.client.listVolumes(ctx, regionOf(ctx, inputs))).filter((x) => x.name === inputs.name);

/**
 * Waits for the volume's status. Waiting to be attached to `instanceId` fails at once when that
 * instance no longer exists or the volume went to another one (it would never become attached).
 */
export const waitVolume = (ctx: ProvbContext, region: string, id: string, status: string, instanceId?: string) =>
  waitUntil(
    ctx,
    'volume',
    `volume ${id} to be ${status}`,
    async () => {
      const v = await ctx.config.client.getVolume(ctx, region, id);
      if (instanceId && v.status !== status) {
        const on = v.instance_id && v.instance_id !== 'null' ? String(v.instance_id) : '';
        if (on && on !== instanceId)
          throw new ProviderError({
            provider: 'provb',
            operation: 'attach volume',
            retryable: false,
            detail: `volume ${id} is attached to instance ${on}, not ${instanceId}`,
          });
        if (!on && !(await orNull(() => ctx.config.client.getInstance(ctx, region, instanceId)))) {
          throw missingObject(
            'attach volume',
            `instance ${instanceId} no longer exists; volume ${id} cannot become attached to it`,
          );
        }
      }
      return v;
    },
    (v) => v.status === status,
    (v) => v.status,
  );

/** The attach_at_boot each VolumeAttachment declared, by volume id (recorded by its create and read), for re-attaching. */
const declaredAtBoot = new Map<string, boolean>();
export function rememberAttachAtBoot(volumeId: string, atBoot: boolean): void {
  declaredAtBoot.set(volumeId, atBoot);
}

/** What read answers for a volume; `elsewhere`: the region it was found in when not the recorded one. */
function volumeResult(v: W.Volume, prior: Prior, elsewhere?: string): ReadResult {
  const r = reporter(prior);
  const inputs: VolumeInputs = defined({
    name: v.name,
    sizeGb: v.size_gb,
    networkId: r.computed('networkId', v.network_id),
    region: elsewhere ?? r.kept<string>('region'),
    volumeType: r.computed('volumeType', v.volume_type),
  });
  return { inputs, outputs: outputsOf(v) };
}

async function readVolume(ctx: ProvbContext, id: string, prior: Prior): Promise<ReadResult | null> {
  const home = priorRegion(ctx, prior);
  // An import looks in every region, as the vendor's provider does.
  const found = await scanRegions(ctx, home, (region) => orNull(() => ctx.config.client.getVolume(ctx, region, id)));
  return found ? volumeResult(found.value, prior, found.region === home ? undefined : found.region) : null;
}

export const volume = defineResource({
  token: 'provb:index/volume:Volume',
  inputs: volumeInputs,
  outputs: volumeOutputs,
  replaceOn: ['name', 'networkId', 'region', 'volumeType'],
  computedOnUpdate: ['status', 'mountPoint'],
  check: (inputs, config: ProvbConfig) => checkRegion(inputs, config),
  existing: async (ctx, inputs) => (await matching(ctx, inputs)).map((x) => x.id),
  create: async (ctx, inputs) => {
    const region = regionOf(ctx, inputs);
    const res = await ctx.config.client.createVolume(ctx, region, {
      name: inputs.name,
      namespace: '',
      cluster_id: '',
      network_id: inputs.networkId ?? '',
      size_gb: inputs.sizeGb,
      bootable: false,
      volume_type: inputs.volumeType ?? '',
    });
    const v = await afterCreated(ctx, res.id, () => waitVolume(ctx, region, res.id, 'available'));
    return { id: v.id, outputs: outputsOf(v) };
  },
  read: readVolume,
  // A volume missing from its region's listing is looked for elsewhere, as read does.
  readMany: readByRegion(
    (ctx, region) => ctx.config.client.listVolumes(ctx, region),
    (v, prior) => volumeResult(v, prior),
  ),
  update: async (ctx, id, _olds, news) => {
    const region = regionOf(ctx, news);
    const c = ctx.config.client;
    const v = await c.getVolume(ctx, region, id);
    if (v.size_gb !== news.sizeGb) {
      const instanceId = v.instance_id && v.instance_id !== 'null' ? String(v.instance_id) : '';
      if (instanceId) {
        await c.detachVolume(ctx, region, id).catch((e) => tolerate(e, 'database_volume_not_attached'));
        await waitVolume(ctx, region, id, 'available');
      }
      await c.resizeVolume(ctx, region, id, news.sizeGb).catch(async (e) => {
        // A retried resize whose first answer was lost is refused as "must increase": check the size.
        if (!(
          e instanceof ProviderError &&
          e.vendorCode === 'parameter_volume_size_must_increase' &&
          (await c.getVolume(ctx, region, id)).size_gb === news.sizeGb
        ))
          throw e;
      });
      if (instanceId) {
        // Re-attach as the attachment was declared (its attachAtBoot; false, the attachment's default, when
        // unknown here). An instance deleted meanwhile (being replaced) is not waited for: its
        // VolumeAttachment, which depends on it, attaches the volume to the new one.
        await orNull(async () => {
          await c
            .attachVolume(ctx, region, id, instanceId, declaredAtBoot.get(id) ?? false)
            .catch((e) => tolerate(e, 'database_volume_cannot_multiple_attach'));
          await waitVolume(ctx, region, id, 'attached', instanceId);
        });
      }
    }
    return { outputs: outputsOf(await c.getVolume(ctx, region, id)) };
  },
  delete: async (ctx, id, prior) => {
    await ctx.config.client.deleteVolume(ctx, priorRegion(ctx, prior), id);
  },
  // find: the volume so named that was not there before the request (or, for a record without
  // that note, whose created_at is not before the create started: claim.ts).
  find: async (ctx, inputs, hint) => {
    const v = claim(hint, await matching(ctx, inputs), {
      what: `volume '${inputs.name}'`,
      createdAt: (x) => x.created_at,
    });
    return !v || isCannotTell(v) ? v : { id: v.id, outputs: outputsOf(v) };
  },
  importId: (id) => id,
});
