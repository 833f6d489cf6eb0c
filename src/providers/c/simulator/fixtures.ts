// Read-only Cloud objects the simulator serves (bare metal servers, GPU clusters and images,
// inference flavors): builders that fill every field the vendor's schema requires, and a default
// set. A fixture names its project and region with project_id / region_id like the wire objects.
import { randomUUID } from 'node:crypto';

export type Wire = Record<string, unknown>;

export type Fixtures = {
  readonly baremetalServers?: readonly Wire[];
  readonly gpuBaremetalClusters?: readonly Wire[];
  readonly gpuVirtualClusters?: readonly Wire[];
  readonly gpuBaremetalImages?: readonly Wire[];
  readonly gpuVirtualImages?: readonly Wire[];
  readonly inferenceFlavors?: readonly Wire[];
};

export const SIM_PROJECT_ID = 1;
export const SIM_REGION_ID = 76;
const STAMP = '2026-01-15T10:00:00Z';

const scope = (p: Wire) => ({
  project_id: (p.project_id as number | undefined) ?? SIM_PROJECT_ID,
  region_id: (p.region_id as number | undefined) ?? SIM_REGION_ID,
});

export function baremetalServer(p: Wire = {}): Wire {
  const id = (p.id as string | undefined) ?? randomUUID();
  return {
    id,
    name: `bm-${id.slice(0, 8)}`,
    status: 'ACTIVE',
    vm_state: 'active',
    task_state: null,
    task_id: null,
    creator_task_id: randomUUID(),
    created_at: STAMP,
    region: 'Luxembourg-2',
    ...scope(p),
    ssh_key_name: null,
    tags: [],
    blackhole_ports: [],
    instance_isolation: null,
    ddos_profile: null,
    fixed_ip_assignments: [
      { subnet_id: 'a9a8c1a5-6c4e-4b32-9b37-5b4b0c1f0e01', ip_address: '10.0.0.5', external: false },
    ],
    flavor: {
      flavor_id: 'bm2-hf-small',
      flavor_name: 'bm2-hf-small',
      vcpus: 8,
      ram: 65536,
      os_type: 'linux',
      architecture: 'x86_64',
      resource_class: 'bm2-hf',
      hardware_description: {
        cpu: '1xIntel Xeon E-2388G',
        ram: '64 GB',
        disk: '2x960 GB NVMe',
        network: '2x10 Gbit/s',
        license: '',
      },
    },
    addresses: {
      'private-net': [
        {
          type: 'fixed',
          addr: '10.0.0.5',
          subnet_id: 'a9a8c1a5-6c4e-4b32-9b37-5b4b0c1f0e01',
          subnet_name: 'private-subnet',
          interface_name: 'eth0',
        },
      ],
    },
    ...p,
  };
}

export function gpuCluster(kind: 'baremetal' | 'virtual', p: Wire = {}): Wire {
  const id = (p.id as string | undefined) ?? randomUUID();
  const settings: Wire = {
    ssh_key_name: 'ops',
    user_data: null,
    file_shares: [],
    security_groups: [],
    interfaces: [{ type: 'external', ip_family: 'ipv4', name: null, security_groups: [] }],
    ...(kind === 'virtual'
      ? {
          volumes: [
            {
              name: 'root-volume',
              size: 120,
              type: 'ssd_hiiops',
              boot_index: 0,
              delete_on_termination: true,
              image_id: null,
              tags: [],
            },
          ],
        }
      : {}),
  };
  return {
    id,
    name: `gpu-${kind}-${id.slice(0, 8)}`,
    status: 'active',
    flavor: kind === 'baremetal' ? 'bm3-ai-1xlarge-h100-80-8' : 'g3-ai-32-192-1500-l40s-48-1',
    ...(kind === 'baremetal' ? { image_id: '3793c250-0b3b-4678-bab3-e11afbc29657', managed_by: 'user' } : {}),
    servers_count: 1,
    servers_ids: [randomUUID()],
    has_pending_changes: false,
    tags: [],
    created_at: STAMP,
    updated_at: null,
    servers_settings: settings,
    ...scope(p),
    ...p,
  };
}

export function gpuImage(p: Wire = {}): Wire {
  const id = (p.id as string | undefined) ?? randomUUID();
  return {
    id,
    name: `ubuntu-22.04-x64-nvidia-${id.slice(0, 4)}`,
    status: 'active',
    visibility: 'public',
    min_disk: 40,
    min_ram: 0,
    size: 5_368_709_120,
    disk_format: 'qcow2',
    cuda_toolkit_version: '12.4',
    hw_firmware_type: 'uefi',
    architecture: 'x86_64',
    os_type: 'linux',
    os_distro: 'ubuntu',
    os_version: '22.04',
    gpu_driver: 'nvidia',
    gpu_driver_type: 'proprietary',
    gpu_driver_version: '550.54',
    ssh_key: 'allow',
    task_id: null,
    tags: [],
    created_at: STAMP,
    updated_at: STAMP,
    ...scope(p),
    ...p,
  };
}

export function inferenceFlavor(p: Wire = {}): Wire {
  return {
    name: 'inference-4vcpu-16gib',
    description: 'CPU flavor',
    cpu: 4,
    memory: 16,
    gpu: 0,
    gpu_model: '',
    gpu_memory: 0,
    gpu_compute_capability: '',
    is_gpu_shared: false,
    ...p,
  };
}

/** What a simulator without `fixtures` serves: a little of everything in project 1, region 76. */
export function defaultFixtures(): Fixtures {
  return {
    baremetalServers: [
      baremetalServer({
        id: '8dc30d49-bb34-4920-9bbd-03a2587ec0ad',
        name: 'bm-web-1',
        tags: [{ key: 'env', value: 'prod', read_only: false }],
      }),
      baremetalServer({
        id: 'a3c0ef0e-4d1b-4b0e-8d1f-0d7c3bb0b1a2',
        name: 'bm-db-1',
        status: 'SHUTOFF',
        vm_state: 'stopped',
        created_at: '2026-01-10T10:00:00Z',
      }),
    ],
    gpuBaremetalClusters: [
      gpuCluster('baremetal', { id: '1aaaf0f2-3f1a-4c47-9a1e-6b8f5e0c9b01', name: 'train-a' }),
      gpuCluster('baremetal', { id: '1aaaf0f2-3f1a-4c47-9a1e-6b8f5e0c9b02', name: 'k8s-pool', managed_by: 'k8s' }),
    ],
    gpuVirtualClusters: [gpuCluster('virtual', { id: '2bbbf0f2-3f1a-4c47-9a1e-6b8f5e0c9b01', name: 'infer-a' })],
    gpuBaremetalImages: [gpuImage({ id: '3793c250-0b3b-4678-bab3-e11afbc29657', name: 'ubuntu-22.04-x64-nvidia-bm' })],
    gpuVirtualImages: [gpuImage({ id: '4793c250-0b3b-4678-bab3-e11afbc29657', name: 'ubuntu-22.04-x64-nvidia-vm' })],
    inferenceFlavors: [
      inferenceFlavor(),
      inferenceFlavor({
        name: 'inference-16vcpu-232gib-1xh100-80gb',
        description: 'GPU flavor',
        cpu: 16,
        memory: 232,
        gpu: 1,
        gpu_model: 'H100',
        gpu_memory: 80,
        gpu_compute_capability: '9.0',
      }),
    ],
  };
}
