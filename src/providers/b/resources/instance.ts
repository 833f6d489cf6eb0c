// provb:index/instance:Instance: a Civo instance (BUILDING → ACTIVE). Hostname, reverse DNS, notes,
// tags, firewall, size (up only) and the reserved IP update in place; the rest forces replacement.
import { type z } from 'zod';
import { defineResource, type Prior } from '../../../engine/provider/define.js';
import type { ProvbConfig, ProvbContext } from '../config.js';
import type * as W from '../wire/objects.js';
import { orNull } from '../../../kit/gone.js';
import { checkRegion, priorRegion, regionOf } from '../support/region.js';
import { isShrink } from '../support/size.js';
import { afterCreated, waitGone, waitUntil } from '../support/wait.js';
import { reporter } from './reported.js';
import { instanceInputs, instanceOutputs, type InstanceInputs } from './instance-schema.js';
import { defined } from '../../../kit/wire.js';
import { missingObject } from '../errors.js';
import { isCannotTell } from '../../../engine/provider/define.js';
import { claim, isOperationTag, operationTag } from './claim.js';
import { readByRegion } from './read-many.js';
import { catalogueDiskImages } from '../wire/images.js';

function outputsOf(i: W.Instance, writePassword: boolean): z.output<typeof instanceOutputs> {
  return {
    instanceId: i.id,
    hostname: i.hostname,
    networkId: i.network_id,
    firewallId: i.firewall_id,
    initialUser: i.initial_user,
    reverseDns: i.reverse_dns ?? '',
    cpuCores: i.cpu_cores,
    diskGb: i.disk_gb,
    ramMb: i.ram_mb,
    createdAt: i.created_at,
    privateIp: i.private_ip ?? '',
    publicIp: i.public_ip ?? '',
    sourceId: i.source_id ?? '',
    sourceType: i.source_type ?? '',
    status: i.status,
    ...(writePassword && i.initial_password ? { initialPassword: i.initial_password } : {}),
  };
}

const ready = (ctx: ProvbContext, region: string, id: string) =>
  waitUntil(
    ctx,
    'instance',
    `instance ${id} to be ACTIVE`,
    () => ctx.config.client.getInstance(ctx, region, id),
    (i) => i.status === 'ACTIVE',
    (i) => i.status,
  );

/**
 * The disk image's id, from an id or a name (the API takes `template_id`): from the catalogue the
 * provider instance read for this apply (one read for all its creates), afresh when that does not hold it.
 */
async function imageId(ctx: ProvbContext, region: string, image: string): Promise<string> {
  const find = (images: readonly W.DiskImage[]) =>
    (images.find((i) => i.id === image) ?? images.find((i) => i.name === image))?.id;
  const c = ctx.config.client;
  return (
    find(await catalogueDiskImages(c, ctx, region)) ?? find(await catalogueDiskImages(c, ctx, region, true)) ?? image
  );
}

/** The network's default firewall, for a blank `firewallId`. */
async function defaultFirewall(ctx: ProvbContext, region: string, networkId: string): Promise<string | undefined> {
  const fws = await ctx.config.client.listFirewalls(ctx, region);
  return fws.find((f) => f.network_id === networkId && f.default)?.id;
}

async function findIp(ctx: ProvbContext, region: string, ref: string): Promise<W.ReservedIp | undefined> {
  const ips = await ctx.config.client.listIps(ctx, region);
  return ips.find((x) => x.id === ref) ?? ips.find((x) => x.name === ref) ?? ips.find((x) => x.ip === ref);
}

function readResult(inst: W.Instance, prior: Prior) {
  const inputs = reportInputs(inst, prior);
  return { inputs, outputs: outputsOf(inst, inputs.writePassword) };
}

