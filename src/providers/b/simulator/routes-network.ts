// Simulated networks (+ subnets) and firewalls (+ rules), each under its classic path and the /v2/vpc
// alias; the family's route list gathers them with volumes, reserved IPs and load balancers.
import type { Route } from '../../../kit/sim/router.js';
import type { Wire } from './object.js';
import type { SimStore } from './store.js';
import { byId, bodyOf, fail, given, missing, ok, success } from './answers.js';
import { aliased } from './endpoint.js';
import { loadBalancerRoutes } from './routes-loadbalancer.js';
import { volumeRoutes } from './routes-volumes.js';
import { ipRoutes } from './routes-ips.js';
import { overQuota } from './quota.js';

const noNetwork = () => missing('database_network_not_found', 'network');
const noFirewall = () => missing('database_firewall_not_found', 'firewall');

/** A rule in wire shape; `ports` and start/end each derived from the other. */
export function makeRule(s: SimStore, firewallId: string, b: Wire): Wire | string {
  const protocol = String(given(b.protocol) ?? 'tcp').toLowerCase();
  if (!['tcp', 'udp', 'icmp'].includes(protocol)) return 'protocol must be tcp, udp or icmp';
  let ports = given<string>(b.ports) ?? '';
  let start = String(given(b.start_port) ?? '');
  let end = String(given(b.end_port) ?? '');
  if (ports) [start, end] = ports.includes('-') ? (ports.split('-') as [string, string]) : [ports, ports];
  else if (start) ports = end && end !== start ? `${start}-${end}` : start;
  if (!start && protocol !== 'icmp') return 'start_port';
  return {
    id: s.id(),
    firewall_id: firewallId,
    openstack_security_group_rule_id: null,
    protocol,
    start_port: start,
    end_port: end || start,
    ports,
    cidr: Array.isArray(b.cidr) ? b.cidr : [given(b.cidr) ?? '0.0.0.0/0'],
    direction: given(b.direction) ?? 'ingress',
    action: given(b.action) ?? 'allow',
    label: given(b.label) ?? '',
  };
}

function firewallView(s: SimStore, f: Wire): Wire {
  const uses = (m: Map<string, Wire>) => [...m.values()].filter((o) => o.firewall_id === f.id).length;
  return {
    ...f,
    rules_count: f.rules.length,
    instance_count: uses(s.instances),
    cluster_count: uses(s.clusters),
    loadbalancer_count: uses(s.loadbalancers),
  };
}

