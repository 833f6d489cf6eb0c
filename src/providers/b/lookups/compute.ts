// Single lookups of compute and network objects: getInstance, getFirewall / getVpcFirewall,
// getNetwork / getVpcNetwork, getVpcSubnet, getReservedIp / getVpcReservedIp, getVolume, getSshKey,
// getLoadbalancer / getVpcLoadbalancer.
import { isOperationTag } from '../resources/claim.js';
import { z } from 'zod';
import { defineLookup } from '../../../engine/provider/define.js';
import { LookupError } from '../../../engine/errors.js';
import type * as W from '../wire/objects.js';
import { regionOf } from '../support/region.js';
import type { ProvbContext } from '../config.js';
import { atLeastOne, criteria, exactlyOne, idNameArgs, regional, regionArg } from './args.js';
import { findOne } from './find.js';

const tokenOf = (fn: string) => `provb:index/${fn}:${fn}`;

export const getInstance = defineLookup({
  token: tokenOf('getInstance'),
  args: z
    .strictObject({
      id: z.string().optional().describe('Id of the instance; give exactly one of id and hostname.'),
      hostname: z
        .string()
        .optional()
        .describe(
          'Hostname of the instance; give exactly one of id and hostname. Several exact matches are ambiguous (an error).',
        ),
      region: regionArg(),
    })
    .describe('Reads one instance by id or hostname.'),
  check: regional((a) => exactlyOne(a, ['id', 'hostname'])),
  run: async (ctx: ProvbContext, args) => {
    const region = regionOf(ctx, args);
    const items = await ctx.config.client.listInstances(ctx, region);
    const i = findOne(items, args.id ?? args.hostname ?? '', {
      token: tokenOf('getInstance'),
      criteria: criteria(args, ['id', 'hostname'], region),
      keys: (x) => [x.hostname, x.id],
      uniqueExact: true,
      describe: (x) => `${x.hostname} (${x.id})`,
    });
    return {
      id: i.id,
      hostname: i.hostname,
      region,
      cpuCores: i.cpu_cores,
      createdAt: i.created_at,
      diskGb: i.disk_gb,
      firewallId: i.firewall_id,
      initialPassword: i.initial_password ?? '',
      initialUser: i.initial_user,
      networkId: i.network_id,
      notes: i.notes ?? '',
      privateIp: i.private_ip ?? '',
      pseudoIp: i.pseudo_ip ?? '',
      publicIp: i.public_ip ?? '',
      ramMb: i.ram_mb,
      reverseDns: i.reverse_dns ?? '',
      script: i.script ? Buffer.from(i.script, 'base64').toString('utf8') : '',
      size: i.size,
      sshkeyId: i.ssh_key_id ?? '',
      status: i.status,
      tags: (i.tags ?? []).filter((t: unknown) => !isOperationTag(t)),
      template: i.template_id ?? '',
    };
  },
});

function firewallLookup(fn: string) {
  return defineLookup({
    token: tokenOf(fn),
    args: z
      .strictObject({ ...idNameArgs('firewall'), region: regionArg() })
      .describe('Reads one firewall by id or name.'),
    check: regional((a) => exactlyOne(a, ['id', 'name'])),
    run: async (ctx: ProvbContext, args) => {
      const region = regionOf(ctx, args);
      const f = findOne(await ctx.config.client.listFirewalls(ctx, region), args.id ?? args.name ?? '', {
        token: tokenOf(fn),
        criteria: criteria(args, ['id', 'name'], region),
        keys: (x) => [x.name, x.id],
      });
      return { id: f.id, name: f.name, networkId: f.network_id, region };
    },
  });
}
export const getFirewall = firewallLookup('getFirewall');
export const getVpcFirewall = firewallLookup('getVpcFirewall');

function networkLookup(fn: string) {
  return defineLookup({
    token: tokenOf(fn),
    args: z
      .strictObject({
        id: z.string().optional().describe('Id of the network; give id, label or both (id is searched first).'),
        label: z
          .string()
          .optional()
          .describe('Label (or name) of the network; an exact match wins, else a single partial match.'),
        region: regionArg(),
      })
      .describe('Reads one private network by id or label.'),
    check: regional((a) => atLeastOne(a, ['id', 'label'])),
    run: async (ctx: ProvbContext, args) => {
      const region = regionOf(ctx, args);
      const n = findOne(await ctx.config.client.listNetworks(ctx, region), args.id ?? args.label ?? '', {
        token: tokenOf(fn),
        criteria: criteria(args, ['id', 'label'], region),
        keys: (x) => [x.name, x.id, x.label],
      });
      return { id: n.id, label: n.label, name: n.name, default: n.default === true, region };
    },
  });
}
export const getNetwork = networkLookup('getNetwork');
export const getVpcNetwork = networkLookup('getVpcNetwork');

export const getVpcSubnet = defineLookup({
  token: tokenOf('getVpcSubnet'),
  args: z
    .strictObject({
      networkId: z.string().min(1).describe('Id of the network whose subnets are searched (required).'),
      ...idNameArgs('subnet'),
      region: regionArg(),
    })
    .describe('Reads one subnet of a private network by id or name.'),
  check: regional((a) => exactlyOne(a, ['id', 'name'])),
  run: async (ctx: ProvbContext, args) => {
    const region = regionOf(ctx, args);
    const s = findOne(await ctx.config.client.listSubnets(ctx, region, args.networkId), args.id ?? args.name ?? '', {
      token: tokenOf('getVpcSubnet'),
      criteria: criteria(args, ['id', 'name'], region),
      keys: (x) => [x.name, x.id],
    });
    return {
      id: s.id,
      name: s.name,
      networkId: s.network_id,
      region,
      status: s.status,
      subnetSize: String(s.subnet_size ?? ''),
    };
  },
});

