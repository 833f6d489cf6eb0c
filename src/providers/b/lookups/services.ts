// Single lookups of managed services and DNS: getDatabase, getKubernetesCluster, getDnsDomainName,
// getDnsDomainRecord, getObjectStore, getObjectStoreCredential.
import { z } from 'zod';
import { defineLookup } from '../../../engine/provider/define.js';
import { LookupError } from '../../../engine/errors.js';
import { orNull } from '../../../kit/gone.js';
import { regionOf } from '../support/region.js';
import type { ProvbContext } from '../config.js';
import { atLeastOne, criteria, exactlyOne, regional, idNameArgs, regionArg } from './args.js';
import { findOne } from './find.js';

const tokenOf = (fn: string) => `provb:index/${fn}:${fn}`;

/** `id` overrides `name` when both are set (the upstream rule for these lookups). */
const searchOf = (a: { id?: string; name?: string }) => a.id || a.name || '';

export const getDatabase = defineLookup({
  token: tokenOf('getDatabase'),
  args: z
    .strictObject({ ...idNameArgs('database', 'give id or name (id wins)'), region: regionArg() })
    .describe('Reads one database by id or name (case-insensitive); several exact matches are ambiguous.'),
  check: regional((a) => atLeastOne(a, ['id', 'name'])),
  run: async (ctx: ProvbContext, args) => {
    const region = regionOf(ctx, args);
    const d = findOne(await ctx.config.client.listDatabases(ctx, region), searchOf(args), {
      token: tokenOf('getDatabase'),
      criteria: criteria(args, args.id ? ['id'] : ['name'], region),
      keys: (x) => [x.name, x.id],
      caseInsensitive: true,
      uniqueExact: true,
    });
    return {
      id: d.id,
      name: d.name,
      region,
      dnsEndpoint: `${d.id}.db.civo.com`,
      endpoint: d.public_ipv4 ?? '',
      engine: d.software,
      firewallId: d.firewall_id ?? '',
      networkId: d.network_id ?? '',
      nodes: d.nodes,
      password: d.password ?? '',
      port: d.port,
      size: d.size,
      status: d.status,
      username: d.username ?? '',
      version: String(d.software_version),
    };
  },
});

export const getKubernetesCluster = defineLookup({
  token: tokenOf('getKubernetesCluster'),
  args: z
    .strictObject({ ...idNameArgs('Kubernetes cluster'), region: regionArg() })
    .describe('Reads one Kubernetes cluster by id or name (case-insensitive); several exact matches are ambiguous.'),
  check: regional((a) => exactlyOne(a, ['id', 'name'])),
  run: async (ctx: ProvbContext, args) => {
    const region = regionOf(ctx, args);
    const c = findOne(await ctx.config.client.listClusters(ctx, region), searchOf(args), {
      token: tokenOf('getKubernetesCluster'),
      criteria: criteria(args, ['id', 'name'], region),
      keys: (x) => [x.name, x.id],
      caseInsensitive: true,
      uniqueExact: true,
    });
    return {
      id: c.id,
      name: c.name,
      region,
      apiEndpoint: c.api_endpoint ?? '',
      cni: c.cni_plugin ?? '',
      createdAt: c.created_at ?? '',
      dnsEntry: c.dns_entry ?? '',
      applications: (c.installed_applications ?? []).map((a) => a.application ?? a.name).join(','),
      installedApplications: (c.installed_applications ?? []).map((a) => ({
        application: a.application ?? a.name,
        version: a.version ?? '',
        installed: a.installed === true,
        category: a.category ?? '',
      })),
      kubeconfig: c.kubeconfig ?? '',
      kubernetesVersion: c.kubernetes_version ?? '',
      masterIp: c.master_ip ?? '',
      numTargetNodes: c.num_target_nodes ?? 0,
      pools: (c.pools ?? []).map((p) => ({
        label: p.id,
        nodeCount: p.count,
        size: p.size,
        instanceNames: p.instance_names ?? [],
        publicIpNodePool: p.public_ip_node_pool === true,
      })),
      ready: c.ready === true,
      status: c.status,
      tags: c.tags ?? [],
      targetNodesSize: c.target_nodes_size ?? '',
      volumeType: c.volume_type ?? '',
    };
  },
});

