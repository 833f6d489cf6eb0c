// Batched reads for provider B (on src/kit/read-many.ts): Civo lists whole objects per region (some
// page by page, the rest in one answer) and per parent (a domain's records, a cluster's pools), so a
// refresh reads a group's objects of one type with one listing instead of one GET each. An object a
// listing lacks is read alone by the engine (its `read` also looks in other regions).
import type { Prior, ReadItem, ReadResult } from '../../../engine/provider/define.js';
import type { Listed } from '../wire/objects.js';
import { priorRegion } from '../support/region.js';
import type { ProvbContext } from '../config.js';
import { readByGroup, type GroupedRead } from '../../../kit/read-many.js';

type ReadMany = (ctx: ProvbContext, items: readonly ReadItem[]) => Promise<ReadonlyMap<string, ReadResult | null>>;
type Grouped<T extends Listed> = Omit<GroupedRead<ProvbContext, T>, 'idOf'>;

/** The kit's readByGroup for Civo objects, which are listed with their `id`. */
export function readGroupedById<T extends Listed>(g: Grouped<T>): ReadMany {
  return readByGroup<ProvbContext, T>({ idOf: (w) => String(w.id), ...g });
}

/** One listing per region (the region the object was recorded in). */
export function readByRegion<T extends Listed>(
  list: (ctx: ProvbContext, region: string) => Promise<readonly T[]>,
  toResult: (w: T, prior: Prior) => ReadResult | null,
): ReadMany {
  return readGroupedById({ groupOf: (ctx, it) => priorRegion(ctx, it.prior), list, toResult });
}

/** The same for account-wide lists (SSH keys, DNS domains): one listing for every object asked for. */
export function readByList<T extends Listed>(
  list: (ctx: ProvbContext) => Promise<readonly T[]>,
  toResult: (w: T, prior: Prior) => ReadResult,
  matches: (w: T, id: string) => boolean = (w, id) => String(w.id) === id,
): ReadMany {
  return readGroupedById<T>({
    groupOf: () => '',
    list: (ctx) => list(ctx),
    pick: (listed, all, id) => listed.get(id) ?? all.find((x) => matches(x, id)),
    toResult,
  });
}
