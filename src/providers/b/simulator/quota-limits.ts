// The account's quota limits in the Civo simulator: what a new Civo account gets (GET /v2/quota's
// `<name>_limit` fields); SimStore.quotaLimits holds a copy a test may lower to reach them quickly.
export const defaultQuotaLimits = {
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

export type QuotaKey = keyof typeof defaultQuotaLimits;
export type QuotaLimits = Record<QuotaKey, number>;