function networkRoutes(): Route<SimStore>[] {
  return [
    ...aliased('GET', '/v2/networks', (_q, s, r) => ok(s.inRegion(s.networks, r))),
    ...aliased('GET', '/v2/networks/:id', (q, s, r) => {
      const n = byId(s.networks, q.params.id!, r);
      return n ? ok(n) : noNetwork();
    }),
    ...aliased('POST', '/v2/networks', (q, s, r) => {
      const b = bodyOf(q);
      if (!given(b.label) || /\s/.test(b.label))
        return fail('parameter_label_invalid', 'The label supplied was empty or invalid');
      if (s.inRegion(s.networks, r).some((n) => n.label === b.label))
        return fail('database_network_duplicate_name', `A network labelled ${b.label} already exists`);
      const over = overQuota(s, { network_count: 1 });
      if (over) return over;
      const vlan = b.vlan_connect && Number(b.vlan_connect.vlan_id) > 0 ? b.vlan_connect : {};
      const id = s.id();
      s.networks.set(id, {
        id,
        name: b.label,
        label: b.label,
        default: false,
        cidr: given(b.cidr_v4) ?? `10.${(s.networks.size * 7) % 250}.0.0/24`,
        cidr_v6: '',
        status: 'Active',
        ipv4_enabled: b.ipv4_enabled ?? true,
        ipv6_enabled: b.ipv6_enabled ?? false,
        nameservers_v4: given(b.nameservers_v4) ?? ['8.8.8.8', '1.1.1.1'],
        nameservers_v6: given(b.nameservers_v6) ?? [],
        vlan_id: Number(vlan.vlan_id ?? 0),
        physical_interface: vlan.physical_interface ?? '',
        gateway_ipv4: vlan.gateway_ipv4 ?? '',
        allocation_pool_v4_start: vlan.allocation_pool_v4_start ?? '',
        allocation_pool_v4_end: vlan.allocation_pool_v4_end ?? '',
        free_ip_count: 250,
        region: r,
      });
      return success({ id, label: b.label });
    }),
    ...aliased('PUT', '/v2/networks/:id', (q, s, r) => {
      const n = byId(s.networks, q.params.id!, r);
      if (!n) return noNetwork();
      const b = bodyOf(q);
      if (given(b.label)) {
        if (s.inRegion(s.networks, r).some((o) => o.label === b.label && o.id !== n.id))
          return fail('database_network_duplicate_name', `A network labelled ${b.label} already exists`);
        n.label = b.label;
        n.name = b.label;
      }
      if (Array.isArray(b.nameservers_v4)) n.nameservers_v4 = b.nameservers_v4;
      return success({ id: n.id, label: n.label });
    }),
    ...aliased('DELETE', '/v2/networks/:id', (q, s, r) => {
      const n = byId(s.networks, q.params.id!, r);
      if (!n) return noNetwork();
      if (n.default) return fail('network_delete_default', 'The default network cannot be deleted');
      if ([...s.instances.values()].some((i) => i.network_id === n.id))
        return fail('database_network_delete_with_instance', 'The network still has instances');
      if ([...s.volumes.values()].some((v) => v.network_id === n.id))
        return fail('database_network_inuse_by_volumes', 'The network still has volumes');
      for (const f of [...s.firewalls.values()])
        if (f.network_id === n.id && firewallView(s, f).instance_count + firewallView(s, f).cluster_count === 0)
          s.firewalls.delete(f.id);
      for (const sn of [...s.subnets.values()]) if (sn.network_id === n.id) s.subnets.delete(sn.id);
      s.networks.delete(n.id);
      return success();
    }),
    ...aliased('GET', '/v2/networks/:id/subnets', (q, s, r) =>
      byId(s.networks, q.params.id!, r)
        ? ok([...s.subnets.values()].filter((x) => x.network_id === q.params.id))
        : noNetwork(),
    ),
    ...aliased('GET', '/v2/networks/:id/subnets/:sid', (q, s) => {
      const x = s.subnets.get(q.params.sid!);
      return x && x.network_id === q.params.id ? ok(x) : missing('database_network_lookup', 'subnet');
    }),
    ...aliased('POST', '/v2/networks/:id/subnets', (q, s, r) => {
      if (!byId(s.networks, q.params.id!, r)) return noNetwork();
      const name = given<string>(bodyOf(q).name);
      if (!name) return fail('parameter_name_invalid', 'The name supplied was empty');
      const sub = { id: s.id(), name, network_id: q.params.id, subnet_size: '/24', status: 'available', region: r };
      s.subnets.set(sub.id, sub);
      return ok(sub);
    }),
    ...aliased('DELETE', '/v2/networks/:id/subnets/:sid', (q, s) => {
      if (!s.subnets.delete(q.params.sid!)) return missing('database_network_lookup', 'subnet');
      for (const [id, rt] of s.routes) if (rt.subnet_id === q.params.sid) s.routes.delete(id);
      return success();
    }),
    // Routes attach a subnet to a resource (civogo AttachSubnetToInstance / DetachSubnetFromInstance).
    ...aliased('POST', '/v2/networks/:id/subnets/:sid/routes', (q, s) => {
      const sub = s.subnets.get(q.params.sid!);
      if (!sub || sub.network_id !== q.params.id) return missing('database_network_lookup', 'subnet');
      const b = bodyOf(q);
      if (!given(b.resource_id)) return fail('parameter_id_missing', 'resource_id is required');
      const rt = {
        id: s.id(),
        subnet_id: sub.id,
        network_id: sub.network_id,
        resource_id: String(b.resource_id),
        resource_type: given(b.resource_type) ?? 'instance',
      };
      s.routes.set(rt.id, rt);
      return ok(rt);
    }),
    ...aliased('DELETE', '/v2/networks/:id/subnets/:sid/routes', (q, s) => {
      const sub = s.subnets.get(q.params.sid!);
      if (!sub || sub.network_id !== q.params.id) return missing('database_network_lookup', 'subnet');
      for (const [id, rt] of s.routes) if (rt.subnet_id === sub.id) s.routes.delete(id);
      return success();
    }),
  ];
}

