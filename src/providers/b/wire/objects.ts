// The Civo API v2 answers provider B reads, one schema per object, after civogo's structs (the
// JSON names and types of Civo's own Go client, and its fixtures of real answers). The schemas are
// loose: the API sends more than converge reads, and a field it adds later must not break a read.
// The client's endpoints answer these types; tests/providers/b/wire.test.ts parses every answer
// of the simulator with them, so a shape the code relies on and the simulator's answer cannot part.
import { z } from 'zod';

const text = z.string();
/** A string the API may leave out or send as null (civogo's omitempty string, a Ruby nil). */
const maybe = z.string().nullish();
const count = z.number().int();
const strings = z.array(z.string());

export * from './catalogue.js';

/** `{result: "success"}` (civogo's SimpleResponse), sometimes with the id and name of the object. */
export const simpleResponse = z.looseObject({
  result: text,
  id: text.optional(),
  name: text.optional(),
});

/** The answer to creating a network, firewall, volume or SSH key: the new object's id (civogo's NetworkResult, ...). */
export const created = z.looseObject({ result: text, id: text, name: text.optional(), label: text.optional() });

export const instance = z.looseObject({
  id: text,
  hostname: text,
  reverse_dns: maybe,
  size: text,
  region: text.optional(),
  network_id: text,
  private_ip: maybe,
  public_ip: maybe,
  template_id: maybe,
  source_type: maybe,
  source_id: maybe,
  initial_user: text,
  initial_password: maybe,
  ssh_key_id: maybe,
  status: text,
  notes: maybe,
  firewall_id: text,
  tags: strings.nullish(),
  cpu_cores: count,
  ram_mb: count,
  disk_gb: count,
  script: maybe,
  created_at: text,
  reserved_ip_id: maybe,
  reserved_ip_name: maybe,
  reserved_ip: maybe,
  volume_type: maybe,
});

export const network = z.looseObject({
  id: text,
  name: text,
  label: text,
  default: z.boolean(),
  cidr: maybe,
  status: maybe,
  ipv4_enabled: z.boolean().optional(),
  ipv6_enabled: z.boolean().optional(),
  nameservers_v4: strings.nullish(),
  nameservers_v6: strings.nullish(),
});

export const subnet = z.looseObject({
  id: text,
  name: text,
  network_id: text,
  subnet_size: maybe,
  status: maybe,
});

export const firewallRule = z.looseObject({
  id: text,
  firewall_id: text,
  protocol: text,
  start_port: text,
  end_port: text,
  cidr: strings,
  direction: z.enum(['ingress', 'egress']),
  action: text,
  label: maybe,
  ports: maybe,
});

export const firewall = z.looseObject({
  id: text,
  name: text,
  network_id: text,
  default: z.boolean().optional(),
  rules_count: count.optional(),
  instance_count: count,
  cluster_count: count,
  loadbalancer_count: count,
  rules: z.array(firewallRule).optional(),
});

export const volume = z.looseObject({
  id: text,
  name: text,
  instance_id: maybe,
  cluster_id: maybe,
  network_id: text,
  mountpoint: maybe,
  status: text,
  volume_type: maybe,
  size_gb: count,
  bootable: z.boolean(),
  created_at: text,
});

export const reservedIp = z.looseObject({
  id: text,
  name: text,
  ip: text,
  assigned_to: z.looseObject({ id: maybe, type: maybe, name: maybe }).nullish(),
});

export const loadBalancerBackend = z.looseObject({
  ip: text,
  protocol: z.enum(['TCP', 'UDP', 'HTTP', 'HTTPS']).nullish(),
  source_port: count,
  target_port: count,
  health_check_port: count.nullish(),
});

export const loadBalancer = z.looseObject({
  id: text,
  name: text,
  service_name: maybe,
  network_id: text,
  algorithm: text,
  backends: z.array(loadBalancerBackend).nullish(),
  external_traffic_policy: maybe,
  session_affinity: maybe,
  session_affinity_config_timeout: count.nullish(),
  enable_proxy_protocol: maybe,
  public_ip: maybe,
  private_ip: maybe,
  firewall_id: text,
  cluster_id: maybe,
  state: text,
  reserved_ip_id: maybe,
  reserved_ip_name: maybe,
  reserved_ip: maybe,
  max_concurrent_requests: count.nullish(),
});

