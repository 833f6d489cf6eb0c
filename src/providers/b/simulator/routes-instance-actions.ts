// Simulated instance actions beyond create/update/delete, as civogo calls them: power (stop, start,
// hard and soft reboot, with STOPPING → SHUTOFF, STARTING → ACTIVE, REBOOTING → ACTIVE), VNC console,
// recovery (rescue) mode, allowed IPs and bandwidth limit. A power action is refused while BUILDING.
import type { Route } from '../../../kit/sim/router.js';
import type { Wire } from './object.js';
import type { SimStore } from './store.js';
import { byId, bodyOf, fail, missing, ok, success } from './answers.js';
import { route } from './endpoint.js';

const noInstance = () => missing('database_instance_find', 'instance');

/** Sets a transitional status that settles into `to` after the instance timing, unless superseded. */
function transition(s: SimStore, i: Wire, via: string, to: string): void {
  i.status = via;
  s.schedule(s.timings.instance, () => {
    if (s.instances.has(i.id) && i.status === via) i.status = to;
  });
}

/** One power action: refused unless the instance has finished building. */
function power(via: string, to: string, allowed: readonly string[]) {
  return (q: { params: Record<string, string> }, s: SimStore, r: string) => {
    const i = byId(s.instances, q.params.id!, r);
    if (!i) return noInstance();
    if (!allowed.includes(i.status))
      return fail(
        'instance_state_must_be_active_or_shutoff',
        `The instance is ${i.status}; it must be ACTIVE or SHUTOFF`,
      );
    transition(s, i, via, to);
    return success();
  };
}

const settled = ['ACTIVE', 'SHUTOFF', 'STOPPING', 'STARTING', 'REBOOTING'];

export function instanceActionRoutes(): Route<SimStore>[] {
  const get = (s: SimStore, id: string, r: string) => byId(s.instances, id, r);
  return [
    route('PUT', '/v2/instances/:id/stop', power('STOPPING', 'SHUTOFF', settled)),
    route('PUT', '/v2/instances/:id/start', power('STARTING', 'ACTIVE', settled)),
    route('POST', '/v2/instances/:id/hard_reboots', power('REBOOTING', 'ACTIVE', settled)),
    route('POST', '/v2/instances/:id/soft_reboots', power('REBOOTING', 'ACTIVE', settled)),
    route('PUT', '/v2/instances/:id/vnc', (q, s, r) => {
      const i = get(s, q.params.id!, r);
      if (!i) return noInstance();
      if (i.status !== 'ACTIVE' && i.status !== 'REBOOTING' && i.status !== 'STARTING')
        return fail('cannot_get_console', 'The console is only available while the instance runs');
      const duration = q.query.get('duration') || '1h';
      const hours = /^(\d+)h$/.exec(duration)?.[1];
      const minutes = /^(\d+)m$/.exec(duration)?.[1];
      const ms = hours ? Number(hours) * 3_600_000 : minutes ? Number(minutes) * 60_000 : 3_600_000;
      const vnc = {
        uri: `https://vnc.${r.toLowerCase()}.civo.com/${i.id}?token=${s.secret(8)}`,
        expiration: new Date(s.clock() + ms).toISOString(),
      };
      s.vnc.set(i.id, vnc);
      return ok({ uri: vnc.uri, duration });
    }),
    route('GET', '/v2/instances/:id/vnc', (q, s, r) => {
      const i = get(s, q.params.id!, r);
      if (!i) return noInstance();
      return ok(s.vnc.get(i.id) ?? { uri: '', expiration: '' });
    }),
    route('DELETE', '/v2/instances/:id/vnc', (q, s, r) => {
      const i = get(s, q.params.id!, r);
      if (!i) return noInstance();
      s.vnc.delete(i.id);
      return success();
    }),
    route('PUT', '/v2/instances/:id/recovery', (q, s, r) => {
      const i = get(s, q.params.id!, r);
      if (!i) return noInstance();
      if (i.rescue_password)
        return fail('database_instance_already_in_rescue_state', 'The instance is already in recovery mode');
      i.rescue_password = s.secret(8);
      return success();
    }),
    route('GET', '/v2/instances/:id/recovery', (q, s, r) => {
      const i = get(s, q.params.id!, r);
      if (!i) return noInstance();
      return ok({ result: i.rescue_password ? 'recovery' : 'normal' });
    }),
    route('DELETE', '/v2/instances/:id/recovery', (q, s, r) => {
      const i = get(s, q.params.id!, r);
      if (!i) return noInstance();
      i.rescue_password = '';
      return success();
    }),
    route('PUT', '/v2/instances/:id/allowed_ips', (q, s, r) => {
      const i = get(s, q.params.id!, r);
      if (!i) return noInstance();
      const ips = bodyOf(q).allowed_ips;
      if (!Array.isArray(ips) || ips.some((x) => typeof x !== 'string'))
        return fail('parameter_value_missing', 'allowed_ips must be a list of addresses');
      i.allowed_ips = ips;
      return success();
    }),
    route('PUT', '/v2/instances/:id/network_bandwidth_limit', (q, s, r) => {
      const i = get(s, q.params.id!, r);
      if (!i) return noInstance();
      const limit = Number(bodyOf(q).network_bandwidth_limit);
      if (!Number.isInteger(limit) || limit < 0)
        return fail('parameter_value_missing', 'network_bandwidth_limit must be a whole number of Mbps');
      i.network_bandwidth_limit = limit;
      return success();
    }),
  ];
}
