// The fake LXD's answer shapes: sync, created (201 + Location), async (202 + operation) and error
// envelopes, exactly as the daemon frames them.
import type { SimRequest, SimResponse } from '../../../kit/sim/router.js';
import { etagOf, opView, type Operation } from './store.js';

export function sync(
  metadata: unknown,
  options: { status?: number; etag?: unknown; location?: string } = {},
): SimResponse {
  const headers: Record<string, string> = {};
  if (options.etag !== undefined) headers.etag = etagOf(options.etag);
  if (options.location) headers.location = options.location;
  return {
    status: options.status ?? 200,
    headers,
    body: { type: 'sync', status: 'Success', status_code: 200, operation: '', error_code: 0, error: '', metadata },
  };
}

export function created(location: string): SimResponse {
  return sync(null, { status: 201, location });
}

export function asyncOp(op: Operation): SimResponse {
  return {
    status: 202,
    headers: { location: `/1.0/operations/${op.id}` },
    body: {
      type: 'async',
      status: 'Operation created',
      status_code: 100,
      operation: `/1.0/operations/${op.id}`,
      error_code: 0,
      error: '',
      metadata: opView(op),
    },
  };
}

export function error(code: number, message: string): SimResponse {
  return {
    status: code,
    body: {
      type: 'error',
      status: '',
      status_code: 0,
      operation: '',
      error_code: code,
      error: message,
      metadata: null,
    },
  };
}

/** 412 when If-Match is sent and does not match the object's current ETag. */
export function etagMismatch(req: SimRequest, current: unknown): SimResponse | null {
  const sent = req.headers['if-match'];
  if (!sent) return null;
  const now = etagOf(current);
  return sent === now
    ? null
    : error(412, `ETag doesn't match: ${now.replace(/"/g, '')} vs ${String(sent).replace(/"/g, '')}`);
}

export function projectOf(req: SimRequest): string {
  return req.query.get('project') || 'default';
}

export function recursion(req: SimRequest): number {
  return Number(req.query.get('recursion') ?? 0);
}

export type Body = Record<string, unknown>;
export const str = (v: unknown, d = ''): string => (typeof v === 'string' ? v : d);
export const map = (v: unknown): Record<string, string> =>
  v && typeof v === 'object' && !Array.isArray(v) ? { ...(v as Record<string, string>) } : {};
