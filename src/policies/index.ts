// converge/policies: example policies for the three shipped providers, written with the public
// Policy type only (no provider is imported: each names its resource types by token). Use each
// at the level you choose: `policies: [{ policy: civoNoSshFromWorld, level: 'mandatory' }]`.
export { civoNoSshFromWorld } from './civo-ssh.js';
export { civoDatabaseFirewall } from './civo-database.js';
export { gcoreCdnHttpsRedirect } from './gcore-cdn.js';
export { lxdMemoryLimit } from './lxd-memory.js';
