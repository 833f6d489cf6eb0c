// A local instance copy in the fake LXD (POST /1.0/instances with source type `copy`): the source
// instance, or one of its snapshots (`c1/snap0`), gives the new instance its files, and its config,
// devices and profiles unless the request carries its own; volatile keys are made afresh (new MACs,
// uuid) as the daemon does; the source's snapshots come along unless `instance_only` or the source
// is itself a snapshot.
import type { SimResponse } from '../../../kit/sim/router.js';
import { scoped, type Instance, type SimStore, type Snapshot } from './store.js';
import { error, map, type Body } from './wire.js';
import { copyFiles, snapshotOf } from './routes-instance-snapshots.js';

/** What a copy reads from its source: the instance, and the snapshot when the source names one. */
export type CopySource = { readonly from: Instance; readonly snapshot?: Snapshot; readonly instanceOnly: boolean };

/** The source of a copy request, or LXD's refusal (sync, before any operation). */
export function copySource(s: SimStore, project: string, source: Record<string, unknown>): CopySource | SimResponse {
  const [name, snap] = (typeof source.source === 'string' ? source.source : '').split('/');
  const from = s.instances.get(scoped((typeof source.project === 'string' && source.project) || project, name ?? ''));
  if (!from) return error(404, 'Instance not found');
  if (snap === undefined) return { from, instanceOnly: source.instance_only === true };
  const snapshot = snapshotOf(from, snap);
  if (!snapshot)
    return error(
      404,
      `Failed to fetch snapshot "${snap}" of instance "${from.name}" in project "${from.project}": InstanceSnapshot not found`,
    );
  return { from, snapshot, instanceOnly: true };
}

const withoutVolatile = (config: Record<string, string>) =>
  Object.fromEntries(Object.entries(config).filter(([k]) => !k.startsWith('volatile.')));

/** The new instance's writable parts and files, from the request where it says them, else from the source. */
export function copiedParts(src: CopySource, b: Body) {
  const origin = src.snapshot ?? src.from;
  return {
    config: withoutVolatile(b.config ? map(b.config) : origin.config),
    devices: structuredClone((b.devices ?? origin.devices) as Instance['devices']),
    profiles: Array.isArray(b.profiles) ? (b.profiles as string[]) : [...origin.profiles],
    files: copyFiles(origin.files),
    snapshots: src.instanceOnly
      ? []
      : src.from.snapshots.map((x) => ({ ...x, config: { ...x.config }, files: copyFiles(x.files) })),
    baseImage: src.from.config['volatile.base_image'] ?? '',
  };
}
