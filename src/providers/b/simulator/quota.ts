// The account's quota (GET /v2/quota, civogo's Quota): fixed limits, usage counted from the objects
// the simulator holds across regions, as the real API reports it per account.
import type { Wire } from './object.js';
import type { SimStore } from './store.js';

const limits = {
  instance_count: 16,
  cpu_core: 32,
  ram_mb: 65536,
  disk_gb: 1000,
  disk_volume_count: 16,
  disk_snapshot_count: 30,
  public_ip_address: 16,
  subnet_count: 10,
  network_count: 10,
  security_group: 16,
  security_group_rule: 160,
  port_count: 32,
  loadbalancer_count: 16,
  objectstore_gb: 1000,
  database_count: 4,
  database_snapshot_count: 20,
  database_cpu_core: 120,
  database_ram_mb: 786432,
  database_disk_gb: 7680,
} as const;

export function quota(s: SimStore): Wire {
  const all = (m: ReadonlyMap<string, Wire>) => [...m.values()];
  const sum = (xs: Wire[], f: (x: Wire) => number) => xs.reduce((n, x) => n + (Number(f(x)) || 0), 0);
  const inst = all(s.instances);
  const dbs = all(s.databases);
  const usage: Record<keyof typeof limits, number> = {
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
  const out: Wire = { id: s.accountId, default_user_id: s.accountId, default_user_email_address: 'user@example.com' };
  for (const k of Object.keys(limits) as (keyof typeof limits)[]) {
    out[`${k}_limit`] = limits[k];
    out[`${k}_usage`] = usage[k];
  }
  return out;
}
