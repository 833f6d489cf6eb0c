// List lookups with filters and sorts: getDatabaseVersion, getDiskImage, getInstances,
// getKubernetesVersion, getRegion, getSize. No match is not an error: the list is empty.
import { isOperationTag } from '../resources/claim.js';
import { z } from 'zod';
import { defineLookup } from '../../../engine/provider/define.js';
import type { ProvbConfig, ProvbContext } from '../config.js';
import { checkRegion, regionOf } from '../support/region.js';
import {
  applyListArgs,
  checkListArgs,
  listArgs,
  listId,
  type FieldTypes,
  type Filter,
  type Row,
  type Sort,
} from './datalist.js';

type ListSpec<K extends string> = {
  readonly fn: string;
  readonly result: K;
  readonly fields: FieldTypes;
  readonly regional: boolean;
  /** The lookup's summary for the reference page. */
  readonly summary: string;
  readonly rows: (ctx: ProvbContext, region: string | undefined) => Promise<Row[]>;
};

/** What a list lookup returns: its arguments, a stable id, and the matching records under `K`. */
export type ListResult<K extends string> = {
  readonly id: string;
  readonly filters: readonly Filter[];
  readonly sorts: readonly Sort[];
  readonly region?: string;
} & { readonly [P in K]: Row[] };

function listLookup<K extends string>(spec: ListSpec<K>) {
  const token = `provb:index/${spec.fn}:${spec.fn}`;
  return defineLookup({
    token,
    // `region` is accepted by every list lookup; only the regional ones use it.
    args: z
      .strictObject({
        ...listArgs,
        id: z.string().optional().describe('Id to give the result; by default a stable hash of the arguments.'),
        region: z
          .string()
          .optional()
          .describe(
            "Civo region code (e.g. LON1) to list in; defaults to the provider's region. Ignored by non-regional lists.",
          ),
      })
      .describe(spec.summary),
    check: (args, config: ProvbConfig) => [
      ...(spec.regional ? checkRegion(args, config) : []),
      ...checkListArgs(args, spec.fields),
    ],
    run: async (ctx: ProvbContext, args): Promise<ListResult<K>> => {
      const region = spec.regional ? regionOf(ctx, args) : undefined;
      const rows = applyListArgs(await spec.rows(ctx, region), args, spec.fields);
      return {
        id: args.id ?? listId(token, { ...args, region }),
        filters: args.filters,
        sorts: args.sorts,
        ...(region ? { region } : {}),
        [spec.result]: rows,
      } as ListResult<K>;
    },
  });
}

export const getInstances = listLookup({
  fn: 'getInstances',
  summary: 'Lists the instances in a region, with filters and sorts; no match gives an empty list.',
  result: 'instances',
  regional: true,
  fields: {
    id: 'string',
    hostname: 'string',
    region: 'string',
    reverseDns: 'string',
    size: 'string',
    cpuCores: 'int',
    ramMb: 'int',
    diskGb: 'int',
    networkId: 'string',
    template: 'string',
    initialUser: 'string',
    notes: 'string',
    sshkeyId: 'string',
    firewallId: 'string',
    tags: 'list',
    script: 'string',
    initialPassword: 'string',
    privateIp: 'string',
    publicIp: 'string',
    pseudoIp: 'string',
    status: 'string',
    createdAt: 'string',
  },
  rows: async (ctx, region) =>
    (await ctx.config.client.listInstances(ctx, region!)).map((i) => ({
      id: i.id,
      hostname: i.hostname,
      region: region!,
      reverseDns: i.reverse_dns ?? '',
      size: i.size,
      cpuCores: i.cpu_cores,
      ramMb: i.ram_mb,
      diskGb: i.disk_gb,
      networkId: i.network_id,
      template: i.template_id ?? '',
      initialUser: i.initial_user ?? '',
      notes: i.notes ?? '',
      sshkeyId: i.ssh_key_id ?? '',
      firewallId: i.firewall_id ?? '',
      tags: (i.tags ?? []).filter((t: unknown) => !isOperationTag(t)),
      script: i.script ? Buffer.from(i.script, 'base64').toString('utf8') : '',
      initialPassword: i.initial_password ?? '',
      privateIp: i.private_ip ?? '',
      publicIp: i.public_ip ?? '',
      pseudoIp: i.pseudo_ip ?? '',
      status: i.status,
      createdAt: i.created_at ?? '',
    })),
});

export const getSize = listLookup({
  fn: 'getSize',
  summary: 'Lists the selectable instance, Kubernetes and database sizes, with filters and sorts.',
  result: 'sizes',
  regional: false,
  fields: {
    name: 'string',
    type: 'string',
    cpu: 'int',
    ram: 'int',
    disk: 'int',
    gpu: 'int',
    gpuType: 'string',
    description: 'string',
    selectable: 'bool',
  },
  rows: async (ctx) =>
    (await ctx.config.client.sizes(ctx))
      .filter((s) => s.selectable)
      .map((s) => ({
        name: s.name,
        type: String(s.type).toLowerCase(),
        cpu: s.cpu_cores,
        ram: s.ram_mb,
        disk: s.disk_gb,
        gpu: s.gpu_count ?? 0,
        gpuType: s.gpu_type ?? '',
        description: s.description ?? '',
        selectable: s.selectable === true,
      })),
});

export const getDiskImage = listLookup({
  fn: 'getDiskImage',
  summary: 'Lists the disk images (templates) available in a region, with filters and sorts.',
  result: 'diskimages',
  regional: true,
  fields: { id: 'string', name: 'string', version: 'string', label: 'string' },
  rows: async (ctx, region) =>
    (await ctx.config.client.diskImages(ctx, region))
      .filter((i) => !/k3s|talos/.test(String(i.name)))
      .map((i) => ({ id: i.id, name: i.name, version: i.version ?? '', label: i.label ?? '' })),
});

export const getKubernetesVersion = listLookup({
  fn: 'getKubernetesVersion',
  summary: 'Lists the Kubernetes versions Civo offers, with filters and sorts.',
  result: 'versions',
  regional: false,
  fields: { version: 'string', label: 'string', type: 'string', default: 'bool' },
  rows: async (ctx) =>
    (await ctx.config.client.kubernetesVersions(ctx)).map((v) => ({
      version: v.version,
      label: v.label ?? '',
      type: v.clusterType ?? v.type ?? '',
      default: v.default === true,
    })),
});

export const getRegion = listLookup({
  fn: 'getRegion',
  summary: 'Lists the Civo regions, with filters and sorts.',
  result: 'regions',
  regional: false,
  fields: { code: 'string', name: 'string', country: 'string', default: 'bool' },
  rows: async (ctx) =>
    (await ctx.config.client.regions(ctx)).map((r) => ({
      code: r.code,
      name: r.name,
      country: r.country ?? '',
      default: r.default === true,
    })),
});

export const getDatabaseVersion = listLookup({
  fn: 'getDatabaseVersion',
  summary: 'Lists the database engines and versions Civo offers, with filters and sorts.',
  result: 'versions',
  regional: false,
  fields: { engine: 'string', version: 'string', default: 'bool' },
  rows: async (ctx) =>
    Object.entries(await ctx.config.client.databaseVersions(ctx)).flatMap(([engine, versions]) =>
      (versions ?? []).map((v) => ({ engine, version: String(v.software_version), default: v.default === true })),
    ),
});
