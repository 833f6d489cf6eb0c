// Provider C's lookups: every lookup of seed 002, CDN objects by id and cloud objects by project
// and region. Lookups import the client and shapes of this provider only.
import { cdnLookups } from './cdn.js';
import { getCloudBaremetalServer, getCloudBaremetalServers } from './baremetal.js';
import { getCloudFloatingIp, getCloudFloatingIps } from './floating-ip.js';
import {
  getCloudGpuBaremetalCluster,
  getCloudGpuBaremetalClusterImage,
  getCloudGpuBaremetalClusters,
  getCloudGpuVirtualCluster,
  getCloudGpuVirtualClusterImage,
  getCloudGpuVirtualClusters,
} from './gpu.js';
import { getCloudInferenceFlavor, getCloudInferenceFlavors } from './inference.js';

export * from './cdn.js';
export { getCloudBaremetalServer, getCloudBaremetalServers, getCloudFloatingIp, getCloudFloatingIps };
export { getCloudGpuBaremetalCluster, getCloudGpuBaremetalClusterImage, getCloudGpuBaremetalClusters };
export { getCloudGpuVirtualCluster, getCloudGpuVirtualClusterImage, getCloudGpuVirtualClusters };
export { getCloudInferenceFlavor, getCloudInferenceFlavors };

export const lookups = [
  ...cdnLookups,
  getCloudBaremetalServer,
  getCloudBaremetalServers,
  getCloudFloatingIp,
  getCloudFloatingIps,
  getCloudGpuBaremetalCluster,
  getCloudGpuBaremetalClusterImage,
  getCloudGpuBaremetalClusters,
  getCloudGpuVirtualCluster,
  getCloudGpuVirtualClusterImage,
  getCloudGpuVirtualClusters,
  getCloudInferenceFlavor,
  getCloudInferenceFlavors,
] as const;
