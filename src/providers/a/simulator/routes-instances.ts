// The fake LXD's instances: create from an image (async), whole PUT with If-Match that must carry
// volatile.idmap.*, rename only when stopped, start/stop transitions with a fake IPv4 on eth0 after
// a delay, the files API (octal modes, append, one directory level at a time) and exec.
import type { Route } from '../../../kit/sim/router.js';
import { etagOf, scoped, type File, type Instance, type SimStore } from './store.js';
import { asyncOp, error, etagMismatch, map, projectOf, recursion, str, sync, type Body } from './wire.js';
import { onCreate } from './volatile.js';
import { instanceState, nicsOf } from './routes-instance-state.js';
import { expanded, find } from './instance.js';
import { instanceConfigRefusal } from './config.js';
import { copiedParts, copySource, type CopySource } from './copy.js';
import { restore, snapshotOf, snapshotView } from './routes-instance-snapshots.js';

export function instanceView(s: SimStore, i: Instance) {
  const e = expanded(s, i);
  return {
    name: i.name,
    description: i.description,
    type: i.type,
    project: i.project,
    architecture: i.architecture,
    status: i.running ? 'Running' : 'Stopped',
    status_code: i.running ? 103 : 102,
    created_at: i.createdAt,
    last_used_at: i.startedAt ? new Date(i.startedAt).toISOString() : '1970-01-01T00:00:00Z',
    location: i.location,
    ephemeral: i.ephemeral,
    stateful: i.stateful,
    profiles: i.profiles,
    config: i.config,
    devices: i.devices,
    expanded_config: e.config,
    expanded_devices: e.devices,
  };
}

/** Writable view: what the ETag is computed over (like the daemon, it changes with volatile keys). */
const etagView = (i: Instance) => ({
  architecture: i.architecture,
  config: i.config,
  devices: i.devices,
  ephemeral: i.ephemeral,
  profiles: i.profiles,
  stateful: i.stateful,
  description: i.description,
});

function newFiles(): Map<string, File> {
  const dir = (): File => ({ type: 'directory', content: '', mode: 0o755, uid: 0, gid: 0 });
  return new Map([
    ['/', dir()],
    ['/etc', dir()],
    ['/tmp', { ...dir(), mode: 0o1777 }],
    ['/root', { ...dir(), mode: 0o700 }],
  ]);
}

