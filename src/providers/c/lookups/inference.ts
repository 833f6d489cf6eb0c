// Inference flavor lookups: an account-wide catalog (no project or region), keyed by flavor name.
import { z } from 'zod';
import type { Wire } from '../client.js';
import { collectPages } from '../support/query.js';
import { camelize, SEED_FIELDS, withSeedFields } from '../support/shape.js';
import { effectiveMax, getOne, listId, maxItemsArg, provcLookup } from './shared.js';

const flavorShape = (w: Wire) =>
  withSeedFields(
    { ...(camelize(w) as Record<string, unknown>), flavorName: w.name, id: w.name },
    SEED_FIELDS.inferenceFlavor,
  );
const T_ONE = 'provc:index/getCloudInferenceFlavor:getCloudInferenceFlavor';
const T_LIST = 'provc:index/getCloudInferenceFlavors:getCloudInferenceFlavors';

export const getCloudInferenceFlavor = provcLookup({
  token: T_ONE,
  args: z
    .object({ flavorName: z.string().min(1).describe('Name of the inference flavor (flavors are keyed by name).') })
    .describe('Reads one inference flavor of the account-wide catalog by name.'),
  run: async (ctx, a) =>
    flavorShape(
      await getOne(T_ONE, `flavorName=${a.flavorName}`, () => ctx.config.client.getInferenceFlavor(ctx, a.flavorName)),
    ),
});

export const getCloudInferenceFlavors = provcLookup({
  token: T_LIST,
  args: z
    .object({ maxItems: maxItemsArg })
    .describe('Lists the inference flavors of the account-wide catalog, up to maxItems.'),
  run: async (ctx, a) => {
    const items = await collectPages(
      (offset) => ctx.config.client.listInferenceFlavors(ctx, { offset }),
      effectiveMax(a.maxItems),
    );
    return { ...a, items: items.map(flavorShape), id: listId(T_LIST, a) };
  },
});
