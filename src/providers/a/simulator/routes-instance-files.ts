// The fake LXD's files API of an instance (octal modes, append, one directory level at a time) and
// the exec output logs an operation leaves (read, then deleted by the client).
import { posix } from 'node:path';
import type { Route, SimRequest } from '../../../kit/sim/router.js';
import type { SimStore } from './store.js';
import { error, sync } from './wire.js';
import { execRoute } from './exec.js';
import { find } from './instance.js';

/** The files API's path: LXD takes a relative `path=` as relative to the instance's root. */
function filePath(req: SimRequest): string {
  const raw = req.query.get('path') ?? '';
  const p = posix.normalize(`/${raw}`);
  return p.length > 1 ? p.replace(/\/+$/, '') : '/';
}

function parseMode(v: string | undefined, dflt: number): number {
  if (!v) return dflt;
  return v.startsWith('0') ? parseInt(v, 8) : parseInt(v, 10);
}

/** The files and log routes, and exec (whose output the logs hold). */
export const instanceFileRoutes: Route<SimStore>[] = [
  execRoute,
  {
    method: 'GET',
    path: '/1.0/instances/:name/files',
    handler: (req, s) => {
      const i = find(s, req);
      const path = filePath(req);
      const f = i?.files.get(path);
      if (!i || !f) return error(404, 'Not Found');
      const headers = {
        'x-lxd-uid': String(f.uid),
        'x-lxd-gid': String(f.gid),
        'x-lxd-mode': `0${(f.mode & 0o7777).toString(8).padStart(3, '0')}`.slice(-4),
        'x-lxd-type': f.type,
      };
      if (f.type === 'directory') {
        const base = path === '/' ? '/' : `${path}/`;
        const entries = [...i.files.keys()]
          .filter((k) => k !== '/' && k.startsWith(base) && !k.slice(base.length).includes('/'))
          .map((k) => k.slice(base.length));
        const r = sync(entries);
        return { ...r, headers: { ...r.headers, ...headers } };
      }
      return { status: 200, raw: f.content, headers: { ...headers, 'content-type': 'application/octet-stream' } };
    },
  },
  {
    method: 'POST',
    path: '/1.0/instances/:name/files',
    handler: (req, s) => {
      const i = find(s, req);
      if (!i) return error(404, 'Instance not found');
      const path = filePath(req);
      const parent = path.slice(0, path.lastIndexOf('/')) || '/';
      if (i.files.get(parent)?.type !== 'directory') return error(404, 'Not Found');
      const h = req.headers;
      const type = String(h['x-lxd-type'] ?? 'file');
      const write = String(h['x-lxd-write'] ?? 'overwrite');
      if (write !== 'overwrite' && write !== 'append') return error(400, `Bad file write mode: ${write}`);
      const existing = i.files.get(path);
      const formEncoded = String(h['content-type'] ?? '').includes('x-www-form-urlencoded');
      const content = formEncoded ? '' : req.rawBody.toString('utf8');
      if (type === 'directory') {
        if (!existing)
          i.files.set(path, {
            type: 'directory',
            content: '',
            mode: parseMode(h['x-lxd-mode'] as string, 0o750),
            uid: Number(h['x-lxd-uid'] ?? 0),
            gid: Number(h['x-lxd-gid'] ?? 0),
          });
        return sync({});
      }
      if (write === 'append') {
        if (!existing) return error(404, 'Not Found');
        existing.content += content;
        return sync({});
      }
      if (existing) existing.content = content;
      else
        i.files.set(path, {
          type: 'file',
          content,
          mode: parseMode(h['x-lxd-mode'] as string, 0o644),
          uid: Number(h['x-lxd-uid'] ?? 0),
          gid: Number(h['x-lxd-gid'] ?? 0),
        });
      return sync({});
    },
  },
  {
    method: 'DELETE',
    path: '/1.0/instances/:name/files',
    handler: (req, s) => {
      const i = find(s, req);
      const path = filePath(req);
      if (!i || !i.files.has(path)) return error(404, 'Not Found');
      i.files.delete(path);
      return sync({});
    },
  },
  {
    method: 'GET',
    path: '/1.0/instances/:name/logs/:file',
    handler: (req, s) => {
      const text = s.logs.get(`/1.0/instances/${req.params.name}/logs/${req.params.file}`);
      return text === undefined
        ? error(404, 'Not Found')
        : { status: 200, raw: text, headers: { 'content-type': 'application/octet-stream' } };
    },
  },
  {
    method: 'DELETE',
    path: '/1.0/instances/:name/logs/:file',
    handler: (req, s) => {
      const key = `/1.0/instances/${req.params.name}/logs/${req.params.file}`;
      if (!s.logs.delete(key)) return error(404, 'Not Found');
      return sync({});
    },
  },
];
