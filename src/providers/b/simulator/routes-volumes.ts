// Simulated volumes: creating → available, attaching → attached, detaching, resizing, deleting.
import type { Route } from '../../../kit/sim/router.js';
import type { Wire } from './object.js';
import type { SimStore } from './store.js';
import { byId, bodyOf, fail, given, missing, ok, success } from './answers.js';
import { route } from './endpoint.js';
import { overQuota } from './quota.js';

const noVolume = () => missing('database_volume_not_found', 'volume');
const noNetwork = () => missing('database_network_not_found', 'network');

export function volumeRoutes(): Route<SimStore>[] {
  const get = (s: SimStore, id: string, r: string) => byId(s.volumes, id, r);
  return [
    route('GET', '/v2/volumes', (_q, s, r) => ok(s.inRegion(s.volumes, r))),
    route('GET', '/v2/volumes/:id', (q, s, r) => {
      const v = get(s, q.params.id!, r);
      return v ? ok(v) : noVolume();
    }),
    route('POST', '/v2/volumes', (q, s, r) => {
      const b = bodyOf(q);
      if (!given(b.name)) return fail('parameter_name_invalid', 'The name supplied was empty');
      if (s.inRegion(s.volumes, r).some((v) => v.name === b.name))
        return fail('database_volume_duplicate_name', `A volume named ${b.name} already exists`);
      if (!(Number(b.size_gb) > 0))
        return fail('parameter_volume_size_incorrect', 'The volume size must be at least 1 GB');
      const net = given(b.network_id) ? byId(s.networks, b.network_id, r) : s.defaultNetwork(r);
      if (!net) return noNetwork();
      const over = overQuota(s, { disk_volume_count: 1 });
      if (over) return over;
      const v: Wire = {
        id: s.id(),
        name: b.name,
        instance_id: null,
        cluster_id: given(b.cluster_id) ?? null,
        network_id: net.id,
        mountpoint: null,
        openstack_id: s.id(),
        status: 'creating',
        volume_type: given(b.volume_type) ?? 'standard',
        size_gb: Number(b.size_gb),
        bootable: !!b.bootable,
        created_at: s.now(),
        region: r,
      };
      s.volumes.set(v.id, v);
      s.schedule(s.timings.volume, () => {
        if (v.status === 'creating') v.status = 'available';
      });
      return success({ id: v.id, name: v.name });
    }),
    route('PUT', '/v2/volumes/:id/resize', (q, s, r) => {
      const v = get(s, q.params.id!, r);
      if (!v) return noVolume();
      const size = Number(bodyOf(q).size_gb);
      if (v.instance_id)
        return fail(
          'database_volume_still_attached_cannot_resize',
          'The volume is attached; detach it before resizing',
        );
      if (!(size > v.size_gb))
        return fail('parameter_volume_size_must_increase', 'The new size must be larger than the current size');
      v.size_gb = size;
      return success();
    }),
    route('PUT', '/v2/volumes/:id/attach', (q, s, r) => {
      const v = get(s, q.params.id!, r);
      if (!v) return noVolume();
      const b = bodyOf(q);
      const inst = byId(s.instances, String(b.instance_id ?? ''), r);
      if (!inst) return missing('database_instance_find', 'instance');
      if (v.instance_id) return fail('database_volume_cannot_multiple_attach', 'The volume is already attached');
      if (v.status !== 'available') return fail('database_volume_cannot_multiple_attach', `The volume is ${v.status}`);
      Object.assign(v, { instance_id: inst.id, mountpoint: '/dev/vdb', status: 'attaching' });
      inst.attached_volumes = [...(inst.attached_volumes ?? []), { id: v.id }];
      s.schedule(s.timings.volume, () => {
        if (v.status === 'attaching') v.status = 'attached';
      });
      return success();
    }),
    route('PUT', '/v2/volumes/:id/detach', (q, s, r) => {
      const v = get(s, q.params.id!, r);
      if (!v) return noVolume();
      if (!v.instance_id) return fail('database_volume_not_attached', 'The volume is not attached');
      const inst = s.instances.get(v.instance_id);
      if (inst) inst.attached_volumes = (inst.attached_volumes ?? []).filter((a: Wire) => a.id !== v.id);
      Object.assign(v, { instance_id: null, mountpoint: null, status: 'available' });
      return success();
    }),
    route('DELETE', '/v2/volumes/:id', (q, s, r) => {
      const v = get(s, q.params.id!, r);
      if (!v) return noVolume();
      if (v.instance_id) return fail('database_volume_delete_failed', 'The volume is attached; detach it first');
      s.volumes.delete(v.id);
      return success();
    }),
  ];
}
