// Simulated Kubernetes clusters and node pools: BUILDING → ACTIVE with `ready`, client-chosen pool
// ids kept in creation order, `pools` and `required_pools` in sync, nodes BUILDING → ACTIVE.
import type { Route } from '../../../kit/sim/router.js';
import type { Wire } from './object.js';
import type { SimStore } from './store.js';
import { byId, bodyOf, fail, given, missing, ok, page, success } from './answers.js';
import { kubernetesVersions, marketplace, sizes } from './catalogue.js';
import { route } from './endpoint.js';
import { chooseFirewall, releaseFirewall } from './firewall-rule.js';
import { scale, addPool, applyPoolChange, install, markActive, removeNode } from './kubernetes-pools.js';

const noCluster = () =>
  fail('database_kubernetes_cluster_not_found', 'Failed to find the Kubernetes cluster in the internal database', 404);
const noPool = () => missing('database_cluster_pool_not_found', 'cluster pool');

function create(b: Wire, s: SimStore, r: string) {
  const name = given<string>(b.name) ?? `cluster-${s.id().slice(0, 8)}`;
  if (/\s/.test(name) || name.length > 63)
    return fail('kubernetes_cluster_invalid_name', 'The cluster name is invalid');
  if ([...s.clusters.values()].some((c) => c.name === name))
    return fail('database_kubernetes_cluster_duplicate', `A cluster named ${name} already exists`);
  const pools: Wire[] = Array.isArray(b.pools) ? b.pools : [];
  if (!pools.length) return fail('database_kubernetes_cluster_no_pools', 'A cluster needs at least one pool');
  for (const p of pools)
    if (!sizes.some((x) => x.name === p.size && x.type === 'Kubernetes'))
      return fail('database_size_not_found', 'Failed to find the size within the internal database', 400);
  const type = given<string>(b.cluster_type) ?? 'k3s';
  const versions = kubernetesVersions.filter((v) => v.clusterType === type);
  const version =
    given<string>(b.kubernetes_version) ??
    (versions.find((v) => v.default) ?? versions.find((v) => v.type === 'stable'))!.version;
  if (
    !versions.some((v) => v.version === version || v.label === version) ||
    versions.find((v) => v.version === version)?.type === 'legacy'
  )
    return fail(
      'database_kubernetes_cluster_invalid_version',
      'The Kubernetes version is invalid or a deprecated k3s version',
    );
  const net = given(b.network_id) ? byId(s.networks, b.network_id, r) : s.defaultNetwork(r);
  if (!net) return missing('database_network_not_found', 'network');
  const apps = install(given(b.applications));
  if (typeof apps === 'string')
    return fail(
      'database_kubernetes_application_not_found',
      `Failed to find the application ${apps} within the internal database`,
      400,
    );
  const id = s.id();
  const choice = chooseFirewall(
    s,
    r,
    net,
    given(b.instance_firewall) ?? given(b.firewall_id),
    b.firewall_rule,
    '80,443,6443',
    { id, name },
  );
  if ('error' in choice) return choice.error;
  const fw = choice.firewall;
  const c: Wire = {
    id,
    name,
    generated_name: name,
    version,
    cluster_type: type,
    kubernetes_version: version,
    upgrade_available_to: '',
    legacy: false,
    status: 'BUILDING',
    ready: false,
    built_at: null,
    created_at: s.now(),
    conditions: [],
    num_target_nodes: Number(b.num_target_nodes) || 3,
    target_nodes_size: given(b.target_nodes_size) ?? pools[0].size,
    kubeconfig: '',
    api_endpoint: '',
    master_ip: '',
    dns_entry: '',
    network_id: net.id,
    namespace: `cust-${s.id().slice(0, 8)}`,
    firewall_id: fw.id,
    tags: typeof b.tags === 'string' ? b.tags.split(' ').filter(Boolean) : [],
    cni_plugin: given(b.cni_plugin) ?? 'flannel',
    ccm_installed: 'true',
    volume_type: given(b.volume_type) ?? '',
    instances: [],
    pools: [],
    required_pools: [],
    installed_applications: apps,
    region: r,
  };
  s.clusters.set(c.id, c);
  for (const p of pools) addPool(s, c, { ...p, id: given(p.id) ?? s.id() });
  s.schedule(s.timings.cluster, () => {
    if (s.clusters.has(c.id) && c.status === 'BUILDING') markActive(s, c);
  });
  return ok(clusterView(c));
}

