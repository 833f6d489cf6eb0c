// Provider B (`provb`): the Civo cloud API v2. `provb(options)` returns the provider (configuration
// from options, then PROVB_TOKEN / PROVB_CREDENTIAL_FILE, then defaults); `provb.instance(...)`,
// `provb.getInstance(...)` and the rest build typed declarations and lookup calls. Imports the
// engine's provider contract and src/kit only; never another provider or the simulator.
import { defineProvider, type Provider } from '../../engine/provider/define.js';
import { helpersFor, lookupHelper, resourceHelper, withFieldDocs } from '../../engine/decl/helper.js';
import type { FieldDocs } from './field-docs.js';
import type { InstanceOption } from '../../engine/provider/instance.js';
import { resolveConfig, terraformConfig, type ProvbConfig, type ProvbOptions } from './config.js';
import * as r from './resources/index.js';
import * as l from './lookups/index.js';
import { verifyAccess } from './support/region.js';

export type { ProvbOptions, ProvbConfig } from './config.js';
export { defaultApiEndpoint } from './config.js';

/** The resource definitions, for tests and tools that call handlers directly. */
export const resources = [
  r.database,
  r.dnsDomainName,
  r.dnsDomainRecord,
  r.firewall,
  r.instance,
  r.instanceReservedIpAssignment,
  r.kubernetesCluster,
  r.kubernetesNodePool,
  r.loadBalancer,
  r.network,
  r.objectStore,
  r.objectStoreCredential,
  r.reservedIp,
  r.sshKey,
  r.volume,
  r.volumeAttachment,
] as const;

/** The lookup definitions. */
export const lookups = [
  l.getDatabase,
  l.getDatabaseVersion,
  l.getDiskImage,
  l.getDnsDomainName,
  l.getDnsDomainRecord,
  l.getFirewall,
  l.getInstance,
  l.getInstances,
  l.getKubernetesCluster,
  l.getKubernetesVersion,
  l.getLoadbalancer,
  l.getNetwork,
  l.getObjectStore,
  l.getObjectStoreCredential,
  l.getRegion,
  l.getReservedIp,
  l.getSize,
  l.getSshKey,
  l.getVolume,
  l.getVpcFirewall,
  l.getVpcLoadbalancer,
  l.getVpcNetwork,
  l.getVpcReservedIp,
  l.getVpcSubnet,
] as const;

/** One instance: `provb({...})` is the default one, `provb({ name: 'ops', ... })` a named one; each carries the typed helpers, bound to it. */
function createProvider(options: ProvbOptions & InstanceOption = {}): Provider<ProvbConfig> & ProvbHelpers {
  const { name, ...rest } = options;
  const config = resolveConfig(rest, process.env);
  return defineProvider<ProvbConfig, ProvbHelpers>({
    name: 'provb',
    instanceName: name,
    helpers: helpersFor(helpers, name),
    config,
    resources,
    lookups,
    terraformConfig: () => terraformConfig(config),
    // Where objects are made (a saved plan is applied only with the same): never the token.
    planConfig: () => ({ apiEndpoint: config.apiEndpoint, region: config.region }),
    verify: verifyAccess,
  });
}

// Each resource helper's fields carry their descriptions as TSDoc (field-docs.ts, generated with the reference pages).
const helpers = withFieldDocs<FieldDocs>()({
  database: resourceHelper(r.database),
  dnsDomainName: resourceHelper(r.dnsDomainName),
  dnsDomainRecord: resourceHelper(r.dnsDomainRecord),
  firewall: resourceHelper(r.firewall),
  instance: resourceHelper(r.instance),
  instanceReservedIpAssignment: resourceHelper(r.instanceReservedIpAssignment),
  kubernetesCluster: resourceHelper(r.kubernetesCluster),
  kubernetesNodePool: resourceHelper(r.kubernetesNodePool),
  loadBalancer: resourceHelper(r.loadBalancer),
  network: resourceHelper(r.network),
  objectStore: resourceHelper(r.objectStore),
  objectStoreCredential: resourceHelper(r.objectStoreCredential),
  reservedIp: resourceHelper(r.reservedIp),
  sshKey: resourceHelper(r.sshKey),
  volume: resourceHelper(r.volume),
  volumeAttachment: resourceHelper(r.volumeAttachment),
  getDatabase: lookupHelper(l.getDatabase),
  getDatabaseVersion: lookupHelper(l.getDatabaseVersion),
  getDiskImage: lookupHelper(l.getDiskImage),
  getDnsDomainName: lookupHelper(l.getDnsDomainName),
  getDnsDomainRecord: lookupHelper(l.getDnsDomainRecord),
  getFirewall: lookupHelper(l.getFirewall),
  getInstance: lookupHelper(l.getInstance),
  getInstances: lookupHelper(l.getInstances),
  getKubernetesCluster: lookupHelper(l.getKubernetesCluster),
  getKubernetesVersion: lookupHelper(l.getKubernetesVersion),
  getLoadbalancer: lookupHelper(l.getLoadbalancer),
  getNetwork: lookupHelper(l.getNetwork),
  getObjectStore: lookupHelper(l.getObjectStore),
  getObjectStoreCredential: lookupHelper(l.getObjectStoreCredential),
  getRegion: lookupHelper(l.getRegion),
  getReservedIp: lookupHelper(l.getReservedIp),
  getSize: lookupHelper(l.getSize),
  getSshKey: lookupHelper(l.getSshKey),
  getVolume: lookupHelper(l.getVolume),
  getVpcFirewall: lookupHelper(l.getVpcFirewall),
  getVpcLoadbalancer: lookupHelper(l.getVpcLoadbalancer),
  getVpcNetwork: lookupHelper(l.getVpcNetwork),
  getVpcReservedIp: lookupHelper(l.getVpcReservedIp),
  getVpcSubnet: lookupHelper(l.getVpcSubnet),
});

type ProvbHelpers = typeof helpers;

/** The provider factory, with a typed helper per resource and lookup attached. */
export const provb = Object.assign(createProvider, helpers);
