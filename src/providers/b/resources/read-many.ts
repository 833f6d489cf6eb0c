// Batched reads for provider B: Civo lists whole objects per region (some page by page, the rest in
// one answer) and per parent (a domain's records, a cluster's pools), so a refresh reads a group's
// objects of one type with one listing instead of one GET each. An object absent from a complete
// listing is gone; where `read` would look further (an import-style scan of other regions), the
// few absent ones are read one by one with it, so batched and single reads always agree.
import type { Prior, ReadItem, ReadResult } from '../../../engine/provider/define.js';
import type { Wire } from '../client.js';
import { priorRegion, type ProvbContext } from '../region.js';

type Read = (ctx: ProvbContext, id: string, prior: Prior) => Promise<ReadResult | null>;
type ReadMany = (ctx: ProvbContext, items: readonly ReadItem[]) => Promise<ReadonlyMap<string, ReadResult | null>>;

type Grouped = {
  /** The listing an item belongs to ('LON1', a domain id, 'LON1 <cluster id>'). */
  readonly groupOf: (ctx: ProvbContext, item: ReadItem) => string;
  /** Every object of one group; null when the group itself is gone (its parent deleted). */
  readonly list: (ctx: ProvbContext, group: string) => Promise<readonly Wire[] | null>;
  /** The listed object an id names. Default: `id` equals the object's id. */
  readonly pick?: (listed: ReadonlyMap<string, Wire>, all: readonly Wire[], id: string) => Wire | undefined;
  /** What `read` answers for that object. */
  readonly toResult: (w: Wire, prior: Prior, id: string) => ReadResult | null;
  /** Reads an object its listing lacks, when `read` looks beyond the listing; else absent = gone. */
  readonly fallback?: Read;
};

export function readByGroup(g: Grouped): ReadMany {
  return async (ctx, items) => {
    const groups = new Map<string, ReadItem[]>();
    for (const it of items) {
      const key = g.groupOf(ctx, it);
      const group = groups.get(key);
      if (group) group.push(it); else groups.set(key, [it]);
    }
    const out = new Map<string, ReadResult | null>();
    await Promise.all([...groups].map(async ([key, group]) => {
      const all = (await g.list(ctx, key)) ?? [];
      const listed = new Map(all.map((w) => [String(w.id), w]));
      for (const it of group) {
        const w = g.pick ? g.pick(listed, all, it.id) : listed.get(it.id);
        out.set(it.id, w ? g.toResult(w, it.prior, it.id) : g.fallback ? await g.fallback(ctx, it.id, it.prior) : null);
      }
    }));
    return out;
  };
}

/** One listing per region (the region the object was recorded in). */
export function readByRegion(list: (ctx: ProvbContext, region: string) => Promise<readonly Wire[]>, toResult: (w: Wire, prior: Prior) => ReadResult | null, fallback?: Read): ReadMany {
  return readByGroup({ groupOf: (ctx, it) => priorRegion(ctx, it.prior), list, toResult, fallback });
}

/** The same for account-wide lists (SSH keys, DNS domains): one listing for every object asked for. */
export function readByList(list: (ctx: ProvbContext) => Promise<readonly Wire[]>, toResult: (w: Wire, prior: Prior) => ReadResult, matches: (w: Wire, id: string) => boolean = (w, id) => String(w.id) === id): ReadMany {
  return readByGroup({ groupOf: () => '', list: (ctx) => list(ctx), pick: (listed, all, id) => listed.get(id) ?? all.find((x) => matches(x, id)), toResult });
}
