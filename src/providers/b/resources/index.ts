// Provider B's resources, one file each, declared as data with defineResource. They reach the API
// only through ctx.config.client and never import the simulator.
export { database } from './database.js';
export { dnsDomainName } from './dns-domain-name.js';
export { dnsDomainRecord } from './dns-domain-record.js';
export { firewall } from './firewall.js';
export { instance } from './instance.js';
export { instanceReservedIpAssignment } from './instance-reserved-ip-assignment.js';
export { kubernetesCluster } from './kubernetes-cluster.js';
export { kubernetesNodePool } from './kubernetes-node-pool.js';
export { loadBalancer } from './load-balancer.js';
export { network } from './network.js';
export { objectStore } from './object-store.js';
export { objectStoreCredential } from './object-store-credential.js';
export { reservedIp } from './reserved-ip.js';
export { sshKey } from './ssh-key.js';
export { volume } from './volume.js';
export { volumeAttachment } from './volume-attachment.js';
