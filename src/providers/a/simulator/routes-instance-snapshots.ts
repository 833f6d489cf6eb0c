// The fake LXD's instance snapshots: list (with recursion), take (async, `snap%d` when unnamed),
// show, rename and delete, and what a restore (PUT /1.0/instances/:name {restore}) and a copy from
// a snapshot read. The refusals are the daemon's words: a missing snapshot is "Failed to fetch
// snapshot "s" of instance "c" in project "p": InstanceSnapshot not found", a taken name fails the
// operation with the database's duplicate-entry text.
import type { Route } from '../../../kit/sim/router.js';
import type { File, Instance, SimStore, Snapshot } from './store.js';
import { asyncOp, error, recursion, str, sync, type Body } from './wire.js';
import { expanded, find } from './instance.js';

/** A deep copy of an instance's files (a snapshot or a copy must not share them). */
export function copyFiles(files: ReadonlyMap<string, File>): Map<string, File> {
  return new Map([...files].map(([p, f]) => [p, { ...f }]));
}

export function snapshotView(s: SimStore, i: Instance, snap: Snapshot) {
  const e = expanded(s, { ...i, config: snap.config, devices: snap.devices, profiles: snap.profiles });
  return {
    name: snap.name,
    description: snap.description,
    architecture: snap.architecture,
    config: snap.config,
    devices: snap.devices,
    ephemeral: snap.ephemeral,
    profiles: snap.profiles,
    expanded_config: e.config,
    expanded_devices: e.devices,
    created_at: snap.createdAt,
    expires_at: snap.expiresAt,
    last_used_at: '0001-01-01T00:00:00Z',
    size: -1,
    stateful: snap.stateful,
  };
}

export const snapshotNotFound = (i: Instance, name: string) =>
  error(
    404,
    `Failed to fetch snapshot "${name}" of instance "${i.name}" in project "${i.project}": InstanceSnapshot not found`,
  );

/** The snapshot `name` of `i`, or undefined. */
export const snapshotOf = (i: Instance, name: string) => i.snapshots.find((x) => x.name === name);

/** Puts an instance back to a snapshot: config (its volatile keys kept), devices, profiles and files. */
export function restore(i: Instance, snap: Snapshot): void {
  const volatile = Object.fromEntries(Object.entries(i.config).filter(([k]) => k.startsWith('volatile.')));
  i.config = {
    ...Object.fromEntries(Object.entries(snap.config).filter(([k]) => !k.startsWith('volatile.'))),
    ...volatile,
  };
  i.devices = structuredClone(snap.devices);
  i.profiles = [...snap.profiles];
  i.ephemeral = snap.ephemeral;
  i.files = copyFiles(snap.files);
}

function nextName(i: Instance): string {
  for (let n = 0; ; n++) if (!snapshotOf(i, `snap${n}`)) return `snap${n}`;
}

const base = '/1.0/instances/:name/snapshots';
export const snapshotRoutes: Route<SimStore>[] = [
  {
    method: 'GET',
    path: base,
    handler: (req, s) => {
      const i = find(s, req);
      if (!i) return error(404, 'Instance not found');
      return sync(
        recursion(req)
          ? i.snapshots.map((x) => snapshotView(s, i, x))
          : i.snapshots.map((x) => `/1.0/instances/${i.name}/snapshots/${x.name}`),
      );
    },
  },
  {
    method: 'POST',
    path: base,
    handler: (req, s) => {
      const i = find(s, req);
      if (!i) return error(404, 'Instance not found');
      const b = (req.body ?? {}) as Body;
      const name = str(b.name) || nextName(i);
      if (name.includes('/')) return error(400, 'Invalid snapshot name: Cannot contain "/"');
      const resources = { instances: [`/1.0/instances/${i.name}`, `/1.0/instances/${i.name}/snapshots/${name}`] };
      return asyncOp(
        s.operation(
          'Snapshotting instance',
          resources,
          () => {
            if (snapshotOf(i, name))
              throw new Error(
                `Failed creating instance snapshot record "${name}": Add snapshot info to the database: This "instances_snapshots" entry already exists`,
              );
            i.snapshots.push({
              name,
              createdAt: new Date().toISOString(),
              expiresAt: str(b.expires_at) || '0001-01-01T00:00:00Z',
              stateful: b.stateful === true,
              description: '',
              architecture: i.architecture,
              ephemeral: i.ephemeral,
              profiles: [...i.profiles],
              config: { ...i.config },
              devices: structuredClone(i.devices),
              files: copyFiles(i.files),
            });
            s.events.lifecycle('instance-snapshot-created', `/1.0/instances/${i.name}/snapshots/${name}`, i.project);
          },
          { project: i.project },
        ),
      );
    },
  },
  {
    method: 'GET',
    path: `${base}/:snapshot`,
    handler: (req, s) => {
      const i = find(s, req);
      if (!i) return error(404, 'Instance not found');
      const snap = snapshotOf(i, req.params.snapshot!);
      if (!snap) return snapshotNotFound(i, req.params.snapshot!);
      const view = snapshotView(s, i, snap);
      return sync(view, { etag: { expires_at: view.expires_at } });
    },
  },
  {
    method: 'POST',
    path: `${base}/:snapshot`,
    handler: (req, s) => {
      const i = find(s, req);
      if (!i) return error(404, 'Instance not found');
      const snap = snapshotOf(i, req.params.snapshot!);
      if (!snap) return snapshotNotFound(i, req.params.snapshot!);
      const to = str(((req.body ?? {}) as Body).name);
      if (!to || to.includes('/')) return error(400, 'Invalid snapshot name: Cannot contain "/"');
      if (snapshotOf(i, to)) return error(409, `Name "${to}" already in use`);
      return asyncOp(
        s.operation(
          'Renaming snapshot',
          { instances: [`/1.0/instances/${i.name}`] },
          () => {
            snap.name = to;
          },
          { project: i.project },
        ),
      );
    },
  },
  {
    method: 'DELETE',
    path: `${base}/:snapshot`,
    handler: (req, s) => {
      const i = find(s, req);
      if (!i) return error(404, 'Instance not found');
      const snap = snapshotOf(i, req.params.snapshot!);
      if (!snap) return snapshotNotFound(i, req.params.snapshot!);
      return asyncOp(
        s.operation(
          'Deleting snapshot',
          { instances: [`/1.0/instances/${i.name}`, `/1.0/instances/${i.name}/snapshots/${snap.name}`] },
          () => {
            i.snapshots = i.snapshots.filter((x) => x !== snap);
            s.events.lifecycle(
              'instance-snapshot-deleted',
              `/1.0/instances/${i.name}/snapshots/${snap.name}`,
              i.project,
            );
          },
          { project: i.project },
        ),
      );
    },
  },
];
