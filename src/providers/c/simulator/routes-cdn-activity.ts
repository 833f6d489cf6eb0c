// CDN activity logs (/cdn/activity_log/requests): the account's history of CDN API requests, as the
// vendor keeps it: when, which path (relative to /cdn), method, query string (a JSON string), body
// (secret fields left out; inferred, the spec does not say), status and what changed (C/U/D with the
// object after the request). Newest first, paged by limit/offset; filters as the spec lists them.
import type { Route, SimRequest, SimResponse } from '../../../kit/sim/router.js';
import { cdnNotFound, ok } from './answers.js';
import type { Wire } from './fixtures.js';
import type { ActivityEntry, SimStore } from './store.js';

const SECRET = /private|secret|password|token/i;
const KEEP = 10_000;

/** Records one CDN request (path relative to /cdn) and its answer. */
export function recordActivity(s: SimStore, req: SimRequest, path: string, res: SimResponse): void {
  if (req.method === 'HEAD' || req.method === 'OPTIONS') return;
  const now = s.clock();
  const ok2xx = res.status >= 200 && res.status < 300;
  const after = res.body && typeof res.body === 'object' && !Array.isArray(res.body) ? (res.body as Wire) : undefined;
  const type = !ok2xx
    ? undefined
    : req.method === 'POST' && after && 'id' in after
      ? 'C'
      : req.method === 'PUT' || req.method === 'PATCH'
        ? 'U'
        : req.method === 'DELETE'
          ? 'D'
          : undefined;
  const data =
    req.body && typeof req.body === 'object' && !Array.isArray(req.body)
      ? Object.fromEntries(Object.entries(req.body as Wire).filter(([k]) => !SECRET.test(k)))
      : {};
  s.activity.push({
    id: s.activity.length ? s.activity.at(-1)!.id + 1 : 1,
    user_id: 7,
    token_id: 1,
    client_id: s.clientId,
    requested_at: new Date(now).toISOString().replace(/Z$/, '000Z'),
    path,
    remote_ip_address: '127.0.0.1',
    host: String(req.headers.host ?? 'api.gcore.com'),
    method: req.method,
    query_params: JSON.stringify(Object.fromEntries(req.query)),
    data,
    status_code: res.status,
    actions: type ? [{ action_type: type, ...(type !== 'D' && after ? { state_after_request: after } : {}) }] : [],
    at: now,
  });
  if (s.activity.length > KEEP) s.activity.splice(0, s.activity.length - KEEP);
}

/** '2021-05-05 12:00:00', '2021-05-05' or ISO 8601, always UTC. */
function parseWhen(v: string): number {
  const t = v.trim().replace(' ', 'T');
  return Date.parse(/T/.test(t) ? (/(Z|[+-]\d\d:?\d\d)$/i.test(t) ? t : `${t}Z`) : `${t}T00:00:00Z`);
}

const entryJson = ({ at: _at, ...e }: ActivityEntry): Wire => e;

export function cdnActivityRoutes(): Route<SimStore>[] {
  return [
    {
      method: 'GET',
      path: '/cdn/activity_log/requests',
      handler: (req, s) => {
        const q = req.query;
        const min = q.get('min_requested_at');
        const max = q.get('max_requested_at');
        const status = q.get('status_code');
        const eq = (k: string, v: unknown) => q.get(k) === null || String(v) === q.get(k);
        const items = s.activity
          .filter(
            (e) =>
              eq('path', e.path) &&
              eq('method', e.method) &&
              eq('user_id', e.user_id) &&
              eq('token_id', e.token_id) &&
              eq('client_id', e.client_id) &&
              eq('remote_ip_address', e.remote_ip_address) &&
              (min === null || e.at >= parseWhen(min)) &&
              (max === null || e.at <= parseWhen(max)) &&
              (status === null || String(e.status_code).startsWith(status)),
          )
          .reverse();
        const limit = Number(q.get('limit') ?? 10);
        const offset = Number(q.get('offset') ?? 0);
        if (!(Number.isInteger(limit) && limit >= 1) || !(Number.isInteger(offset) && offset >= 0))
          return { status: 400, body: { errors: { limit: ['Enter a valid limit and offset.'] } } };
        const link = (o: number) =>
          `http://${req.headers.host ?? 'api.gcore.com'}${req.path}?${new URLSearchParams({ ...Object.fromEntries(q), offset: String(o), limit: String(limit) }).toString()}`;
        return ok({
          count: items.length,
          ...(offset + limit < items.length ? { next: link(offset + limit) } : {}),
          ...(offset > 0 ? { previous: link(Math.max(0, offset - limit)) } : {}),
          results: items.slice(offset, offset + limit).map(entryJson),
        });
      },
    },
    {
      method: 'GET',
      path: '/cdn/activity_log/requests/:log_id',
      handler: (req, s) => {
        const e = s.activity.find((x) => x.id === Number(req.params.log_id));
        return e ? ok(entryJson(e)) : cdnNotFound();
      },
    },
  ];
}
