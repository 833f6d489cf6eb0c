// The simulated cluster's pools and nodes: a node as the API shows it, scaling a pool up and down,
// adding a pool (`pools` and `required_pools` kept in sync), applying label and taint changes, the
// marketplace applications, and a cluster turning ACTIVE with its nodes.
import type { Wire } from './object.js';
import type { SimStore } from './store.js';
import { marketplace, sizes } from './catalogue.js';

/** A node as the API shows it in `pools[].instances` and `/instances`: a full instance object (civogo's pool fixture). */
function node(s: SimStore, c: Wire, poolId: string, size: string, index: number): Wire {
  const sz = sizes.find((x) => x.name === size);
  const hostname = `k3s-${c.name}-${poolId.slice(0, 8)}-node-${index}-${s.id().slice(0, 5)}`;
  return {
    id: s.id(),
    name: hostname,
    hostname,
    account_id: s.accountId,
    size,
    region: c.region,
    firewall_id: c.firewall_id,
    source_type: 'diskimage',
    source_id: c.kubernetes_version,
    network_id: c.network_id,
    initial_user: 'root',
    initial_password: s.secret(10),
    ssh_key: '-',
    tags: ['k3s'],
    script: '',
    status: 'BUILDING',
    civostatsd_token: s.id(),
    public_ip: s.address('public'),
    private_ip: s.address('private'),
    namespace_id: c.namespace,
    notes: '',
    reverse_dns: '',
    cpu_cores: sz?.cpu_cores ?? 1,
    ram_mb: sz?.ram_mb ?? 1024,
    disk_gb: sz?.disk_gb ?? 30,
    created_at: s.now(),
  };
}

/** Grows or shrinks a pool to `count` nodes; new nodes become ACTIVE after the pool timing. */
export function scale(s: SimStore, c: Wire, pool: Wire, count: number): void {
  while (pool.instances.length > count) pool.instances.pop();
  while (pool.instances.length < count) {
    const n = node(s, c, pool.id, pool.size, pool.instances.length + 1);
    pool.instances.push(n);
    s.schedule(s.timings.pool, () => {
      n.status = 'ACTIVE';
    });
  }
  pool.count = count;
  pool.instance_names = pool.instances.map((i: Wire) => i.hostname);
  const req = c.required_pools.find((p: Wire) => p.id === pool.id);
  if (req) req.count = count;
}

export function addPool(s: SimStore, c: Wire, p: Wire): Wire {
  const pool: Wire = {
    id: String(p.id),
    count: 0,
    size: p.size,
    instance_names: [],
    instances: [],
    labels: p.labels ?? {},
    annotations: {},
    taints: Array.isArray(p.taints) ? p.taints : [],
    public_ip_node_pool: !!p.public_ip_node_pool,
  };
  c.pools.push(pool);
  c.required_pools.push({
    id: pool.id,
    size: pool.size,
    count: 0,
    labels: pool.labels,
    annotations: {},
    taints: pool.taints,
    public_ip_node_pool: pool.public_ip_node_pool,
  });
  scale(s, c, pool, Number(p.count) || 1);
  return pool;
}

export function applyPoolChange(pool: Wire, req: Wire | undefined, b: Wire): void {
  for (const target of [pool, req].filter(Boolean) as Wire[]) {
    if (b.labels !== undefined && b.labels !== null) target.labels = b.labels;
    if (b.taints !== undefined && b.taints !== null) target.taints = b.taints;
  }
}

export function install(apps: string | undefined): Wire[] | string {
  const names = new Set(marketplace.filter((m) => m.default).map((m) => m.name as string));
  for (const raw of (apps ?? '')
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean)) {
    const name = raw.replace(/^-/, '').split(':')[0]!;
    if (!marketplace.some((m) => m.name === name)) return name;
    if (raw.startsWith('-')) names.delete(name);
    else names.add(name);
  }
  return [...names].map((name) => {
    const m = marketplace.find((x) => x.name === name)!;
    return {
      application: name,
      name,
      title: m.title ?? null,
      version: m.version,
      dependencies: m.dependencies,
      maintainer: m.maintainer,
      description: m.description,
      post_install: '',
      installed: true,
      url: '',
      category: m.category,
      updated_at: new Date().toISOString(),
      image_url: '',
      plan: '',
      configuration: {},
    };
  });
}

export function markActive(s: SimStore, c: Wire): void {
  Object.assign(c, {
    status: 'ACTIVE',
    ready: true,
    built_at: s.now(),
    master_ip: c.master_ip || s.address('public'),
    dns_entry: `${c.id}.k8s.civo.com`,
    conditions: ['ControlPlaneReady', 'WorkerNodesReady', 'ClusterVersionSync'].map((type) => ({
      type,
      status: 'True',
      synced: true,
      last_transition_time: s.now(),
      reason: '',
      message: '',
    })),
  });
  c.api_endpoint = `https://${c.master_ip}:6443`;
  c.kubeconfig = `apiVersion: v1\nclusters:\n- cluster:\n    server: ${c.api_endpoint}\n  name: ${c.name}\nusers:\n- name: ${c.name}\n  user:\n    token: ${s.secret(16)}\n`;
  for (const p of c.pools) for (const n of p.instances) n.status = 'ACTIVE';
}

/** Removes one node from its pool (the pool shrinks by one). */
export function removeNode(c: Wire, pool: Wire, nodeId: string): boolean {
  const before = pool.instances.length;
  pool.instances = pool.instances.filter((n: Wire) => n.id !== nodeId);
  if (pool.instances.length === before) return false;
  pool.count = pool.instances.length;
  pool.instance_names = pool.instances.map((i: Wire) => i.hostname);
  const req = c.required_pools.find((p: Wire) => p.id === pool.id);
  if (req) req.count = pool.count;
  return true;
}
