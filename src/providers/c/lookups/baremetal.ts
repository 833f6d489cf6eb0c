// Bare metal server lookups. The list lookup pages through GET /cloud/v1/bminstances until maxItems;
// the single lookup takes serverId or findOneBy (one list call whose first page must hold exactly
// one server, which is then read by id). DDoS filters only act with withDdos: a warning says so.
import { z } from 'zod';
import { type Ctx, type Wire } from '../client.js';
import type { ProvcConfig } from '../config.js';
import { baremetalQuery, collectPages, type BaremetalFilters } from '../support/query.js';
import type { Scope } from '../wire/cloud.js';
import { camelize, SEED_FIELDS, withSeedFields } from '../support/shape.js';
import {
  checkScope,
  describeCriteria,
  effectiveMax,
  exactlyOne,
  exactlyOneOf,
  getOne,
  listId,
  maxItemsArg,
  provcLookup,
  requireScope,
  scopeArgs,
} from './shared.js';

export const baremetalOrderBy = [
  'created.asc',
  'created.desc',
  'name.asc',
  'name.desc',
  'status.asc',
  'status.desc',
] as const;
export const baremetalStatusFilter = [
  'ACTIVE',
  'BUILD',
  'ERROR',
  'HARD_REBOOT',
  'REBOOT',
  'REBUILD',
  'RESCUE',
  'SHUTOFF',
  'SUSPENDED',
] as const;
export const protectionStatuses = ['Active', 'Queued', 'Error'] as const;

export const tagKeyValueArg = z
  .union([z.record(z.string(), z.string()), z.string()])
  .optional()
  .describe('Tags that must match exactly, as { key: value } pairs (or that object as a JSON string).');

const filters = {
  changesBefore: z.iso
    .datetime({ offset: true })
    .optional()
    .describe('Only servers last changed before this time (ISO 8601 with a time zone).'),
  changesSince: z.iso
    .datetime({ offset: true })
    .optional()
    .describe('Only servers whose status changed since this time (ISO 8601 with a time zone).'),
  flavorId: z.string().optional().describe('Only servers of this flavor, exact match (bm2-hf-small).'),
  flavorPrefix: z.string().optional().describe('Only servers whose flavor id starts with this prefix (bm2-).'),
  includeK8s: z.boolean().optional().describe('Include managed Kubernetes worker nodes; the server defaults to true.'),
  ip: z
    .string()
    .optional()
    .describe('Only servers with this IPv4 address; partial match (192.168.0.1 also matches .10 and .110).'),
  name: z.string().optional().describe('Only servers whose name contains this text.'),
  onlyIsolated: z.boolean().optional().describe('Only isolated servers; the server defaults to false.'),
  onlyWithFixedExternalIp: z.boolean().optional().describe('Only servers that have a fixed external IP.'),
  orderBy: z.enum(baremetalOrderBy).optional().describe('Sort order of the list; the server defaults to created.desc.'),
  profileName: z
    .string()
    .optional()
    .describe('Only servers with this DDoS protection profile; takes effect only with withDdos true.'),
  protectionStatus: z
    .enum(protectionStatuses)
    .optional()
    .describe('Only servers with this DDoS protection status; takes effect only with withDdos true.'),
  status: z.enum(baremetalStatusFilter).optional().describe('Only servers in this status.'),
  tagKeyValue: tagKeyValueArg,
  tagValues: z
    .array(z.string().min(1).max(255))
    .optional()
    .describe('Only servers with a tag whose value is any of these.'),
  uuid: z.string().max(36).optional().describe('Only servers whose id matches this UUID; partial match allowed.'),
  withInterfacesName: z
    .boolean()
    .optional()
    .describe('Add the interface name to each address of the servers; the server defaults to false.'),
  withDdos: z
    .boolean()
    .optional()
    .describe(
      'Ask for DDoS information; protectionStatus and profileName act only with it. The server defaults to false.',
    ),
};

const findOneBy = z.object(filters).strict();

export function serverShape(w: Wire): Record<string, unknown> {
  return withSeedFields(
    { ...(camelize(w, { dataKeys: ['addresses'] }) as Record<string, unknown>), serverId: w.id },
    SEED_FIELDS.baremetalServer,
  );
}

function ddosWarnings(f: BaremetalFilters | undefined, where = ''): string[] {
  if (!f || f.withDdos) return [];
  const given = (['protectionStatus', 'profileName'] as const).filter((k) => f[k] !== undefined);
  return given.length
    ? [
        `${where}${given.join(' and ')} take effect only when DDoS information is requested; set withDdos: true, or the filter is ignored`,
      ]
    : [];
}

const list = (ctx: Ctx, c: ProvcConfig, s: Scope, f: BaremetalFilters, max: number) =>
  collectPages((offset) => c.client.listBaremetalServers(ctx, s, { ...baremetalQuery(f), offset }), max);

const T_ONE = 'provc:index/getCloudBaremetalServer:getCloudBaremetalServer';
const T_LIST = 'provc:index/getCloudBaremetalServers:getCloudBaremetalServers';

export const getCloudBaremetalServer = provcLookup({
  token: T_ONE,
  args: z
    .object({
      ...scopeArgs,
      serverId: z
        .string()
        .optional()
        .describe('UUID of the server. Exactly one of serverId and findOneBy must be set.'),
      findOneBy: findOneBy
        .optional()
        .describe(
          'List filters that must match exactly one server on the first page of results (then read by id). Exactly one of serverId and findOneBy must be set.',
        ),
    })
    .describe('Reads one bare metal server, by id or by filters that match exactly one.'),
  check: (a, c) => [...checkScope(a, c), ...exactlyOneOf(a, 'serverId', 'findOneBy')],
  warnings: (a) => ddosWarnings(a.findOneBy, 'findOneBy: '),
  run: async (ctx, a) => {
    const s = requireScope(a, ctx.config);
    let id = a.serverId;
    if (id === undefined) {
      const page = await ctx.config.client.listBaremetalServers(ctx, s, baremetalQuery(a.findOneBy ?? {}));
      id = String(exactlyOne(T_ONE, page.results, describeCriteria(a.findOneBy ?? {})).id);
    }
    const server = await getOne(T_ONE, `serverId=${id}`, () => ctx.config.client.getBaremetalServer(ctx, s, id!));
    return { ...serverShape(server), projectId: s.projectId, regionId: s.regionId };
  },
});

export const getCloudBaremetalServers = provcLookup({
  token: T_LIST,
  args: z
    .object({ ...scopeArgs, ...filters, maxItems: maxItemsArg })
    .describe('Lists the bare metal servers of a project and region that match the filters, up to maxItems.'),
  check: (a, c) => checkScope(a, c),
  warnings: (a) => ddosWarnings(a),
  run: async (ctx, a) => {
    const s = requireScope(a, ctx.config);
    const items = await list(ctx, ctx.config, s, a, effectiveMax(a.maxItems));
    return { ...a, items: items.map(serverShape), id: listId(T_LIST, a) };
  },
});