function firewallRoutes(): Route<SimStore>[] {
  return [
    ...aliased('GET', '/v2/firewalls', (_q, s, r) => ok(s.inRegion(s.firewalls, r).map((f) => firewallView(s, f)))),
    ...aliased('GET', '/v2/firewalls/:id', (q, s, r) => {
      const f = byId(s.firewalls, q.params.id!, r);
      return f ? ok(firewallView(s, f)) : noFirewall();
    }),
    ...aliased('POST', '/v2/firewalls', (q, s, r) => {
      const b = bodyOf(q);
      if (!given(b.name)) return fail('parameter_name_invalid', 'The name supplied was empty');
      if ([...s.firewalls.values()].some((f) => f.name === b.name))
        return fail('database_firewall_duplicate_name', `A firewall named ${b.name} already exists`);
      const net = given(b.network_id) ? byId(s.networks, b.network_id, r) : s.defaultNetwork(r);
      if (!net) return noNetwork();
      const id = s.id();
      const rules: Wire[] = [];
      if (b.create_rules === undefined || b.create_rules === null || b.create_rules === true) {
        for (const [label, port] of [
          ['SSH', '22'],
          ['HTTP', '80'],
          ['HTTPS', '443'],
        ] as const)
          rules.push(
            makeRule(s, id, {
              protocol: 'tcp',
              ports: port,
              cidr: ['0.0.0.0/0'],
              direction: 'ingress',
              action: 'allow',
              label,
            }) as Wire,
          );
      }
      for (const rb of Array.isArray(b.rules) ? b.rules : []) {
        const rule = makeRule(s, id, rb);
        if (typeof rule === 'string')
          return fail(
            rule === 'start_port' ? 'parameter_start_port_missing' : 'database_firewall_rules_invalid_params',
            rule === 'start_port' ? 'The start port is missing' : rule,
          );
        rules.push(rule);
      }
      s.firewalls.set(id, {
        id,
        name: b.name,
        account_id: s.accountId,
        network_id: net.id,
        default: false,
        rules,
        region: r,
      });
      return success({ id, name: b.name });
    }),
    ...aliased('PUT', '/v2/firewalls/:id', (q, s, r) => {
      const f = byId(s.firewalls, q.params.id!, r);
      if (!f) return noFirewall();
      const name = given<string>(bodyOf(q).name);
      if (name && [...s.firewalls.values()].some((o) => o.name === name && o.id !== f.id))
        return fail('database_firewall_duplicate_name', `A firewall named ${name} already exists`);
      if (name) f.name = name;
      return success({ id: f.id });
    }),
    ...aliased('DELETE', '/v2/firewalls/:id', (q, s, r) => {
      const f = byId(s.firewalls, q.params.id!, r);
      if (!f) return noFirewall();
      const v = firewallView(s, f);
      if (
        v.instance_count + v.cluster_count + v.loadbalancer_count > 0 ||
        [...s.databases.values()].some((d) => d.firewall_id === f.id)
      )
        return fail('database_firewall_delete_failed', 'The firewall is still in use', 400);
      s.firewalls.delete(f.id);
      return success();
    }),
    ...aliased('GET', '/v2/firewalls/:id/rules', (q, s, r) => {
      const f = byId(s.firewalls, q.params.id!, r);
      return f ? ok(f.rules) : noFirewall();
    }),
    ...aliased('POST', '/v2/firewalls/:id/rules', (q, s, r) => {
      const f = byId(s.firewalls, q.params.id!, r);
      if (!f) return noFirewall();
      const rule = makeRule(s, f.id, bodyOf(q));
      if (typeof rule === 'string')
        return fail(
          rule === 'start_port' ? 'parameter_start_port_missing' : 'database_firewall_rules_invalid_params',
          rule === 'start_port' ? 'The start port is missing' : rule,
        );
      f.rules.push(rule);
      return ok(rule);
    }),
    ...aliased('DELETE', '/v2/firewalls/:id/rules/:rid', (q, s, r) => {
      const f = byId(s.firewalls, q.params.id!, r);
      if (!f) return noFirewall();
      const before = f.rules.length;
      f.rules = f.rules.filter((x: Wire) => x.id !== q.params.rid);
      return before === f.rules.length ? missing('database_firewall_rules_find', 'firewall rule') : success();
    }),
  ];
}

export function networkFamilyRoutes(): Route<SimStore>[] {
  return [...networkRoutes(), ...firewallRoutes(), ...volumeRoutes(), ...ipRoutes(), ...loadBalancerRoutes()];
}
