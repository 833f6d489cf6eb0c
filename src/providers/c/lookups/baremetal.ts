// Bare metal server lookups. The list lookup pages through GET /cloud/v1/bminstances until maxItems;
// the single lookup takes serverId or findOneBy (one list call whose first page must hold exactly
// one server, which is then read by id). DDoS filters only act with withDdos: a warning says so.
import { z } from 'zod';
import { baremetalQuery, collectPages, type BaremetalFilters, type Ctx, type ProvcConfig, type Wire } from '../client.js';
import type { Scope } from '../config.js';
import { camelize, SEED_FIELDS, withSeedFields } from '../shape.js';
import {
  checkScope, describeCriteria, effectiveMax, exactlyOne, exactlyOneOf, getOne, listId, maxItemsArg, provcLookup, requireScope, scopeArgs,
} from './shared.js';

export const baremetalOrderBy = ['created.asc', 'created.desc', 'name.asc', 'name.desc', 'status.asc', 'status.desc'] as const;
export const baremetalStatusFilter = ['ACTIVE', 'BUILD', 'ERROR', 'HARD_REBOOT', 'REBOOT', 'REBUILD', 'RESCUE', 'SHUTOFF', 'SUSPENDED'] as const;
export const protectionStatuses = ['Active', 'Queued', 'Error'] as const;

export const tagKeyValueArg = z.union([z.record(z.string(), z.string()), z.string()]).optional();

const filters = {
  changesBefore: z.iso.datetime({ offset: true }).optional(),
  changesSince: z.iso.datetime({ offset: true }).optional(),
  flavorId: z.string().optional(),
  flavorPrefix: z.string().optional(),
  includeK8s: z.boolean().optional(),
  ip: z.string().optional(),
  name: z.string().optional(),
  onlyIsolated: z.boolean().optional(),
  onlyWithFixedExternalIp: z.boolean().optional(),
  orderBy: z.enum(baremetalOrderBy).optional(),
  profileName: z.string().optional(),
  protectionStatus: z.enum(protectionStatuses).optional(),
  status: z.enum(baremetalStatusFilter).optional(),
  tagKeyValue: tagKeyValueArg,
  tagValues: z.array(z.string().min(1).max(255)).optional(),
  uuid: z.string().max(36).optional(),
  withInterfacesName: z.boolean().optional(),
  /** Asks for DDoS information; protectionStatus and profileName act only with it. */
  withDdos: z.boolean().optional(),
};

const findOneBy = z.object(filters).strict();

export function serverShape(w: Wire): Record<string, unknown> {
  return withSeedFields({ ...(camelize(w, { dataKeys: ['addresses'] }) as Record<string, unknown>), serverId: w.id }, SEED_FIELDS.baremetalServer);
}

function ddosWarnings(f: BaremetalFilters | undefined, where = ''): string[] {
  if (!f || f.withDdos) return [];
  const given = (['protectionStatus', 'profileName'] as const).filter((k) => f[k] !== undefined);
  return given.length ? [`${where}${given.join(' and ')} take effect only when DDoS information is requested; set withDdos: true, or the filter is ignored`] : [];
}

const list = (ctx: Ctx, c: ProvcConfig, s: Scope, f: BaremetalFilters, max: number) =>
  collectPages((offset) => c.client.listBaremetalServers(ctx, s, { ...baremetalQuery(f), offset }), max);

const T_ONE = 'provc:index/getCloudBaremetalServer:getCloudBaremetalServer';
const T_LIST = 'provc:index/getCloudBaremetalServers:getCloudBaremetalServers';

export const getCloudBaremetalServer = provcLookup({
  token: T_ONE,
  args: z.object({ ...scopeArgs, serverId: z.string().optional(), findOneBy: findOneBy.optional() }),
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
  args: z.object({ ...scopeArgs, ...filters, maxItems: maxItemsArg }),
  check: (a, c) => checkScope(a, c),
  warnings: (a) => ddosWarnings(a),
  run: async (ctx, a) => {
    const s = requireScope(a, ctx.config);
    const items = await list(ctx, ctx.config, s, a, effectiveMax(a.maxItems));
    return { ...a, items: items.map(serverShape), id: listId(T_LIST, a) };
  },
});
