// Each endpoint of the Civo client and the schema of its answer: the types the client's endpoints
// promise are these schemas' outputs (checked below at compile time), and the test harness parses
// every answer the simulator gives with them (tests/providers/b/harness.ts), so the simulator's
// shapes and what the code relies on cannot drift apart.
import { z } from 'zod';
import * as W from './objects.js';
import type { CivoClient } from '../client.js';

export const answers = {
  regions: z.array(W.region),
  sizes: z.array(W.size),
  diskImages: z.array(W.diskImage),
  kubernetesVersions: z.array(W.kubernetesVersion),
  databaseVersions: W.databaseVersions,
  listInstances: z.array(W.instance),
  getInstance: W.instance,
  createInstance: W.instance,
  updateInstance: W.simpleResponse,
  retagInstance: W.simpleResponse,
  setInstanceFirewall: W.simpleResponse,
  resizeInstance: W.simpleResponse,
  deleteInstance: W.simpleResponse,
  listNetworks: z.array(W.network),
  getNetwork: W.network,
  createNetwork: W.created,
  updateNetwork: W.simpleResponse,
  deleteNetwork: W.simpleResponse,
  listSubnets: z.array(W.subnet),
  listFirewalls: z.array(W.firewall),
  createFirewall: W.created,
  renameFirewall: W.simpleResponse,
  deleteFirewall: W.simpleResponse,
  listFirewallRules: z.array(W.firewallRule),
  createFirewallRule: W.firewallRule,
  deleteFirewallRule: W.simpleResponse,
  listVolumes: z.array(W.volume),
  getVolume: W.volume,
  createVolume: W.created,
  resizeVolume: W.simpleResponse,
  attachVolume: W.simpleResponse,
  detachVolume: W.simpleResponse,
  deleteVolume: W.simpleResponse,
  listIps: z.array(W.reservedIp),
  getIp: W.reservedIp,
  createIp: W.reservedIp,
  renameIp: W.reservedIp,
  ipAction: W.simpleResponse,
  deleteIp: W.simpleResponse,
  listLoadBalancers: z.array(W.loadBalancer),
  getLoadBalancer: W.loadBalancer,
  createLoadBalancer: W.loadBalancer,
  updateLoadBalancer: W.loadBalancer,
  deleteLoadBalancer: W.simpleResponse,
  listClusters: z.array(W.kubernetesCluster),
  getCluster: W.kubernetesCluster,
  createCluster: W.kubernetesCluster,
  updateCluster: W.kubernetesCluster,
  deleteCluster: W.simpleResponse,
  getPool: W.kubernetesPool,
  createPool: W.simpleResponse,
  updatePool: W.kubernetesPool,
  deletePool: W.simpleResponse,
  listDatabases: z.array(W.database),
  getDatabase: W.database,
  createDatabase: W.database,
  updateDatabase: W.database,
  deleteDatabase: W.simpleResponse,
  listDomains: z.array(W.dnsDomain),
  createDomain: W.dnsDomain,
  renameDomain: W.dnsDomain,
  deleteDomain: W.simpleResponse,
  listRecords: z.array(W.dnsRecord),
  createRecord: W.dnsRecord,
  updateRecord: W.dnsRecord,
  deleteRecord: W.simpleResponse,
  listSshKeys: z.array(W.sshKey),
  createSshKey: W.created,
  renameSshKey: W.sshKey,
  deleteSshKey: W.simpleResponse,
  listObjectStores: z.array(W.objectStore),
  getObjectStore: W.objectStore,
  createObjectStore: W.objectStore,
  resizeObjectStore: W.objectStore,
  deleteObjectStore: W.simpleResponse,
  listCredentials: z.array(W.objectStoreCredential),
  getCredential: W.objectStoreCredential,
  createCredential: W.objectStoreCredential,
  updateCredential: W.objectStoreCredential,
  deleteCredential: W.simpleResponse,
} as const;

/** The client's endpoints (its function-valued members). */
type Endpoint = {
  [K in keyof CivoClient]: CivoClient[K] extends (...args: never[]) => Promise<unknown> ? K : never;
}[keyof CivoClient];

// Every endpoint has its schema, and each schema's output is exactly what its endpoint promises.
type Exactly<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Checked = {
  [K in Endpoint]: Exactly<z.output<(typeof answers)[K]>, Awaited<ReturnType<CivoClient[K]>>>;
};
const checked: Checked = Object.fromEntries(Object.keys(answers).map((k) => [k, true])) as {
  [K in Endpoint]: true;
};
void checked;