export const getDnsDomainName = defineLookup({
  token: tokenOf('getDnsDomainName'),
  args: z
    .strictObject(idNameArgs('DNS domain'))
    .describe('Reads one DNS domain by id or name (domains are account-wide).'),
  check: (a) => exactlyOne(a, ['id', 'name']),
  run: async (ctx: ProvbContext, args) => {
    const d = findOne(await ctx.config.client.listDomains(ctx), searchOf(args), {
      token: tokenOf('getDnsDomainName'),
      criteria: criteria(args, ['id', 'name']),
      keys: (x) => [x.name, x.id],
    });
    return { id: d.id, name: d.name };
  },
});

export const getDnsDomainRecord = defineLookup({
  token: tokenOf('getDnsDomainRecord'),
  args: z
    .strictObject({
      domainId: z.string().min(1).describe('Id of the DNS domain that holds the record (required).'),
      name: z
        .string()
        .min(1)
        .describe(
          'Record name, matched exactly (e.g. `www`, or `@` for the apex); several records with that name are ambiguous unless `id` narrows them.',
        ),
      id: z.string().optional().describe('Id of the record, to pick one among several with the same name.'),
    })
    .describe('Reads one DNS record of a domain by name.'),
  run: async (ctx: ProvbContext, args) => {
    const what = `name '${args.name}' in domain '${args.domainId}'`;
    const records = await orNull(() => ctx.config.client.listRecords(ctx, args.domainId));
    if (!records) throw new LookupError(tokenOf('getDnsDomainRecord'), 'not_found', [], `domain '${args.domainId}'`);
    const found = records.filter((r) => r.name === args.name && (!args.id || r.id === args.id));
    if (found.length === 0) throw new LookupError(tokenOf('getDnsDomainRecord'), 'not_found', [], what);
    if (found.length > 1)
      throw new LookupError(
        tokenOf('getDnsDomainRecord'),
        'ambiguous',
        found.map((r) => `${r.type} ${r.name} ${r.value} (${r.id})`),
        what,
      );
    const r = found[0]!;
    return {
      id: r.id,
      accountId: r.account_id ?? '',
      createdAt: r.created_at ?? '',
      domainId: r.domain_id,
      name: r.name,
      priority: r.priority ?? 0,
      ttl: r.ttl,
      type: r.type,
      updatedAt: r.updated_at ?? '',
      value: r.value,
    };
  },
});

export const getObjectStore = defineLookup({
  token: tokenOf('getObjectStore'),
  args: z
    .strictObject({ ...idNameArgs('object store', 'give id or name (id wins)'), region: regionArg() })
    .describe('Reads one object store (bucket) by id or name.'),
  check: regional((a) => atLeastOne(a, ['id', 'name'])),
  run: async (ctx: ProvbContext, args) => {
    const region = regionOf(ctx, args);
    const o = findOne(await ctx.config.client.listObjectStores(ctx, region), searchOf(args), {
      token: tokenOf('getObjectStore'),
      criteria: criteria(args, args.id ? ['id'] : ['name'], region),
      keys: (x) => [x.name, x.id],
    });
    return {
      id: o.id,
      name: o.name,
      region,
      maxSizeGb: o.max_size,
      accessKeyId: o.owner_info?.access_key_id ?? '',
      bucketUrl: o.objectstore_endpoint ?? '',
      status: o.status,
    };
  },
});

export const getObjectStoreCredential = defineLookup({
  token: tokenOf('getObjectStoreCredential'),
  args: z
    .strictObject({ ...idNameArgs('object store credential', 'give id or name (id wins)'), region: regionArg() })
    .describe('Reads one object store credential by id, name or access key id.'),
  check: regional((a) => atLeastOne(a, ['id', 'name'])),
  run: async (ctx: ProvbContext, args) => {
    const region = regionOf(ctx, args);
    const c = findOne(await ctx.config.client.listCredentials(ctx, region), searchOf(args), {
      token: tokenOf('getObjectStoreCredential'),
      criteria: criteria(args, args.id ? ['id'] : ['name'], region),
      keys: (x) => [x.access_key_id, x.name, x.id],
    });
    return {
      id: c.id,
      name: c.name,
      region,
      accessKeyId: c.access_key_id ?? '',
      secretAccessKey: c.secret_access_key_id ?? '',
      status: c.status,
    };
  },
});
