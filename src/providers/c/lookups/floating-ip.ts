// Floating IP lookups: the list lookup pages GET /cloud/v1/floatingips (detailed items); the single
// lookup reads by floatingIpId, or by findOneBy (status, tagKeys, tagKeyValue): one list call whose
// first page must hold exactly one floating IP, which is then read by id (the smaller basic shape).
import { z } from 'zod';
import { type Wire } from '../client.js';
import { collectPages, floatingIpQuery } from '../support/query.js';
import { camelize, SEED_FIELDS, withSeedFields } from '../support/shape.js';
import { tagKeyValueArg } from './baremetal.js';
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

export const floatingIpStatuses = ['ACTIVE', 'DOWN', 'ERROR'] as const;

const filters = {
  status: z
    .enum(floatingIpStatuses)
    .optional()
    .describe('Only floating IPs in this status: ACTIVE (assigned), DOWN (unassigned) or ERROR.'),
  tagKeyValue: tagKeyValueArg,
  tagKeys: z
    .array(
      z
        .string()
        .min(1)
        .max(255)
        .regex(/^[^\s=]+$/),
    )
    .optional()
    .describe('Only floating IPs that have tags with these keys.'),
};

export function floatingIpShape(w: Wire): Record<string, unknown> {
  return withSeedFields(
    { ...(camelize(w, { dataKeys: ['addresses'] }) as Record<string, unknown>), floatingIpId: w.id },
    SEED_FIELDS.floatingIp,
  );
}

const T_ONE = 'provc:index/getCloudFloatingIp:getCloudFloatingIp';
const T_LIST = 'provc:index/getCloudFloatingIps:getCloudFloatingIps';

export const getCloudFloatingIp = provcLookup({
  token: T_ONE,
  args: z
    .object({
      ...scopeArgs,
      floatingIpId: z
        .string()
        .optional()
        .describe('UUID of the floating IP. Exactly one of floatingIpId and findOneBy must be set.'),
      findOneBy: z
        .object(filters)
        .strict()
        .optional()
        .describe(
          'List filters that must match exactly one floating IP on the first page of results (then read by id). Exactly one of floatingIpId and findOneBy must be set.',
        ),
    })
    .describe('Reads one floating IP, by id or by filters that match exactly one.'),
  check: (a, c) => [...checkScope(a, c), ...exactlyOneOf(a, 'floatingIpId', 'findOneBy')],
  run: async (ctx, a) => {
    const s = requireScope(a, ctx.config);
    let id = a.floatingIpId;
    if (id === undefined) {
      const page = await ctx.config.client.listFloatingIps(ctx, s, floatingIpQuery(a.findOneBy ?? {}));
      id = String(exactlyOne(T_ONE, page.results, describeCriteria(a.findOneBy ?? {})).id);
    }
    return floatingIpShape(
      await getOne(T_ONE, `floatingIpId=${id}`, () => ctx.config.client.getFloatingIp(ctx, s, id!)),
    );
  },
});

export const getCloudFloatingIps = provcLookup({
  token: T_LIST,
  args: z
    .object({ ...scopeArgs, ...filters, maxItems: maxItemsArg })
    .describe('Lists the floating IPs of a project and region that match the filters, up to maxItems.'),
  check: (a, c) => checkScope(a, c),
  run: async (ctx, a) => {
    const s = requireScope(a, ctx.config);
    const items = await collectPages(
      (offset) => ctx.config.client.listFloatingIps(ctx, s, { ...floatingIpQuery(a), offset }),
      effectiveMax(a.maxItems),
    );
    return { ...a, items: items.map(floatingIpShape), id: listId(T_LIST, a) };
  },
});
