// The fake LXD's server-level routes: GET / (the supported API versions), the /1.0/events
// websocket, operations (list by status, get, wait with ?timeout=, cancel, and the exec
// websockets by secret) with the 5.0 or 5.20+ way of reporting a failed wait, /1.0/cluster and
// /1.0/warnings (none: the fake raises no warnings).
import type { Route } from '../../../kit/sim/router.js';
import type { Upgrade } from './events.js';
import { opView, type SimStore, type Operation } from './store.js';
import { error, projectOf, recursion, sync } from './wire.js';

async function waitFor(op: Operation, seconds: number): Promise<void> {
  if (op.status_code >= 200) return;
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    op.done,
    new Promise<void>((r) => {
      timer = setTimeout(r, seconds < 0 ? 2_147_483_647 : seconds * 1000);
    }),
  ]);
  clearTimeout(timer);
}

/** Refuses an upgrade that matched a route but names nothing the daemon would connect. */
function refuseUpgrade(u: Upgrade, status: number, message: string): void {
  const body = JSON.stringify(error(status, message).body);
  u.socket.end(
    `HTTP/1.1 ${status} ${message}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
  );
}

export const serverRoutes: Route<SimStore>[] = [
  { method: 'GET', path: '/', handler: () => sync(['/1.0']) },
  {
    method: 'GET',
    path: '/1.0/events',
    handler: () => error(400, 'This endpoint requires a websocket upgrade'),
    upgrade: (req, s, u) => {
      void s.events.accept(u).then((ws) => s.events.listen(ws, req.query));
    },
  },
  {
    method: 'GET',
    path: '/1.0/operations',
    handler: (req, s) => {
      const all = req.query.get('all-projects') === 'true';
      const ops = [...s.operations.values()].filter((o) => all || o.project === projectOf(req));
      const byStatus: Record<string, unknown[]> = {};
      for (const o of ops)
        (byStatus[o.status.toLowerCase()] ??= []).push(recursion(req) ? opView(o) : `/1.0/operations/${o.id}`);
      return sync(byStatus);
    },
  },
  {
    method: 'GET',
    path: '/1.0/operations/:id',
    handler: (req, s) => {
      const op = s.operations.get(req.params.id!);
      return op ? sync(opView(op)) : error(404, 'Operation not found');
    },
  },
  {
    method: 'GET',
    path: '/1.0/operations/:id/wait',
    handler: async (req, s) => {
      const op = s.operations.get(req.params.id!);
      if (!op) return error(404, 'Operation not found');
      await waitFor(op, Number(req.query.get('timeout') ?? -1));
      if (s.options.waitStyle === '5.20') {
        if (op.status_code === 400) return { ...error(400, op.err), status: 200 };
        if (op.status_code < 200) return { ...error(500, 'context deadline exceeded'), status: 200 };
      }
      return sync(opView(op));
    },
  },
  {
    method: 'DELETE',
    path: '/1.0/operations/:id',
    handler: (req, s) => {
      const op = s.operations.get(req.params.id!);
      if (!op) return error(404, 'Operation not found');
      return op.may_cancel ? sync({}) : error(400, "This operation can't be cancelled");
    },
  },
  {
    method: 'GET',
    path: '/1.0/operations/:id/websocket',
    handler: () => error(400, 'This endpoint requires a websocket upgrade'),
    upgrade: (req, s, u) => {
      const op = s.operations.get(req.params.id!);
      if (!op) return refuseUpgrade(u, 404, 'Operation not found');
      const take = op.websockets?.get(req.query.get('secret') ?? '');
      if (!take) return refuseUpgrade(u, 403, 'Forbidden');
      void s.events.accept(u).then(take);
    },
  },
  { method: 'GET', path: '/1.0/warnings', handler: () => sync([]) },
  {
    method: 'GET',
    path: '/1.0/cluster',
    handler: (_req, s) =>
      sync(
        s.clustered
          ? { server_name: s.options.members[0], enabled: true, member_config: [] }
          : {
              server_name: '',
              enabled: false,
              member_config: [...s.pools.values()]
                .filter((p) => p.driver !== 'ceph')
                .map((p) => ({
                  entity: 'storage-pool',
                  name: p.name,
                  key: 'source',
                  value: '',
                  description: `"source" property for storage pool "${p.name}"`,
                })),
            },
      ),
  },
];
