// Provider B's lookups: single-object finds (by id or name within a region) and list lookups with
// filters and sorts. Imports only the provider's client, region rules and the engine's types.
export {
  getInstance,
  getFirewall,
  getVpcFirewall,
  getNetwork,
  getVpcNetwork,
  getVpcSubnet,
  getReservedIp,
  getVpcReservedIp,
  getVolume,
  getSshKey,
  getLoadbalancer,
  getVpcLoadbalancer,
} from './compute.js';
export {
  getDatabase,
  getKubernetesCluster,
  getDnsDomainName,
  getDnsDomainRecord,
  getObjectStore,
  getObjectStoreCredential,
} from './services.js';
export { getInstances, getSize, getDiskImage, getKubernetesVersion, getRegion, getDatabaseVersion } from './lists.js';
