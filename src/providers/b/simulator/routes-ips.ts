// Simulated reserved IPs under /v2/ips and the /v2/vpc alias: allocation after a delay, assign and
// unassign actions.
import type { Route } from '../../../kit/sim/router.js';
import type { Wire } from './object.js';
import type { SimStore } from './store.js';
import { byId, bodyOf, fail, given, missing, ok, page, success } from './answers.js';
import { aliased } from './endpoint.js';
import { assignIp, unassignIp } from './routes-instances.js';
import { overQuota } from './quota.js';

const noIp = () => missing('database_ip_find', 'IP');

export function ipRoutes(): Route<SimStore>[] {
  return [
    ...aliased('GET', '/v2/ips', (q, s, r) => page(q, s.inRegion(s.ips, r))),
    ...aliased('GET', '/v2/ips/:id', (q, s, r) => {
      const ip = byId(s.ips, q.params.id!, r);
      return ip ? ok(ip) : noIp();
    }),
    ...aliased('POST', '/v2/ips', (q, s, r) => {
      const name = given<string>(bodyOf(q).name) ?? `ip-${s.id().slice(0, 8)}`;
      if (/\s/.test(name)) return fail('parameter_name_invalid', 'The name must not contain whitespace');
      const over = overQuota(s, { public_ip_address: 1 });
      if (over) return over;
      const ip: Wire = { id: s.id(), name, ip: '', assigned_to: { id: '', type: '', name: '' }, region: r };
      s.ips.set(ip.id, ip);
      s.schedule(s.timings.ip, () => {
        if (!ip.ip) ip.ip = s.address('public');
      });
      return ok(ip);
    }),
    ...aliased('PUT', '/v2/ips/:id', (q, s, r) => {
      const ip = byId(s.ips, q.params.id!, r);
      if (!ip) return noIp();
      const name = given<string>(bodyOf(q).name);
      if (name) ip.name = name;
      return ok(ip);
    }),
    ...aliased('POST', '/v2/ips/:id/actions', (q, s, r) => {
      const ip = byId(s.ips, q.params.id!, r);
      if (!ip) return noIp();
      const b = bodyOf(q);
      if (b.action === 'unassign') {
        unassignIp(s, ip);
        return success();
      }
      if (b.action !== 'assign') return fail('parameter_value_missing', 'action must be assign or unassign');
      const inst = byId(s.instances, String(b.assign_to_id ?? ''), r);
      if (!inst) return missing('database_instance_find', 'instance');
      if (!ip.ip) return fail('database_cannot_move_ip', 'The IP has not been allocated yet');
      if (ip.assigned_to?.id && ip.assigned_to.id !== inst.id)
        return fail('database_cannot_move_ip', `The IP is assigned to ${ip.assigned_to.type} ${ip.assigned_to.id}`);
      assignIp(s, ip, inst);
      return success();
    }),
    ...aliased('DELETE', '/v2/ips/:id', (q, s, r) => {
      const ip = byId(s.ips, q.params.id!, r);
      if (!ip) return noIp();
      unassignIp(s, ip);
      s.ips.delete(ip.id);
      return success();
    }),
  ];
}
