// Batched reads for provider B: Civo lists whole objects per region (instances page by page,
// networks and SSH keys in one answer), so a refresh reads a region's objects of one type with one
// listing instead of one GET each. An object absent from a complete listing is gone.
import type { Prior, ReadItem, ReadResult } from '../../../engine/provider/define.js';
import type { Wire } from '../client.js';
import { priorRegion, type ProvbContext } from '../region.js';

export function readByRegion(list: (ctx: ProvbContext, region: string) => Promise<readonly Wire[]>, toResult: (w: Wire, prior: Prior) => ReadResult) {
  return async (ctx: ProvbContext, items: readonly ReadItem[]): Promise<ReadonlyMap<string, ReadResult | null>> => {
    const byRegion = new Map<string, ReadItem[]>();
    for (const it of items) {
      const region = priorRegion(ctx, it.prior);
      const group = byRegion.get(region);
      if (group) group.push(it); else byRegion.set(region, [it]);
    }
    const out = new Map<string, ReadResult | null>();
    for (const [region, group] of byRegion) {
      const seen = new Map((await list(ctx, region)).map((w) => [String(w.id), w]));
      for (const it of group) { const w = seen.get(it.id); out.set(it.id, w ? toResult(w, it.prior) : null); }
    }
    return out;
  };
}

/** The same for account-wide lists (SSH keys, DNS domains): one listing for every object asked for. */
export function readByList(list: (ctx: ProvbContext) => Promise<readonly Wire[]>, toResult: (w: Wire, prior: Prior) => ReadResult, matches: (w: Wire, id: string) => boolean = (w, id) => String(w.id) === id) {
  return async (ctx: ProvbContext, items: readonly ReadItem[]): Promise<ReadonlyMap<string, ReadResult | null>> => {
    const all = await list(ctx);
    const byId = new Map(all.map((w) => [String(w.id), w]));
    const out = new Map<string, ReadResult | null>();
    for (const it of items) {
      const w = byId.get(it.id) ?? all.find((x) => matches(x, it.id));
      out.set(it.id, w ? toResult(w, it.prior) : null);
    }
    return out;
  };
}
