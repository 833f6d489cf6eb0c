// Vendor-shaped answers: Cloud errors {exception_class, message, request_id}, CDN errors
// ({errors: ...}, {detail}), the Cloud list envelope {count, results} with per-endpoint default
// page sizes, and the CDN list answer (bare array without `limit`, envelope with it).
import { randomBytes } from 'node:crypto';
import type { SimRequest, SimResponse } from '../../../kit/sim/router.js';
import type { Wire } from './fixtures.js';

export const requestId = () => randomBytes(16).toString('hex');

export function cloudError(status: number, exceptionClass: string, message: string, extra: Wire = {}): SimResponse {
  const id = requestId();
  return {
    status,
    body: { exception_class: exceptionClass, message, request_id: id, ...extra },
    headers: { 'x-request-id': id },
  };
}

export const cloudNotFound = (what: string, id: string) =>
  cloudError(404, 'NotFoundError', `${what} ${id} could not be found`);
export const cloudInvalid = (field: string, message: string) => cloudInvalidFields({ [field]: [message] });
/** A Cloud 400 naming every refused field in `invalid_fields` and in its message. */
export const cloudInvalidFields = (fields: Readonly<Record<string, readonly string[]>>) =>
  cloudError(
    400,
    'ValidationError',
    `Validation error: ${Object.entries(fields)
      .map(([f, m]) => `${f}: ${m.join(' ')}`)
      .join('; ')}`,
    { invalid_fields: fields },
  );

export const cdnNotFound = (): SimResponse => ({ status: 404, body: { detail: 'Not found.' } });
/** CDN (a Django REST service) throttles and fails with a `detail` body, not the Cloud shape. */
export const cdnThrottled = (retryAfterSeconds: number): SimResponse => ({
  status: 429,
  body: { detail: `Request was throttled. Expected available in ${retryAfterSeconds} seconds.` },
});
export const cdnServerError = (): SimResponse => ({ status: 500, body: { detail: 'A server error occurred.' } });
export const cdnFieldError = (field: string, message: string): SimResponse => cdnFieldErrors({ [field]: [message] });
/** Django REST's field errors: {errors: {field: [message, ...]}}, every refused field at once. */
export const cdnFieldErrors = (fields: Readonly<Record<string, readonly string[]>>): SimResponse => ({
  status: 400,
  body: { errors: fields },
});
export const cdnErrors = (message: string): SimResponse => ({ status: 400, body: { errors: [message] } });

/** Reads limit/offset; undefined limit means the endpoint's default. Returns an error answer when invalid. */
function paging(
  req: SimRequest,
  defaultLimit: number | undefined,
): { limit: number | undefined; offset: number } | SimResponse {
  const rawLimit = req.query.get('limit');
  const rawOffset = req.query.get('offset');
  const limit = rawLimit === null ? defaultLimit : Number(rawLimit);
  const offset = rawOffset === null ? 0 : Number(rawOffset);
  if (limit !== undefined && !(Number.isInteger(limit) && limit >= 1 && limit <= 1000))
    return { status: 400, body: { limit: ['Ensure this value is between 1 and 1000.'] } };
  if (!(Number.isInteger(offset) && offset >= 0))
    return { status: 400, body: { offset: ['Ensure this value is greater than or equal to 0.'] } };
  return { limit, offset };
}

export function cloudPage(req: SimRequest, items: readonly Wire[], defaultLimit: number): SimResponse {
  const p = paging(req, defaultLimit);
  if ('status' in p) return cloudInvalid('limit', JSON.stringify(p.body));
  return {
    status: 200,
    body: { count: items.length, results: items.slice(p.offset, p.offset + (p.limit ?? defaultLimit)) },
  };
}

export function cdnList(req: SimRequest, items: readonly Wire[]): SimResponse {
  const p = paging(req, undefined);
  if ('status' in p) return p;
  if (p.limit === undefined) return { status: 200, body: items.slice(p.offset) };
  const url = (offset: number) => {
    const u = new URL(`http://${req.headers.host ?? '127.0.0.1'}${req.path}`);
    req.query.forEach((v, k) => {
      if (k !== 'offset' && k !== 'limit') u.searchParams.append(k, v);
    });
    u.searchParams.set('limit', String(p.limit));
    u.searchParams.set('offset', String(offset));
    return u.href;
  };
  const end = p.offset + p.limit;
  return {
    status: 200,
    body: {
      count: items.length,
      next: end < items.length ? url(end) : null,
      previous: p.offset > 0 ? url(Math.max(0, p.offset - p.limit)) : null,
      results: items.slice(p.offset, end),
    },
  };
}

/** Cloud lists of one project and region. */
export const inScope = (req: SimRequest) => (o: Wire) =>
  o.project_id === Number(req.params.project_id) && o.region_id === Number(req.params.region_id);

export const ok = (body: unknown, status = 200): SimResponse => ({ status, body });
export const tasks = (...ids: string[]): SimResponse => ok({ tasks: ids });