export const instanceRoutes: Route<SimStore>[] = [
  {
    method: 'GET',
    path: '/1.0/instances',
    handler: (req, s) => {
      const list = [...s.instances.values()].filter((i) => i.project === projectOf(req));
      const full = (i: Instance) => ({
        ...instanceView(s, i),
        state: instanceState(s, i),
        snapshots: i.snapshots.length ? i.snapshots.map((x) => snapshotView(s, i, x)) : null,
        backups: null,
      });
      return sync(
        recursion(req) > 1
          ? list.map(full)
          : recursion(req)
            ? list.map((i) => instanceView(s, i))
            : list.map((i) => `/1.0/instances/${i.name}`),
      );
    },
  },
  {
    method: 'POST',
    path: '/1.0/instances',
    handler: (req, s) => {
      const b = (req.body ?? {}) as Body;
      const project = projectOf(req);
      const target = req.query.get('target');
      if (target && !s.clustered) return error(400, 'Target only allowed when clustered');
      if (target && !s.options.members.includes(target)) return error(404, 'Cluster member not found');
      const source = (b.source ?? {}) as Record<string, string>;
      let fingerprint = '';
      let copy: CopySource | undefined;
      if (source.type === 'copy') {
        const src = copySource(s, project, source);
        if ('status' in src) return src;
        copy = src;
      } else if (source.type === 'image') {
        if (source.alias) {
          const alias = s.aliases.get(scoped(project, source.alias)) ?? s.aliases.get(scoped('default', source.alias));
          if (!alias) return error(404, 'Image alias not found');
          fingerprint = String(alias.target);
        } else {
          const fp = [...s.images.keys()].find((k) => k.startsWith(source.fingerprint ?? '\0'));
          if (!fp) return error(404, 'Image not found');
          fingerprint = fp;
        }
      } else if (source.type !== 'none') return error(400, `Unknown source type ${String(source.type)}`);
      const name = str(b.name);
      const hostIndex = s.nextHostIndex();
      const op = s.operation(
        'Creating instance',
        { instances: [`/1.0/instances/${name}`] },
        () => {
          if (s.instances.has(scoped(project, name)))
            throw new Error(
              `Failed creating instance record: Add instance info to the database: This "instances" entry already exists`,
            );
          const parts = copy ? copiedParts(copy, b) : undefined;
          const config = parts?.config ?? map(b.config);
          const bad = instanceConfigRefusal(config);
          if (bad) throw new Error(`Failed creating instance record: ${bad}`);
          const profiles = parts?.profiles ?? (Array.isArray(b.profiles) ? (b.profiles as string[]) : ['default']);
          for (const p of profiles)
            if (!s.profiles.has(scoped(project, p)) && !s.profiles.has(scoped('default', p)))
              throw new Error(`Requested profile "${p}" doesn't exist`);
          const inst: Instance = {
            name,
            project,
            type: copy ? copy.from.type : str(b.type, 'container'),
            description: str(b.description),
            ephemeral: b.ephemeral === true,
            stateful: false,
            architecture: 'x86_64',
            profiles,
            config,
            devices: parts?.devices ?? ((b.devices ?? {}) as Instance['devices']),
            location: s.clustered ? (target ?? s.options.members[0]!) : 'none',
            createdAt: new Date().toISOString(),
            running: false,
            startedAt: 0,
            hostIndex,
            files: parts?.files ?? newFiles(),
            snapshots: parts?.snapshots ?? [],
          };
          if (parts) fingerprint = parts.baseImage;
          onCreate(inst, fingerprint ? s.images.get(fingerprint) : undefined, nicsOf(s, inst));
          s.instances.set(scoped(project, name), inst);
          s.events.lifecycle('instance-created', `/1.0/instances/${name}`, project, { type: inst.type });
        },
        { project },
      );
      return asyncOp(op);
    },
  },
  {
    method: 'GET',
    path: '/1.0/instances/:name',
    handler: (req, s) => {
      const i = find(s, req);
      if (!i) return error(404, 'Instance not found');
      const view = recursion(req)
        ? {
            ...instanceView(s, i),
            state: instanceState(s, i),
            snapshots: i.snapshots.length ? i.snapshots.map((x) => snapshotView(s, i, x)) : null,
            backups: null,
          }
        : instanceView(s, i);
      return sync(view, { etag: etagView(i) });
    },
  },
  {
    method: 'PUT',
    path: '/1.0/instances/:name',
    handler: (req, s) => {
      const i = find(s, req);
      if (!i) return error(404, 'Instance not found');
      const mismatch = etagMismatch(req, etagView(i));
      if (mismatch) return mismatch;
      const b = (req.body ?? {}) as Body;
      if (typeof b.restore === 'string' && b.restore) {
        // lxc sends the snapshot's full name (c1/snap0); the API also takes the bare one.
        const wanted = b.restore.startsWith(`${i.name}/`) ? b.restore.slice(i.name.length + 1) : b.restore;
        const run = () => {
          const snap = snapshotOf(i, wanted);
          if (!snap) throw new Error(`Snapshot ${i.name}/${wanted} does not exist`);
          restore(i, snap);
        };
        const where = { instances: [`/1.0/instances/${i.name}`] };
        return asyncOp(s.operation('Restoring snapshot', where, run, { project: i.project }));
      }
      const op = s.operation(
        'Updating instance',
        { instances: [`/1.0/instances/${i.name}`] },
        () => {
          const config = map(b.config);
          for (const k of Object.keys(i.config))
            if (k.startsWith('volatile.idmap.') && !(k in config))
              throw new Error("Volatile idmap keys can't be deleted by the user");
          const bad = instanceConfigRefusal(config);
          if (bad) throw new Error(`Invalid config: ${bad}`);
          Object.assign(i, {
            config,
            devices: (b.devices ?? {}) as Instance['devices'],
            profiles: Array.isArray(b.profiles) ? b.profiles : [],
            ephemeral: b.ephemeral === true,
            description: str(b.description),
          });
          s.events.lifecycle('instance-updated', `/1.0/instances/${i.name}`, i.project);
        },
        { project: i.project },
      );
      return asyncOp(op);
    },
  },
  {
    method: 'POST',
    path: '/1.0/instances/:name',
    handler: (req, s) => {
      const i = find(s, req);
      if (!i) return error(404, 'Instance not found');
      const b = (req.body ?? {}) as Body;
      if (b.migration) {
        const target = req.query.get('target');
        if (!s.clustered) return error(400, 'Target only allowed when clustered');
        if (!target || !s.options.members.includes(target)) return error(404, 'Cluster member not found');
        return asyncOp(
          s.operation(
            'Migrating instance',
            { instances: [`/1.0/instances/${i.name}`] },
            () => {
              if (i.running && b.live !== true) throw new Error('Instance must be stopped to be moved');
              i.location = target;
              s.events.lifecycle('instance-migrated', `/1.0/instances/${i.name}`, i.project);
            },
            { project: i.project },
          ),
        );
      }
      const to = str(b.name);
      if (to !== i.name && s.instances.has(scoped(i.project, to))) return error(409, `Name "${to}" already in use`);
      const op = s.operation(
        'Renaming instance',
        { instances: [`/1.0/instances/${i.name}`] },
        () => {
          if (i.running) throw new Error('Renaming of running container not allowed');
          s.instances.delete(scoped(i.project, i.name));
          const old = i.name;
          i.name = to;
          s.instances.set(scoped(i.project, to), i);
          s.events.lifecycle('instance-renamed', `/1.0/instances/${to}`, i.project, { old_name: old });
        },
        { project: i.project },
      );
      return asyncOp(op);
    },
  },
  {
    method: 'DELETE',
    path: '/1.0/instances/:name',
    handler: (req, s) => {
      const i = find(s, req);
      if (!i) return error(404, 'Instance not found');
      if (i.running) return error(400, 'Instance is running');
      return asyncOp(
        s.operation(
          'Deleting instance',
          { instances: [`/1.0/instances/${i.name}`] },
          () => {
            s.instances.delete(scoped(i.project, i.name));
            s.events.lifecycle('instance-deleted', `/1.0/instances/${i.name}`, i.project);
          },
          { project: i.project },
        ),
      );
    },
  },
];

export { etagOf };
