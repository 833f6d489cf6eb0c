// The disk-image catalogue as creates read it: once per provider instance and region, reused for a
// minute, so the creates of one apply (2,000 instances) share one GET /v2/disk_images instead of one
// each, and concurrent creates share the one request in flight. A failed shared read is not kept
// (the caller whose own step is still alive reads afresh); `fresh` skips the reuse, for an image the
// kept catalogue does not hold (one made since).
import type { CivoClient, Ctx } from '../client.js';
import type * as W from './objects.js';

/** How long one catalogue read is reused by a provider instance. */
export const CATALOGUE_REUSE_MS = 60_000;

type Kept = { readonly at: number; readonly list: Promise<W.DiskImage[]> };
const kept = new WeakMap<CivoClient, Map<string, Kept>>();

export async function catalogueDiskImages(
  client: CivoClient,
  ctx: Ctx,
  region: string,
  fresh = false,
): Promise<W.DiskImage[]> {
  let regions = kept.get(client);
  if (!regions) kept.set(client, (regions = new Map()));
  const last = regions.get(region);
  if (!fresh && last && performance.now() - last.at < CATALOGUE_REUSE_MS) {
    try {
      return await last.list;
    } catch (e) {
      if (ctx.signal?.aborted) throw e;
    }
  }
  const entry: Kept = { at: performance.now(), list: client.diskImages(ctx, region) };
  regions.set(region, entry);
  entry.list.catch(() => {
    if (regions.get(region) === entry) regions.delete(region);
  });
  return entry.list;
}
