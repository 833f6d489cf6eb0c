// Provider A (`prova`): the LXD REST API over a unix socket or HTTPS with TLS client certificates.
// `prova(config)` builds a provider instance; typed helpers (`prova.instance`, `prova.getInstance`)
// build declarations. Imports the engine and src/kit only, never another provider.
import { defineProvider, type Provider } from '../../engine/provider/define.js';
import { helpersFor, resourceHelper, lookupHelper, withFieldDocs } from '../../engine/decl/helper.js';
import type { FieldDocs } from './field-docs.js';
import type { InstanceOption } from '../../engine/provider/instance.js';
import { resolveConfig, terraformConfig, type ProvaConfig, type ProvaOptions } from './config.js';
import { makeConnections } from './support/connections.js';
import * as l from './lookups/index.js';
import { authGroup } from './resources/auth-group.js';
import { instance } from './resources/instance.js';
import { instanceDevice } from './resources/instance-device.js';
import { instanceFile } from './resources/instance-file.js';
import { network } from './resources/network.js';
import { networkAcl } from './resources/network-acl.js';
import { networkForward } from './resources/network-forward.js';
import { profile } from './resources/profile.js';
import { project } from './resources/project.js';
import { storagePool } from './resources/storage-pool.js';
import { storageVolume } from './resources/storage-volume.js';

/** The resource definitions, for tests and tools that call handlers directly. */
export const resources = [
  authGroup,
  instance,
  instanceDevice,
  instanceFile,
  network,
  networkAcl,
  networkForward,
  profile,
  project,
  storagePool,
  storageVolume,
] as const;

/** Builds provider A. Reads LXD_* environment variables here, and nowhere else. */
function createProvider(options: ProvaOptions & InstanceOption = {}): Provider<ProvaConfig> & ProvaHelpers {
  const { name, ...config } = options;
  const settings = resolveConfig(config, process.env);
  const connections = makeConnections(settings);
  return defineProvider<ProvaConfig, ProvaHelpers>({
    name: 'prova',
    // `prova({ name: 'edge', ... })`: a second LXD server (its own remotes and credentials) in one stack.
    instanceName: name,
    helpers: helpersFor(helpers, name),
    config: connections,
    resources,
    lookups: l.lookups,
    terraformConfig: () => terraformConfig(settings),
    // Where objects are made (a saved plan is applied only with the same): the default remote and
    // the address of every LXD remote (image servers excluded), never a password or token.
    planConfig: () => ({
      defaultRemote: settings.defaultRemote,
      remote: Object.fromEntries(
        [...settings.remotes.values()].filter((r) => r.protocol === 'lxd').map((r) => [r.name, r.address]),
      ),
    }),
    // The plan-time check of the default remote: connected and trusted (GET /1.0 reads its facts).
    verify: async (ctx) => {
      await (await connections.client(ctx)).server(ctx);
    },
    close: () => connections.close(),
  });
}

/** The lookup definitions. */
export const lookups = l.lookups;

// Each resource helper's fields carry their descriptions as TSDoc (field-docs.ts, generated with the reference pages).
const helpers = withFieldDocs<FieldDocs>()({
  authGroup: resourceHelper(authGroup),
  instance: resourceHelper(instance),
  instanceDevice: resourceHelper(instanceDevice),
  instanceFile: resourceHelper(instanceFile),
  network: resourceHelper(network),
  networkAcl: resourceHelper(networkAcl),
  networkForward: resourceHelper(networkForward),
  profile: resourceHelper(profile),
  project: resourceHelper(project),
  storagePool: resourceHelper(storagePool),
  storageVolume: resourceHelper(storageVolume),
  getAuthGroup: lookupHelper(l.getAuthGroup),
  getAuthIdentity: lookupHelper(l.getAuthIdentity),
  getImage: lookupHelper(l.getImage),
  getInfo: lookupHelper(l.getInfo),
  getInstance: lookupHelper(l.getInstance),
  getNetwork: lookupHelper(l.getNetwork),
  getProfile: lookupHelper(l.getProfile),
  getProject: lookupHelper(l.getProject),
  getStoragePool: lookupHelper(l.getStoragePool),
});

type ProvaHelpers = typeof helpers;

/** The provider factory, with a typed helper per resource and lookup attached. */
export const prova = Object.assign(createProvider, helpers);

export type { ProvaOptions, ProvaArgs, ProvaConfig, ProvaContext, ProvaSettings } from './config.js';
export { certificateFingerprint, decodeTrustToken, generateClientCertificate } from './support/trust.js';
