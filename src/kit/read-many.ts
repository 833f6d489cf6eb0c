// The one batched-read mechanism providers build `readMany` on: the items asked for are grouped by
// the listing that holds them (a region, a project, a parent object), each listing is fetched once
// (the groups at the same time), and every item found in it is answered from it. An item its
// listing lacks is left out of the answer, never answered "gone": a listing is not proof of absence
// (read page by page, it can skip an object another deletion shifted between two pages; it may not
// hold what `read` finds elsewhere), so the engine reads each such item alone with `read`.
import type { Prior, ReadItem, ReadResult } from '../engine/provider/define.js';

/** How one resource type reads in groups. `W` is the vendor's listed object. */
export type GroupedRead<C, W> = {
  /** The listing an item belongs to ('LON1', a domain id, '<project>/<region>'). */
  readonly groupOf: (ctx: C, item: ReadItem) => string;
  /** Every object of one group; null when the group itself is gone (its parent deleted). */
  readonly list: (ctx: C, group: string) => Promise<readonly W[] | null>;
  /** The listed object's id as the engine records it. */
  readonly idOf: (w: W) => string;
  /** The listed object an item's id names, when not found by `idOf` (a compound id, a name). */
  readonly pick?: (listed: ReadonlyMap<string, W>, all: readonly W[], id: string, prior: Prior) => W | undefined;
  /** What `read` answers for that object. */
  readonly toResult: (w: W, prior: Prior, id: string, ctx: C) => ReadResult | null;
};

/** A `readMany` from one listing per group: an entry for each item its listing holds, none for the rest. */
export function readByGroup<C, W>(
  g: GroupedRead<C, W>,
): (ctx: C, items: readonly ReadItem[]) => Promise<ReadonlyMap<string, ReadResult | null>> {
  return async (ctx, items) => {
    const groups = new Map<string, ReadItem[]>();
    for (const it of items) {
      const key = g.groupOf(ctx, it);
      const group = groups.get(key);
      if (group) group.push(it);
      else groups.set(key, [it]);
    }
    const out = new Map<string, ReadResult | null>();
    await Promise.all(
      [...groups].map(async ([key, group]) => {
        const all = (await g.list(ctx, key)) ?? [];
        const listed = new Map(all.map((w) => [g.idOf(w), w]));
        for (const it of group) {
          const w = g.pick ? g.pick(listed, all, it.id, it.prior) : listed.get(it.id);
          if (w) out.set(it.id, g.toResult(w, it.prior, it.id, ctx));
        }
      }),
    );
    return out;
  };
}