const taint = z.looseObject({
  key: text,
  value: text.optional(),
  effect: z.enum(['NoSchedule', 'PreferNoSchedule', 'NoExecute']),
});

export const kubernetesNode = z.looseObject({
  id: text,
  hostname: text,
  size: maybe,
  status: maybe,
  public_ip: maybe,
  private_ip: maybe,
});

export const kubernetesPool = z.looseObject({
  id: text,
  count,
  size: text,
  instance_names: strings.nullish(),
  instances: z.array(kubernetesNode).nullish(),
  labels: z.record(z.string(), z.string()).nullish(),
  taints: z.array(taint).nullish(),
  public_ip_node_pool: z.boolean().optional(),
});

export const kubernetesCluster = z.looseObject({
  id: text,
  name: text,
  version: maybe,
  kubernetes_version: maybe,
  cluster_type: maybe,
  status: text,
  ready: z.boolean(),
  num_target_nodes: count.optional(),
  target_nodes_size: maybe,
  kubeconfig: maybe,
  api_endpoint: maybe,
  master_ip: maybe,
  dns_entry: maybe,
  network_id: text,
  firewall_id: text,
  cni_plugin: maybe,
  tags: strings.nullish(),
  created_at: maybe,
  installed_applications: z
    .array(
      z.looseObject({
        application: maybe,
        name: maybe,
        version: maybe,
        installed: z.boolean().optional(),
        category: maybe,
      }),
    )
    .nullish(),
  pools: z.array(kubernetesPool).nullish(),
  required_pools: z.array(kubernetesPool.partial({ instance_names: true, instances: true })).nullish(),
  volume_type: maybe,
});

export const database = z.looseObject({
  id: text,
  name: text,
  nodes: count,
  size: text,
  software: text,
  software_version: text,
  public_ipv4: maybe,
  private_ipv4: maybe,
  network_id: text,
  firewall_id: text,
  port: count,
  username: text,
  password: text,
  dns_entry: maybe,
  status: text,
});

export const dnsDomain = z.looseObject({ id: text, account_id: text.optional(), name: text });

export const dnsRecord = z.looseObject({
  id: text,
  domain_id: text,
  account_id: text.optional(),
  name: text,
  value: text,
  type: text,
  priority: count,
  ttl: count,
  created_at: text.optional(),
  updated_at: text.optional(),
});

export const sshKey = z.looseObject({
  id: text,
  name: text,
  fingerprint: text,
  public_key: text,
  created_at: text.optional(),
});

export const objectStore = z.looseObject({
  id: text,
  name: text,
  max_size: count,
  owner_info: z.looseObject({ access_key_id: text, name: maybe, credential_id: maybe }),
  objectstore_endpoint: text,
  status: text,
});

export const objectStoreCredential = z.looseObject({
  id: text,
  name: text,
  access_key_id: text,
  secret_access_key_id: text,
  max_size_gb: count.nullish(),
  suspended: z.boolean(),
  status: text,
});

export type SimpleResponse = z.output<typeof simpleResponse>;
export type Created = z.output<typeof created>;
/** Any object the API lists: an id and more. */
export type Listed = { readonly id: string; readonly [key: string]: unknown };
/** A request body as the API takes it (snake_case keys). */
export type Body = Readonly<Record<string, unknown>>;
export type Instance = z.output<typeof instance>;
export type Network = z.output<typeof network>;
export type Subnet = z.output<typeof subnet>;
export type Firewall = z.output<typeof firewall>;
export type FirewallRule = z.output<typeof firewallRule>;
export type Volume = z.output<typeof volume>;
export type ReservedIp = z.output<typeof reservedIp>;
export type LoadBalancer = z.output<typeof loadBalancer>;
export type KubernetesCluster = z.output<typeof kubernetesCluster>;
export type KubernetesPool = z.output<typeof kubernetesPool>;
export type Taint = z.output<typeof taint>;
export type Database = z.output<typeof database>;
export type DnsDomain = z.output<typeof dnsDomain>;
export type DnsRecord = z.output<typeof dnsRecord>;
export type SshKey = z.output<typeof sshKey>;
export type ObjectStore = z.output<typeof objectStore>;
export type ObjectStoreCredential = z.output<typeof objectStoreCredential>;
