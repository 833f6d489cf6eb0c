// The fake LXD's storage: a pool's resources and its custom volumes (create, read, update, delete).
import type { Route, SimRequest, SimResponse } from '../../../kit/sim/router.js';
import { type SimStore } from './store.js';
import { volumeConfigRefusal } from './config.js';
import { created, error, etagMismatch, map, projectOf, recursion, str, sync, type Body } from './wire.js';

const volumeKey = (req: SimRequest, name: string) => `${req.params.pool}/${projectOf(req)}/${name}`;

function createVolume(req: SimRequest, s: SimStore): SimResponse {
  if (!s.pools.has(req.params.pool!)) return error(404, 'Storage pool not found');
  const b = (req.body ?? {}) as Body;
  const name = str(b.name);
  if (s.volumes.has(volumeKey(req, name))) return error(409, 'Volume by that name already exists');
  const config = map(b.config);
  const driver = str(s.pools.get(req.params.pool!)!.driver, 'dir');
  const bad = volumeConfigRefusal(projectOf(req), name, driver, config);
  if (bad) return error(500, bad);
  s.volumes.set(volumeKey(req, name), {
    name,
    type: 'custom',
    content_type: str(b.content_type, 'filesystem'),
    description: str(b.description),
    config,
    location: 'none',
    used_by: [],
    project: projectOf(req),
  });
  s.events.lifecycle(
    'storage-volume-created',
    `/1.0/storage-pools/${req.params.pool}/volumes/custom/${name}`,
    projectOf(req),
    { type: 'custom' },
  );
  return created(`/1.0/storage-pools/${req.params.pool}/volumes/custom/${name}`);
}

export const volumeRoutes: Route<SimStore>[] = [
  { method: 'POST', path: '/1.0/storage-pools/:pool/volumes', handler: createVolume },
  { method: 'POST', path: '/1.0/storage-pools/:pool/volumes/custom', handler: createVolume },
  {
    method: 'GET',
    path: '/1.0/storage-pools/:pool/resources',
    handler: (req, s) =>
      s.pools.has(req.params.pool!)
        ? sync({ space: { used: 1 << 30, total: 100 * (1 << 30) }, inodes: { used: 10_000, total: 1 << 24 } })
        : error(404, 'Storage pool not found'),
  },
  {
    method: 'GET',
    path: '/1.0/storage-pools/:pool/volumes',
    handler: (req, s) => {
      const prefix = `${req.params.pool}/${projectOf(req)}/`;
      const list = [...s.volumes.entries()].filter(([k]) => k.startsWith(prefix)).map(([, v]) => v);
      return sync(
        recursion(req) ? list : list.map((v) => `/1.0/storage-pools/${req.params.pool}/volumes/custom/${v.name}`),
      );
    },
  },
  {
    method: 'GET',
    path: '/1.0/storage-pools/:pool/volumes/custom',
    handler: (req, s) => {
      const prefix = `${req.params.pool}/${projectOf(req)}/`;
      const list = [...s.volumes.entries()].filter(([k]) => k.startsWith(prefix)).map(([, v]) => v);
      return sync(
        recursion(req) ? list : list.map((v) => `/1.0/storage-pools/${req.params.pool}/volumes/custom/${v.name}`),
      );
    },
  },
  {
    method: 'GET',
    path: '/1.0/storage-pools/:pool/volumes/custom/:name',
    handler: (req, s) => {
      const v = s.volumes.get(volumeKey(req, req.params.name!));
      return v
        ? sync(v, { etag: { description: v.description, config: v.config } })
        : error(404, 'Storage volume not found');
    },
  },
  {
    method: 'PUT',
    path: '/1.0/storage-pools/:pool/volumes/custom/:name',
    handler: (req, s) => {
      const v = s.volumes.get(volumeKey(req, req.params.name!));
      if (!v) return error(404, 'Storage volume not found');
      const mismatch = etagMismatch(req, { description: v.description, config: v.config });
      if (mismatch) return mismatch;
      const b = (req.body ?? {}) as Body;
      const driver = str(s.pools.get(req.params.pool!)?.driver, 'dir');
      const bad = volumeConfigRefusal(projectOf(req), req.params.name!, driver, map(b.config));
      if (bad) return error(500, bad);
      Object.assign(v, { description: str(b.description), config: map(b.config) });
      return sync({});
    },
  },
  {
    method: 'DELETE',
    path: '/1.0/storage-pools/:pool/volumes/custom/:name',
    handler: (req, s) =>
      s.volumes.delete(volumeKey(req, req.params.name!)) ? sync({}) : error(404, 'Storage volume not found'),
  },
];
