// provb:index/network:Network: a private network. The label and nameservers update in place; the
// CIDR, region and VLAN settings (which the API cannot change) force replacement.
import { z } from 'zod';
import { readByRegion } from './read-many.js';
import { defineResource, type Prior } from '../../../engine/provider/define.js';
import { isCannotTell } from '../../../engine/provider/define.js';
import { claim } from './claim.js';
import type { ProvbConfig } from '../config.js';
import type * as W from '../wire/objects.js';
import { orNull } from '../../../kit/gone.js';
import { checkRegion, priorRegion, regionOf } from '../support/region.js';
import { waitGone } from '../support/wait.js';
import { reporter } from './reported.js';
import { defined } from '../../../kit/wire.js';

export const networkInputs = z
  .strictObject({
    label: z
      .string()
      .min(1)
      .regex(/^\S+$/, 'must not contain whitespace')
      .describe('Label (display name) of the network, no whitespace. Updates in place.'),
    cidrV4: z
      .string()
      .optional()
      .describe(
        'IPv4 CIDR of the network, e.g. `10.0.0.0/24`; chosen by the API when omitted. Changing it forces replacement.',
      ),
    nameserversV4s: z
      .array(z.string())
      .optional()
      .describe("IPv4 nameservers handed to instances; the API's defaults when omitted. Update in place."),
    region: z
      .string()
      .optional()
      .describe("Civo region code (e.g. LON1); defaults to the provider's region. Changing it forces replacement."),
    vlanId: z
      .number()
      .int()
      .nonnegative()
      .optional()
      .describe('VLAN id, for a network bridged to a physical VLAN. Changing it forces replacement.'),
    vlanAllocationPoolV4Start: z
      .string()
      .optional()
      .describe('First IPv4 address the VLAN network hands out. Changing it forces replacement.'),
    vlanAllocationPoolV4End: z
      .string()
      .optional()
      .describe('Last IPv4 address the VLAN network hands out. Changing it forces replacement.'),
    vlanCidrV4: z.string().optional().describe('IPv4 CIDR of the VLAN. Changing it forces replacement.'),
    vlanGatewayIpV4: z
      .string()
      .optional()
      .describe('Gateway IPv4 address of the VLAN. Changing it forces replacement.'),
    vlanPhysicalInterface: z
      .string()
      .optional()
      .describe('Physical interface the VLAN is on, e.g. `eth1`. Changing it forces replacement.'),
  })
  .describe(
    'A private network. The label and nameservers update in place; the CIDR, region and VLAN settings force replacement.',
  );
type NetworkInputs = z.output<typeof networkInputs>;

export const networkOutputs = z.object({
  networkId: z.string().describe('Id of the network (the resource id).'),
  name: z.string().describe('Name of the network as the API reports it.'),
  default: z.boolean().describe("Whether this is the region's default network."),
  cidrV4: z.string().describe('IPv4 CIDR of the network.'),
});

const outputsOf = (n: W.Network) => ({
  networkId: n.id,
  name: n.name ?? n.label,
  default: n.default === true,
  cidrV4: n.cidr ?? '',
});

const VLAN = [
  'vlanId',
  'vlanAllocationPoolV4Start',
  'vlanAllocationPoolV4End',
  'vlanCidrV4',
  'vlanGatewayIpV4',
  'vlanPhysicalInterface',
] as const;

function readResult(n: W.Network, prior: Prior) {
  const r = reporter(prior);
  const inputs: NetworkInputs = defined({
    label: n.label,
    cidrV4: r.computed('cidrV4', n.cidr),
    nameserversV4s: r.computed('nameserversV4s', n.nameservers_v4),
    region: r.kept<string>('region'),
    ...Object.fromEntries(VLAN.map((k) => [k, r.kept(k)])),
  });
  return { inputs, outputs: outputsOf(n) };
}

export const network = defineResource({
  token: 'provb:index/network:Network',
  inputs: networkInputs,
  outputs: networkOutputs,
  replaceOn: ['region', 'cidrV4', ...VLAN],
  computedOnUpdate: ['name'],
  check: (inputs, config: ProvbConfig) => checkRegion(inputs, config),
  existing: async (ctx, inputs) => {
    const region = regionOf(ctx, inputs);
    return (await ctx.config.client.listNetworks(ctx, region)).filter((x) => x.label === inputs.label).map((x) => x.id);
  },
  create: async (ctx, inputs) => {
    const region = regionOf(ctx, inputs);
    const vlan =
      inputs.vlanId && inputs.vlanId > 0
        ? {
            vlan_connect: {
              vlan_id: inputs.vlanId,
              physical_interface: inputs.vlanPhysicalInterface ?? '',
              cidr_v4: inputs.vlanCidrV4 ?? '',
              gateway_ipv4: inputs.vlanGatewayIpV4 ?? '',
              allocation_pool_v4_start: inputs.vlanAllocationPoolV4Start ?? '',
              allocation_pool_v4_end: inputs.vlanAllocationPoolV4End ?? '',
            },
          }
        : {};
    const res = await ctx.config.client.createNetwork(ctx, region, {
      label: inputs.label,
      default: '',
      cidr_v4: inputs.cidrV4 ?? '',
      nameservers_v4: inputs.nameserversV4s ?? null,
      ipv4_enabled: true,
      ...vlan,
    });
    const n = await ctx.config.client.getNetwork(ctx, region, res.id);
    return { id: n.id, outputs: outputsOf(n) };
  },
  read: async (ctx, id, prior) => {
    const n = await orNull(() => ctx.config.client.getNetwork(ctx, priorRegion(ctx, prior), id));
    return n ? readResult(n, prior) : null;
  },
  readMany: readByRegion((ctx, region) => ctx.config.client.listNetworks(ctx, region), readResult),
  update: async (ctx, id, _olds, news) => {
    const region = regionOf(ctx, news);
    await ctx.config.client.updateNetwork(ctx, region, id, {
      label: news.label,
      nameservers_v4: news.nameserversV4s ?? null,
    });
    return { outputs: outputsOf(await ctx.config.client.getNetwork(ctx, region, id)) };
  },
  delete: async (ctx, id, prior) => {
    const region = priorRegion(ctx, prior);
    await ctx.config.client.deleteNetwork(ctx, region, id);
    await waitGone(ctx, `network ${id}`, () => ctx.config.client.getNetwork(ctx, region, id));
  },
  // find: the networks labelled so that did not exist when the create sent its request (claim.ts).
  find: async (ctx, inputs, hint) => {
    const n = claim(
      hint,
      (await ctx.config.client.listNetworks(ctx, regionOf(ctx, inputs))).filter((x) => x.label === inputs.label),
      { what: `network '${inputs.label}'` },
    );
    return !n || isCannotTell(n) ? n : { id: n.id, outputs: outputsOf(n) };
  },
  importId: (id) => id,
});
