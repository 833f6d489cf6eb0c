// The firewall a create gets when it names none (real Civo, as the CLI relies on): with `firewall_rule`
// (cluster "80,443,6443", load balancer "80;443", database "all" or a port list), or in a network that
// has no default firewall, the API makes a firewall of its own holding those ports open to everyone;
// otherwise the object joins the network's default firewall. A firewall made this way is removed with
// the object it was made for when nothing else uses it.
import type { SimResponse } from '../../../kit/sim/router.js';
import type { Wire } from './object.js';
import type { SimStore } from './store.js';
import { byId, fail, given, missing } from './answers.js';

/** Port entries of a `firewall_rule` string ("80,443", "80;443", "all", "1000-2000"); null when invalid. */
export function parseFirewallRule(rule: string): string[] | null {
  const entries = rule
    .split(/[,;\s]+/)
    .map((x) => x.trim())
    .filter(Boolean);
  const ports: string[] = [];
  for (const e of entries) {
    if (e.toLowerCase() === 'all') {
      ports.push('1-65535');
      continue;
    }
    const m = /^(\d{1,5})(?:-(\d{1,5}))?$/.exec(e);
    if (!m || Number(m[1]) < 1 || Number(m[2] ?? m[1]) > 65535 || Number(m[2] ?? m[1]) < Number(m[1])) return null;
    ports.push(e);
  }
  return ports.length ? ports : null;
}

export type FirewallChoice = { readonly firewall: Wire } | { readonly error: SimResponse };

/**
 * The firewall for an object being created in `network`: `firewallId` when given (it must be in that
 * network), else one made from `rule` (or `fallbackRule` when the network has no default firewall),
 * else the network's default firewall. `owner` names the object, for the made firewall's name.
 */
export function chooseFirewall(
  s: SimStore,
  region: string,
  network: Wire,
  firewallId: unknown,
  rule: unknown,
  fallbackRule: string,
  owner: { id: string; name: string },
): FirewallChoice {
  if (given(firewallId)) {
    const fw = byId(s.firewalls, String(firewallId), region);
    if (!fw) return { error: missing('database_firewall_not_found', 'firewall') };
    if (fw.network_id !== network.id)
      return { error: fail('database_firewall_mismatch', `firewall ${fw.id} is not part of network ${network.id}`) };
    return { firewall: fw };
  }
  const fallback = s.defaultFirewall(network.id);
  const wanted = given<string>(typeof rule === 'string' ? rule : undefined) ?? (fallback ? undefined : fallbackRule);
  if (!wanted) return { firewall: fallback! };
  const ports = parseFirewallRule(wanted);
  if (!ports)
    return {
      error: fail(
        'database_firewall_rules_invalid_params',
        `The firewall rule '${wanted}' is not a list of ports ("80,443", "all")`,
      ),
    };
  const id = s.id();
  const rules = ports.map((p) => {
    const [start, end] = p.includes('-') ? (p.split('-') as [string, string]) : [p, p];
    return {
      id: s.id(),
      firewall_id: id,
      openstack_security_group_rule_id: null,
      protocol: 'tcp',
      start_port: start,
      end_port: end,
      ports: p,
      cidr: ['0.0.0.0/0'],
      direction: 'ingress',
      action: 'allow',
      label: `port ${p}`,
    };
  });
  let name = `${owner.name}-${id.slice(0, 8)}`;
  while ([...s.firewalls.values()].some((f) => f.name === name)) name = `${owner.name}-${s.id().slice(0, 8)}`;
  const fw: Wire = { id, name, account_id: s.accountId, network_id: network.id, default: false, rules, region };
  s.firewalls.set(id, fw);
  s.madeFirewalls.set(owner.id, id);
  return { firewall: fw };
}

/** Removes the firewall made for `ownerId` (if any) once nothing uses it. */
export function releaseFirewall(s: SimStore, ownerId: string): void {
  const id = s.madeFirewalls.get(ownerId);
  if (!id) return;
  s.madeFirewalls.delete(ownerId);
  const used = [s.instances, s.clusters, s.loadbalancers, s.databases].some((m) =>
    [...m.values()].some((o) => o.firewall_id === id),
  );
  if (!used) s.firewalls.delete(id);
}