function reportInputs(i: W.Instance, prior: Prior): InstanceInputs {
  const r = reporter(prior);
  const script = i.script ? Buffer.from(String(i.script), 'base64').toString('utf8') : undefined;
  const priorImage = r.kept<string>('diskImage');
  const priorFw = r.kept<string>('firewallId');
  return defined({
    diskImage: priorImage === i.template_id || priorImage === i.source_id ? priorImage! : i.template_id,
    firewallId: priorFw === '' ? '' : i.firewall_id,
    hostname: r.computed('hostname', i.hostname),
    size: i.size,
    initialUser: r.computed('initialUser', i.initial_user),
    networkId: r.computed('networkId', i.network_id),
    notes: r.optional('notes', i.notes ?? ''),
    privateIpv4: r.computed('privateIpv4', i.private_ip),
    // 'none' stays 'none' though the API may give an address anyway (first instance of a network, a reserved IP).
    publicIpRequired: !i.public_ip || r.kept('publicIpRequired') === 'none' ? 'none' : 'create',
    region: r.kept<string>('region'),
    reservedIpv4:
      r.kept<string>('reservedIpv4') === undefined
        ? undefined
        : [i.reserved_ip_id, i.reserved_ip_name, i.reserved_ip].includes(r.kept('reservedIpv4'))
          ? r.kept<string>('reservedIpv4')
          : i.reserved_ip_id || '',
    reverseDns: r.computed('reverseDns', i.reverse_dns),
    script: r.importing ? script : r.kept('script') === undefined ? undefined : script,
    sshkeyId: r.computed('sshkeyId', i.ssh_key_id),
    tags: r.optional(
      'tags',
      (i.tags ?? []).filter((t: unknown) => !isOperationTag(t)),
    ),
    volumeType: i.volume_type === 'bssd' ? 'bssd' : 'ssd',
    writePassword: r.kept<boolean>('writePassword') ?? false,
  }) as InstanceInputs;
}

