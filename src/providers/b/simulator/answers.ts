// Vendor-shaped answers shared by the simulator's routes: error bodies with the exact codes the
// clients rely on, the page envelope, the region of a request, and "not supplied" for "" and null.
import type { SimRequest, SimResponse } from '../../../kit/sim/router.js';
import { regions } from './catalogue.js';
import type { Wire } from './object.js';

export const ok = (body: unknown = { result: 'success' }, status = 200): SimResponse => ({ status, body });
export const success = (extra: Wire = {}): SimResponse => ok({ ...extra, result: 'success' });

/**
 * `{code, reason, result}`, with the status the wire notes recommend for the kind of failure. Every
 * code is one civogo's errors.go knows (the real client classifies errors by it); where the real API's
 * code for a situation is not known, the nearest civogo code is used and the status carries the kind.
 */
export function fail(code: string, reason: string, status?: number): SimResponse {
  const s =
    status ??
    (code.endsWith('_not_found') || code.endsWith('_find')
      ? 404
      : code.startsWith('quota') || code.startsWith('authentication')
        ? 403
        : 400);
  const result = s === 404 ? 'Resource not found' : s === 401 ? 'Unauthorized' : 'Invalid request';
  return { status: s, body: { code, reason, result } };
}

/** "Failed to find the X within the internal database", code `database_<x>_not_found`. */
export const missing = (code: string, what: string): SimResponse =>
  fail(code, `Failed to find the ${what} within the internal database`, 404);

/** The paginated envelope `{page, per_page, pages, items}` for `?page&per_page` (per_page default 20). */
export function page(req: SimRequest, items: readonly Wire[]): SimResponse {
  const perPage = Math.max(1, Math.min(Number(req.query.get('per_page')) || 20, 1_000_000_000));
  const pages = Math.max(1, Math.ceil(items.length / perPage));
  const p = Math.max(1, Number(req.query.get('page')) || 1);
  return ok({ page: p, per_page: perPage, pages, items: items.slice((p - 1) * perPage, p * perPage) });
}

/** `?region`, else the body's `region`, else the account default, upper-cased; null when unknown. */
export function regionOf(req: SimRequest): string | null {
  const body = (req.body && typeof req.body === 'object' ? req.body : {}) as Wire;
  const raw =
    req.query.get('region') ||
    (typeof body.region === 'string' && body.region) ||
    (regions.find((r) => r.default)!.code as string);
  const code = String(raw).toUpperCase();
  return regions.some((r) => r.code === code) ? code : null;
}

/** The answer with the `x-ratelimit-*` headers the real API sends on every answer (counted by the store). */
export function withRateLimit(store: { rateLimitHeaders(): Record<string, string> }, r: SimResponse): SimResponse {
  return { ...r, headers: { ...store.rateLimitHeaders(), ...(r.headers ?? {}) } };
}

export const badRegion = (): SimResponse => fail('region_unavailable', 'The region requested is not available', 400);

/** The request body as an object ({} for none or a non-object). */
export function bodyOf(req: SimRequest): Wire {
  return req.body && typeof req.body === 'object' && !Array.isArray(req.body) ? (req.body as Wire) : {};
}

/** The value when supplied: "" and null mean "not supplied" (civogo sends every key). */
export function given<T>(value: T | '' | null | undefined): T | undefined {
  return value === '' || value === null || value === undefined ? undefined : value;
}

/** Strips keys the simulator keeps for itself (none today besides region on account-global objects). */
export function view(o: Wire, omit: readonly string[] = []): Wire {
  const out: Wire = { ...o };
  for (const k of omit) delete out[k];
  return out;
}

/** Finds in `items` by id, or null. */
export function byId(map: ReadonlyMap<string, Wire>, id: string, region?: string): Wire | null {
  const o = map.get(id);
  return o && (region === undefined || o.region === region) ? o : null;
}