function reservedIpLookup(fn: string) {
  return defineLookup({
    token: tokenOf(fn),
    args: z
      .strictObject({
        ...idNameArgs('reserved IP', 'give exactly one of id and name (name also matches the address)'),
        region: regionArg(),
      })
      .describe('Reads one reserved IP by id, name or address.'),
    check: regional((a) => exactlyOne(a, ['id', 'name'])),
    run: async (ctx: ProvbContext, args) => {
      const region = regionOf(ctx, args);
      const ip = findOne(await ctx.config.client.listIps(ctx, region), args.id ?? args.name ?? '', {
        token: tokenOf(fn),
        criteria: criteria(args, ['id', 'name'], region),
        keys: (x) => [x.ip, x.name, x.id],
      });
      return {
        id: ip.id,
        name: ip.name,
        ip: ip.ip,
        instanceId: ip.assigned_to?.id ?? '',
        instanceName: ip.assigned_to?.name ?? '',
        region,
      };
    },
  });
}
export const getReservedIp = reservedIpLookup('getReservedIp');
export const getVpcReservedIp = reservedIpLookup('getVpcReservedIp');

export const getVolume = defineLookup({
  token: tokenOf('getVolume'),
  args: z.strictObject({ ...idNameArgs('volume'), region: regionArg() }).describe('Reads one volume by id or name.'),
  check: regional((a) => exactlyOne(a, ['id', 'name'])),
  run: async (ctx: ProvbContext, args) => {
    const region = regionOf(ctx, args);
    const v = findOne(await ctx.config.client.listVolumes(ctx, region), args.id ?? args.name ?? '', {
      token: tokenOf('getVolume'),
      criteria: criteria(args, ['id', 'name'], region),
      keys: (x) => [x.name, x.id],
    });
    return {
      id: v.id,
      name: v.name,
      region,
      createdAt: v.created_at ?? '',
      mountPoint: v.mountpoint && v.mountpoint !== 'null' ? v.mountpoint : '',
      sizeGb: v.size_gb,
      volumeType: v.volume_type ?? '',
    };
  },
});

export const getSshKey = defineLookup({
  token: tokenOf('getSshKey'),
  args: z
    .strictObject(idNameArgs('SSH key'))
    .describe('Reads one SSH key by id or name (SSH keys are account-wide, not regional).'),
  check: (a) => exactlyOne(a, ['id', 'name']),
  run: async (ctx: ProvbContext, args) => {
    const k = findOne(await ctx.config.client.listSshKeys(ctx), args.id ?? args.name ?? '', {
      token: tokenOf('getSshKey'),
      criteria: criteria(args, ['id', 'name']),
      keys: (x) => [x.name, x.id],
    });
    return { id: k.id, name: k.name, fingerprint: k.fingerprint ?? '' };
  },
});

const lbOutputs = (lb: W.LoadBalancer, region: string) => ({
  id: lb.id,
  name: lb.name,
  region,
  algorithm: lb.algorithm ?? '',
  backends: lb.backends ?? [],
  clusterId: lb.cluster_id ?? '',
  enableProxyProtocol: String(lb.enable_proxy_protocol ?? ''),
  externalTrafficPolicy: lb.external_traffic_policy ?? '',
  firewallId: lb.firewall_id ?? '',
  privateIp: lb.private_ip ?? '',
  publicIp: lb.public_ip ?? '',
  sessionAffinity: lb.session_affinity ?? '',
  sessionAffinityConfigTimeout: Number(lb.session_affinity_config_timeout ?? 0),
  state: lb.state ?? '',
});

/** getLoadbalancer: `name` wins over `id`; getVpcLoadbalancer: exactly one of them. */
function loadBalancerLookup(
  fn: string,
  rule: (a: Record<string, unknown>) => ReturnType<typeof exactlyOne>,
  nameWins: boolean,
) {
  return defineLookup({
    token: tokenOf(fn),
    args: z
      .strictObject({
        ...idNameArgs(
          'load balancer',
          nameWins ? 'give id, name or both (name wins)' : 'give exactly one of id and name',
        ),
        region: regionArg(),
      })
      .describe('Reads one load balancer by id or name.'),
    check: regional(rule),
    run: async (ctx: ProvbContext, args) => {
      const region = regionOf(ctx, args);
      const search = nameWins ? (args.name ?? args.id ?? '') : (args.id ?? args.name ?? '');
      const items = await ctx.config.client.listLoadBalancers(ctx, region);
      if (!search) throw new LookupError(tokenOf(fn), 'not_found', [], criteria(args, ['id', 'name'], region));
      return lbOutputs(
        findOne(items, search, {
          token: tokenOf(fn),
          criteria: criteria(args, ['id', 'name'], region),
          keys: (x) => [x.name, x.id],
        }),
        region,
      );
    },
  });
}
export const getLoadbalancer = loadBalancerLookup('getLoadbalancer', (a) => atLeastOne(a, ['name', 'id']), true);
export const getVpcLoadbalancer = loadBalancerLookup('getVpcLoadbalancer', (a) => exactlyOne(a, ['id', 'name']), false);