export const instance = defineResource({
  token: 'provb:index/instance:Instance',
  inputs: instanceInputs,
  outputs: instanceOutputs,
  replaceOn: [
    'diskImage',
    'region',
    'networkId',
    'privateIpv4',
    'script',
    'initialUser',
    'sshkeyId',
    'publicIpRequired',
    'volumeType',
  ],
  // Civo resizes up only: a smaller size is a new instance, planned as a replacement.
  replaceWhen: (prior, news) => (isShrink(prior.inputs.size, news.size) ? ['size'] : []),
  secrets: ['initialPassword'],
  computedOnUpdate: [
    'hostname',
    'firewallId',
    'reverseDns',
    'cpuCores',
    'diskGb',
    'ramMb',
    'publicIp',
    'status',
    'initialPassword',
  ],
  check: (inputs, config: ProvbConfig) => checkRegion(inputs, config),
  warnings: (inputs) =>
    inputs.publicIpRequired === 'none'
      ? [
          'publicIpRequired none: Civo gives the first instance of a network a public IP anyway (the Terraform provider warns the same); put another instance in the network first if this one must stay private',
        ]
      : [],
  create: async (ctx, inputs) => {
    const region = regionOf(ctx, inputs);
    const c = ctx.config.client;
    const created = await c.createInstance(ctx, region, {
      count: 1,
      hostname: inputs.hostname ?? '',
      reverse_dns: inputs.reverseDns ?? '',
      size: inputs.size,
      public_ip: inputs.publicIpRequired,
      reserved_ipv4: inputs.reservedIpv4 ?? '',
      private_ipv4: inputs.privateIpv4 ?? '',
      network_id: inputs.networkId ?? '',
      template_id: await imageId(ctx, region, inputs.diskImage),
      initial_user: inputs.initialUser ?? '',
      ssh_key_id: inputs.sshkeyId ?? '',
      script: inputs.script ?? '',
      tags: [...(inputs.tags ?? []), ...(ctx.operationId ? [operationTag(ctx.operationId)] : [])].join(' '),
      firewall_id: inputs.firewallId,
      volume_type: inputs.volumeType,
      notes: inputs.notes ?? '',
    });
    return afterCreated(ctx, created.id, async () => {
      let inst = await ready(ctx, region, created.id);
      if (inputs.firewallId && inst.firewall_id !== inputs.firewallId) {
        await c.setInstanceFirewall(ctx, region, inst.id, inputs.firewallId);
        inst = await c.getInstance(ctx, region, inst.id);
      }
      return { id: inst.id, outputs: outputsOf(inst, inputs.writePassword) };
    });
  },
  read: async (ctx, id, prior) => {
    const inst = await orNull(() => ctx.config.client.getInstance(ctx, priorRegion(ctx, prior), id));
    return inst ? readResult(inst, prior) : null;
  },
  readMany: readByRegion((ctx, region) => ctx.config.client.listInstances(ctx, region), readResult),
  update: async (ctx, id, olds, news) => {
    const region = regionOf(ctx, news);
    const c = ctx.config.client;
    const o = olds.inputs as InstanceInputs;
    if (o.hostname !== news.hostname || o.reverseDns !== news.reverseDns || (o.notes ?? '') !== (news.notes ?? '')) {
      const current = await c.getInstance(ctx, region, id);
      await c.updateInstance(ctx, region, id, {
        hostname: news.hostname ?? current.hostname,
        reverse_dns: news.reverseDns ?? current.reverse_dns,
        notes: news.notes ?? '',
        public_ip: current.public_ip,
        subnets: current.subnets ?? [],
        ...(news.notes ? {} : { notes_delete: 'true' }),
      });
    }
    if (JSON.stringify(o.tags ?? []) !== JSON.stringify(news.tags ?? []))
      await c.retagInstance(ctx, region, id, news.tags ?? []);
    if (o.firewallId !== news.firewallId) {
      const current = await c.getInstance(ctx, region, id);
      const fw = news.firewallId || (await defaultFirewall(ctx, region, current.network_id));
      if (fw && fw !== current.firewall_id) await c.setInstanceFirewall(ctx, region, id, fw);
    }
    if (o.size !== news.size) {
      await c.resizeInstance(ctx, region, id, news.size);
      await ready(ctx, region, id);
    }
    if (o.reservedIpv4 !== news.reservedIpv4) {
      if (o.reservedIpv4) {
        const old = await findIp(ctx, region, o.reservedIpv4);
        if (old?.assigned_to?.id === id) await orNull(() => c.ipAction(ctx, region, old.id, 'unassign', id));
      }
      if (news.reservedIpv4) {
        const ip = await findIp(ctx, region, news.reservedIpv4);
        if (!ip) throw missingObject('update instance', `reserved IP ${news.reservedIpv4} was not found in ${region}`);
        await c.ipAction(ctx, region, ip.id, 'assign', id);
        await waitUntil(
          ctx,
          'instance',
          `instance ${id} to carry ${ip.ip}`,
          () => c.getInstance(ctx, region, id),
          (i) => i.public_ip === ip.ip,
          (i) => i.public_ip || 'no public IP',
        );
      }
    }
    return { outputs: outputsOf(await c.getInstance(ctx, region, id), news.writePassword) };
  },
  delete: async (ctx, id, prior) => {
    const region = priorRegion(ctx, prior);
    await ctx.config.client.deleteInstance(ctx, region, id);
    await waitGone(ctx, `instance ${id}`, () => ctx.config.client.getInstance(ctx, region, id));
  },
  // find: the instance carrying this create's operation tag (written in the create request; read hides
  // it), so a hostname-less instance is found exactly and a same-named one made by hand never is.
  find: async (ctx, inputs, hint) => {
    const region = regionOf(ctx, inputs);
    const tag = operationTag(hint.operationId);
    const inst = claim(hint, await ctx.config.client.listInstances(ctx, region), {
      what: `an instance tagged ${tag}`,
      tagged: (i) => (i.tags ?? []).includes(tag),
    });
    if (!inst || isCannotTell(inst)) return inst;
    let settled = await ready(ctx, region, inst.id);
    // The create's follow-up, which a lost answer skipped: attach the declared firewall.
    if (inputs.firewallId && settled.firewall_id !== inputs.firewallId) {
      await ctx.config.client.setInstanceFirewall(ctx, region, settled.id, inputs.firewallId);
      settled = await ctx.config.client.getInstance(ctx, region, settled.id);
    }
    return { id: settled.id, outputs: outputsOf(settled, inputs.writePassword) };
  },
  importId: (id) => id,
});
