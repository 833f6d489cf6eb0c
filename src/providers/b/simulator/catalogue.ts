// The simulator's read-only catalogue: regions, sizes, disk images, Kubernetes versions and
// marketplace, database versions. Shapes follow the Civo API v2 (wire notes §2.1, §2.8, §2.9).
import type { Wire } from './object.js';

const features = (extra: Partial<Record<string, boolean>> = {}) => ({
  iaas: true,
  kubernetes: true,
  object_store: true,
  loadbalancer: true,
  gpu: false,
  dbaas: true,
  volume: true,
  paas: false,
  public_ip_node_pools: true,
  ...extra,
});

export const regions: readonly Wire[] = [
  {
    code: 'LON1',
    name: 'London 1',
    type: 'civostack',
    out_of_capacity: false,
    country: 'GB',
    country_name: 'United Kingdom',
    default: true,
    features: features(),
  },
  {
    code: 'FRA1',
    name: 'Frankfurt 1',
    type: 'civostack',
    out_of_capacity: false,
    country: 'DE',
    country_name: 'Germany',
    default: false,
    features: features(),
  },
  {
    code: 'NYC1',
    name: 'New York 1',
    type: 'civostack',
    out_of_capacity: false,
    country: 'US',
    country_name: 'United States',
    default: false,
    features: features({ gpu: true }),
  },
  {
    code: 'PHX1',
    name: 'Phoenix 1',
    type: 'civostack',
    out_of_capacity: false,
    country: 'US',
    country_name: 'United States',
    default: false,
    features: features({ dbaas: false }),
  },
];

const size = (
  type: string,
  name: string,
  cpu: number,
  ram: number,
  disk: number,
  selectable = true,
  gpu = 0,
): Wire => ({
  type,
  name,
  nice_name: name.toUpperCase(),
  cpu_cores: cpu,
  gpu_count: gpu,
  gpu_type: gpu ? 'A100' : '',
  ram_mb: ram,
  disk_gb: disk,
  transfer_tb: 1,
  description: `${type} ${name}`,
  selectable,
});

export const sizes: readonly Wire[] = [
  size('Instance', 'g3.xsmall', 1, 1024, 25),
  size('Instance', 'g3.small', 1, 2048, 25),
  size('Instance', 'g3.medium', 2, 4096, 50),
  size('Instance', 'g3.large', 4, 8192, 100),
  size('Instance', 'g3.legacy', 1, 512, 10, false),
  size('Kubernetes', 'g4s.kube.xsmall', 1, 1024, 30),
  size('Kubernetes', 'g4s.kube.small', 1, 2048, 40),
  size('Kubernetes', 'g4s.kube.medium', 2, 4096, 50),
  size('Kubernetes', 'g4s.kube.large', 4, 8192, 60),
  size('Database', 'g3.db.small', 2, 4096, 40),
  size('Database', 'g3.db.medium', 4, 8192, 80),
  size('KfCluster', 'g3.kf.small', 8, 16384, 200, true, 1),
];

const image = (id: string, name: string, version: string, distribution: string, user: string, dflt = false): Wire => ({
  id,
  name,
  version,
  state: 'available',
  initial_user: user,
  distribution,
  os: 'linux',
  description: `${distribution} ${version}`,
  label: name,
  disk_image_url: '',
  disk_image_size_bytes: 2147483648,
  logo_url: '',
  created_at: '2024-01-01T00:00:00Z',
  created_by: 'civo',
  distribution_default: dflt,
});

export const diskImages: readonly Wire[] = [
  image('9b3bda31-8c63-4c3f-9d8e-3c6b2a1d0001', 'ubuntu-focal', '20.04', 'ubuntu', 'civo'),
  image('9b3bda31-8c63-4c3f-9d8e-3c6b2a1d0002', 'ubuntu-jammy', '22.04', 'ubuntu', 'civo', true),
  image('9b3bda31-8c63-4c3f-9d8e-3c6b2a1d0003', 'debian-11', '11', 'debian', 'debian', true),
  image('9b3bda31-8c63-4c3f-9d8e-3c6b2a1d0004', 'rocky-9', '9', 'rocky', 'rocky', true),
  image('9b3bda31-8c63-4c3f-9d8e-3c6b2a1d0005', 'k3s-ubuntu-jammy', '1.28', 'ubuntu', 'civo'),
  image('9b3bda31-8c63-4c3f-9d8e-3c6b2a1d0006', 'talos-v1.7.0', '1.7.0', 'talos', 'root'),
];

export const kubernetesVersions: readonly Wire[] = [
  { label: 'v1.26.4-k3s1', version: '1.26.4-k3s1', type: 'legacy', default: false, clusterType: 'k3s' },
  { label: 'v1.28.7-k3s1', version: '1.28.7-k3s1', type: 'stable', default: true, clusterType: 'k3s' },
  { label: 'v1.29.2-k3s1', version: '1.29.2-k3s1', type: 'stable', default: false, clusterType: 'k3s' },
  { label: 'v1.30.0-k3s1', version: '1.30.0-k3s1', type: 'development', default: false, clusterType: 'k3s' },
  { label: 'talos-v1.7.0', version: 'talos-v1.7.0', type: 'stable', default: false, clusterType: 'talos' },
];

export const marketplace: readonly Wire[] = [
  {
    name: 'Traefik-v2-nodeport',
    title: 'Traefik',
    version: '2.10',
    default: true,
    dependencies: [],
    maintainer: 'civo',
    description: 'Ingress',
    post_install: '',
    url: '',
    category: 'architecture',
    plans: [],
  },
  {
    name: 'metrics-server',
    title: 'Metrics server',
    version: '0.6',
    default: true,
    dependencies: [],
    maintainer: 'civo',
    description: 'Metrics',
    post_install: '',
    url: '',
    category: 'monitoring',
    plans: [],
  },
  {
    name: 'Longhorn',
    title: 'Longhorn',
    version: '1.5',
    default: false,
    dependencies: [],
    maintainer: 'civo',
    description: 'Storage',
    post_install: '',
    url: '',
    category: 'storage',
    plans: [],
  },
  {
    name: 'MariaDB',
    title: 'MariaDB',
    version: '10.11',
    default: false,
    dependencies: ['Longhorn'],
    maintainer: 'civo',
    description: 'Database',
    post_install: '',
    url: '',
    category: 'database',
    plans: [
      { label: '5GB', configuration: { VOLUME_SIZE: { value: '5Gi' } } },
      { label: '10GB', configuration: { VOLUME_SIZE: { value: '10Gi' } } },
    ],
  },
];

export const databaseVersions: Readonly<Record<string, readonly Wire[]>> = {
  mysql: [{ software_version: '8.0', default: true }],
  postgresql: [
    { software_version: '14', default: true },
    { software_version: '15', default: false },
  ],
};
