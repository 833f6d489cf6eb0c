// Simulated load balancers under the classic path and the /v2/vpc alias. A create that names no
// firewall gets one made from its `firewall_rule` (see firewall-rule.ts).
import type { Route } from '../../../kit/sim/router.js';
import type { Wire } from './object.js';
import type { SimStore } from './store.js';
import { byId, bodyOf, fail, given, missing, ok, success } from './answers.js';
import { aliased } from './endpoint.js';
import { chooseFirewall, releaseFirewall } from './firewall-rule.js';

/** The traffic settings of a load balancer body; absent keys keep their value. */
function applyLoadBalancer(lb: Wire, b: Wire): void {
  lb.algorithm = given(b.algorithm) ?? lb.algorithm ?? 'round_robin';
  lb.external_traffic_policy = given(b.external_traffic_policy) ?? lb.external_traffic_policy ?? 'Cluster';
  lb.session_affinity = given(b.session_affinity) ?? lb.session_affinity ?? '';
  lb.session_affinity_config_timeout = Number(
    given(b.session_affinity_config_timeout) ?? lb.session_affinity_config_timeout ?? 0,
  );
  lb.enable_proxy_protocol = given(b.enable_proxy_protocol) ?? lb.enable_proxy_protocol ?? '';
  lb.max_concurrent_requests = Number(given(b.max_concurrent_requests) ?? lb.max_concurrent_requests ?? 10000);
  if (Array.isArray(b.backends))
    lb.backends = b.backends.map((x: Wire) => ({
      ip: x.ip,
      protocol: x.protocol ?? 'TCP',
      source_port: Number(x.source_port),
      target_port: Number(x.target_port),
      health_check_port: Number(x.health_check_port ?? 0),
    }));
  lb.backends ??= [];
  lb.instance_pools ??= [];
  lb.options ??= { server_timeout: '', client_timeout: '' };
}

export function loadBalancerRoutes(): Route<SimStore>[] {
  const none = () => missing('database_loadbalancer_not_found', 'load balancer');
  return [
    ...aliased('GET', '/v2/loadbalancers', (_q, s, r) => ok(s.inRegion(s.loadbalancers, r))),
    ...aliased('GET', '/v2/loadbalancers/:id', (q, s, r) => {
      const lb = byId(s.loadbalancers, q.params.id!, r);
      return lb ? ok(lb) : none();
    }),
    ...aliased('POST', '/v2/loadbalancers', (q, s, r) => {
      const b = bodyOf(q);
      if (!given(b.name) || /\s/.test(b.name)) return fail('parameter_name_invalid', 'The name supplied was empty');
      if (s.inRegion(s.loadbalancers, r).some((lb) => lb.name === b.name))
        return fail('database_loadbalancer_duplicate_name', `A load balancer named ${b.name} already exists`);
      const net = given(b.network_id) ? byId(s.networks, b.network_id, r) : s.defaultNetwork(r);
      if (!net) return missing('database_network_not_found', 'network');
      const id = s.id();
      const choice = chooseFirewall(s, r, net, b.firewall_id, b.firewall_rule, '80;443', { id, name: b.name });
      if ('error' in choice) return choice.error;
      const fw = choice.firewall;
      const lb: Wire = {
        id,
        name: b.name,
        service_name: given(b.service_name) ?? '',
        network_id: net.id,
        cluster_id: given(b.cluster_id) ?? '',
        firewall_id: fw.id,
        public_ip: s.address('public'),
        private_ip: s.address('private'),
        state: 'available',
        reserved_ip_id: '',
        reserved_ip_name: '',
        reserved_ip: '',
        region: r,
      };
      applyLoadBalancer(lb, b);
      s.loadbalancers.set(lb.id, lb);
      return ok(lb);
    }),
    ...aliased('PUT', '/v2/loadbalancers/:id', (q, s, r) => {
      const lb = byId(s.loadbalancers, q.params.id!, r);
      if (!lb) return none();
      const b = bodyOf(q);
      if (given(b.name)) lb.name = b.name;
      if (given(b.firewall_id)) {
        if (!byId(s.firewalls, b.firewall_id, r)) return missing('database_firewall_not_found', 'firewall');
        lb.firewall_id = b.firewall_id;
      }
      applyLoadBalancer(lb, b);
      return ok(lb);
    }),
    ...aliased('DELETE', '/v2/loadbalancers/:id', (q, s, r) => {
      if (!(byId(s.loadbalancers, q.params.id!, r) && s.loadbalancers.delete(q.params.id!))) return none();
      releaseFirewall(s, q.params.id!);
      return success();
    }),
  ];
}