/** A cluster as the API answers it: `instances` holds every node of every pool. */
const clusterView = (c: Wire): Wire => ({ ...c, instances: c.pools.flatMap((p: Wire) => p.instances) });

export function kubernetesRoutes(): Route<SimStore>[] {
  const get = (s: SimStore, id: string, r: string) => byId(s.clusters, id, r);
  const view = clusterView;
  return [
    route('GET', '/v2/kubernetes/versions', () => ok(kubernetesVersions)),
    route('GET', '/v2/kubernetes/applications', () => ok(marketplace)),
    route('GET', '/v2/kubernetes/clusters', (q, s, r) => page(q, s.inRegion(s.clusters, r).map(view))),
    route('GET', '/v2/kubernetes/clusters/:id', (q, s, r) => {
      const c = get(s, q.params.id!, r);
      return c ? ok(view(c)) : noCluster();
    }),
    route('POST', '/v2/kubernetes/clusters', (q, s, r) => create(bodyOf(q), s, r)),
    route('PUT', '/v2/kubernetes/clusters/:id', (q, s, r) => {
      const c = get(s, q.params.id!, r);
      if (!c) return noCluster();
      const b = bodyOf(q);
      if (given(b.name)) {
        if ([...s.clusters.values()].some((o) => o.name === b.name && o.id !== c.id))
          return fail('database_kubernetes_cluster_duplicate', `A cluster named ${b.name} already exists`);
        c.name = b.name;
      }
      if (typeof b.tags === 'string') c.tags = b.tags.split(' ').filter(Boolean);
      if (given(b.firewall_id)) {
        const fw = byId(s.firewalls, b.firewall_id, r);
        if (!fw) return missing('database_firewall_not_found', 'firewall');
        c.firewall_id = fw.id;
      }
      if (given(b.kubernetes_version) && b.kubernetes_version !== c.kubernetes_version) {
        if (!kubernetesVersions.some((v) => v.version === b.kubernetes_version && v.clusterType === c.cluster_type))
          return fail(
            'database_kubernetes_cluster_invalid_version',
            'The Kubernetes version is invalid or a deprecated k3s version',
          );
        Object.assign(c, {
          kubernetes_version: b.kubernetes_version,
          version: b.kubernetes_version,
          status: 'UPGRADING',
        });
        s.schedule(s.timings.cluster, () => {
          if (c.status === 'UPGRADING') c.status = 'ACTIVE';
        });
      }
      if (given(b.applications)) {
        const apps = install(b.applications);
        if (typeof apps === 'string')
          return fail(
            'database_kubernetes_application_not_found',
            `Failed to find the application ${apps} within the internal database`,
            400,
          );
        c.installed_applications = apps;
      }
      for (const p of Array.isArray(b.pools) ? b.pools : []) {
        const pool = c.pools.find((x: Wire) => x.id === p.id);
        if (pool && Number(p.count) > 0) scale(s, c, pool, Number(p.count));
      }
      return ok(view(c));
    }),
    route('DELETE', '/v2/kubernetes/clusters/:id', (q, s, r) => {
      const c = get(s, q.params.id!, r);
      if (!c) return noCluster();
      s.clusters.delete(c.id);
      releaseFirewall(s, c.id);
      return success();
    }),
    route('GET', '/v2/kubernetes/clusters/:id/instances', (q, s, r) => {
      const c = get(s, q.params.id!, r);
      return c ? ok(view(c).instances) : noCluster();
    }),
    // Recycle: the node is rebuilt (BUILDING, then ACTIVE after the pool timing).
    route('POST', '/v2/kubernetes/clusters/:id/recycle', (q, s, r) => {
      const c = get(s, q.params.id!, r);
      if (!c) return noCluster();
      const hostname = String(bodyOf(q).hostname ?? '');
      const n = view(c).instances.find((x: Wire) => x.hostname === hostname);
      if (!n) return missing('database_kubernetes_node_not_found', 'Kubernetes node');
      n.status = 'BUILDING';
      s.schedule(s.timings.pool, () => {
        if (n.status === 'BUILDING') n.status = 'ACTIVE';
      });
      return success();
    }),
    route('DELETE', '/v2/kubernetes/clusters/:id/pools/:pid/instances/:iid', (q, s, r) => {
      const c = get(s, q.params.id!, r);
      if (!c) return noCluster();
      const pool = c.pools.find((x: Wire) => x.id === q.params.pid);
      if (!pool) return noPool();
      if (pool.instances.length <= 1)
        return fail(
          'database_cluster_pool_no_sufficient_instances_available',
          'A pool keeps at least one node; delete the pool instead',
        );
      return removeNode(c, pool, q.params.iid!)
        ? success()
        : missing('database_cluster_pool_instance_not_found', 'cluster pool instance');
    }),
    route('GET', '/v2/kubernetes/clusters/:id/pools', (q, s, r) => {
      const c = get(s, q.params.id!, r);
      return c ? ok(c.pools) : noCluster();
    }),
    route('GET', '/v2/kubernetes/clusters/:id/pools/:pid', (q, s, r) => {
      const c = get(s, q.params.id!, r);
      if (!c) return noCluster();
      const p = c.pools.find((x: Wire) => x.id === q.params.pid);
      return p ? ok(p) : noPool();
    }),
    route('POST', '/v2/kubernetes/clusters/:id/pools', (q, s, r) => {
      const c = get(s, q.params.id!, r);
      if (!c) return noCluster();
      const b = bodyOf(q);
      const id = given<string>(b.id) ?? s.id();
      if (c.pools.some((x: Wire) => x.id === id))
        return fail('database_kubernetes_cluster_invalid', `A pool with id ${id} already exists`);
      if (!sizes.some((x) => x.name === b.size && x.type === 'Kubernetes'))
        return fail('database_size_not_found', 'Failed to find the size within the internal database', 400);
      if (c.status !== 'ACTIVE')
        return fail('cannot_scale_already_rescaling_cluster', 'The cluster is busy; try again when it is ACTIVE');
      addPool(s, c, { ...b, id });
      return success();
    }),
    route('PUT', '/v2/kubernetes/clusters/:id/pools/:pid', (q, s, r) => {
      const c = get(s, q.params.id!, r);
      if (!c) return noCluster();
      const pool = c.pools.find((x: Wire) => x.id === q.params.pid);
      if (!pool) return noPool();
      const b = bodyOf(q);
      if (given(b.size) && b.size !== pool.size)
        return fail('database_kubernetes_cluster_invalid', 'The size of a pool cannot be changed');
      applyPoolChange(
        pool,
        c.required_pools.find((p: Wire) => p.id === pool.id),
        b,
      );
      if (Number(b.count) > 0) scale(s, c, pool, Number(b.count));
      return ok(pool);
    }),
    route('DELETE', '/v2/kubernetes/clusters/:id/pools/:pid', (q, s, r) => {
      const c = get(s, q.params.id!, r);
      if (!c) return noCluster();
      if (!c.pools.some((x: Wire) => x.id === q.params.pid)) return noPool();
      c.pools = c.pools.filter((x: Wire) => x.id !== q.params.pid);
      c.required_pools = c.required_pools.filter((x: Wire) => x.id !== q.params.pid);
      return success();
    }),
  ];
}
