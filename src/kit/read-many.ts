// The one batched-read mechanism providers build `readMany` on: the items asked for are grouped by
// the listing that holds them (a region, a project, a parent object), each listing is fetched once
// (the groups at the same time), and every item is answered from it. An item its listing lacks is
// gone, unless the provider's `read` would look further (an import-style scan): then `fallback`
// reads it alone, so a batched read always answers exactly what one read per item would.
import type { Prior, ReadItem, ReadResult } from '../engine/provider/define.js';

type Read<C> = (ctx: C, id: string, prior: Prior) => Promise<ReadResult | null>;

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
  /** Reads an item its listing lacks, when `read` looks beyond the listing; else absent = gone. */
  readonly fallback?: Read<C>;
};

/** A `readMany` from one listing per group. */
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
          out.set(
            it.id,
            w ? g.toResult(w, it.prior, it.id, ctx) : g.fallback ? await g.fallback(ctx, it.id, it.prior) : null,
          );
        }
      }),
    );
    return out;
  };
}
