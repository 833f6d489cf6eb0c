// The account's quota (GET /v2/quota, civogo's Quota): the store's limits (Civo's defaults for a new
// account unless a test lowers them), usage counted from the objects the simulator holds across
// regions, as the real API reports it per account; and the refusal of a create that would go over:
// 403 `quota_limit_reached`, the reason naming each exceeded quota on its own line.
import type { SimResponse } from '../../../kit/sim/router.js';
import { fail } from './answers.js';
import type { Wire } from './object.js';
import type { QuotaKey } from './quota-limits.js';
import type { SimStore } from './store.js';

/** What the account uses of each quota now. */
function usageOf(s: SimStore): Record<QuotaKey, number> {
  const all = (m: ReadonlyMap<string, Wire>) => [...m.values()];
  const sum = (xs: Wire[], f: (x: Wire) => number) => xs.reduce((n, x) => n + (Number(f(x)) || 0), 0);
  const inst = all(s.instances);
  const dbs = all(s.databases);
  return {
    instance_count: inst.length,
    cpu_core: sum(inst, (i) => i.cpu_cores),
    ram_mb: sum(inst, (i) => i.ram_mb),
    disk_gb: sum(inst, (i) => i.disk_gb),
    disk_volume_count: s.volumes.size,
    disk_snapshot_count: 0,
    public_ip_address: inst.filter((i) => i.public_ip).length + s.ips.size + s.loadbalancers.size,
    subnet_count: s.subnets.size,
    network_count: all(s.networks).filter((n) => !n.default).length,
    security_group: s.firewalls.size,
    security_group_rule: sum(all(s.firewalls), (f) => f.rules?.length),
    port_count: inst.length,
    loadbalancer_count: s.loadbalancers.size,
    objectstore_gb: sum(all(s.objectStores), (o) => o.max_size),
    database_count: dbs.length,
    database_snapshot_count: 0,
    database_cpu_core: 0,
    database_ram_mb: 0,
    database_disk_gb: 0,
  };
}

/** GET /v2/quota: each `<name>_limit` and `<name>_usage`. */
export function quota(s: SimStore): Wire {
  const usage = usageOf(s);
  const out: Wire = { id: s.accountId, default_user_id: s.accountId, default_user_email_address: 'user@example.com' };
  for (const k of Object.keys(s.quotaLimits) as QuotaKey[]) {
    out[`${k}_limit`] = s.quotaLimits[k];
    out[`${k}_usage`] = usage[k];
  }
  return out;
}

const labels: Partial<Record<QuotaKey, string>> = {
  instance_count: 'instances',
  cpu_core: 'CPU cores',
  ram_mb: 'RAM (MB)',
  disk_gb: 'disk (GB)',
  disk_volume_count: 'volumes',
  public_ip_address: 'public IP addresses',
  network_count: 'networks',
};

/** Civo's refusal when `want` more of each quota would go over a limit, else null. */
export function overQuota(s: SimStore, want: Partial<Record<QuotaKey, number>>): SimResponse | null {
  const usage = usageOf(s);
  const over = (Object.entries(want) as [QuotaKey, number][]).filter(
    ([k, n]) => n > 0 && usage[k] + n > s.quotaLimits[k],
  );
  if (!over.length) return null;
  const lines = over.map(
    ([k, n]) => `${labels[k] ?? k}: ${usage[k]} of ${s.quotaLimits[k]} in use, ${n} more requested`,
  );
  return fail(
    'quota_limit_reached',
    ['The quota limit has been reached, please contact support', ...lines].join('\n'),
    403,
  );
}
