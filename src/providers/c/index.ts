// Provider C (`provc`): the Gcore CDN and Cloud API (seed 002). `provc(config)` returns the provider;
// typed helpers (`provc.cdnResource(...)`, `provc.getCdnResource(...)`) build declarations and
// lookup calls. Imports the engine's provider contract and src/kit only, never another provider.
import { defineProvider, type Provider } from '../../engine/provider/define.js';
import { helpersFor, lookupHelper, resourceHelper, withFieldDocs } from '../../engine/decl/helper.js';
import type { FieldDocs } from './field-docs.js';
import type { InstanceOption } from '../../engine/provider/instance.js';
import { GcoreClient } from './client.js';
import { resolveConfig, terraformConfig, type ProvcConfig, type ProvcOptions } from './config.js';
import * as L from './lookups/index.js';
import { cloudFloatingIp } from './resources/cloud-floating-ip.js';
import { cdnOriginGroup } from './resources/cdn-origin-group.js';
import { cdnResource } from './resources/cdn-resource.js';
import { cdnResourceRule } from './resources/cdn-resource-rule.js';
import { cdnRuleTemplate } from './resources/cdn-rule-template.js';
import { cdnCertificate } from './resources/cdn-certificate.js';
import { cdnTrustedCaCertificate } from './resources/cdn-trusted-ca-certificate.js';

export type { ProvcOptions, ProvcArgs, ProvcConfig, ProvcContext, ProvcSettings } from './config.js';
export { DEFAULT_BASE_URL } from './config.js';

/** The resource definitions, for tests and tools that call handlers directly. */
export const resources = [
  cloudFloatingIp,
  cdnOriginGroup,
  cdnResource,
  cdnResourceRule,
  cdnRuleTemplate,
  cdnCertificate,
  cdnTrustedCaCertificate,
] as const;

/** One instance: `provc({...})` is the default one, `provc({ name: 'ops', ... })` a named one; each carries the typed helpers, bound to it. */
function createProvider(options: ProvcOptions & InstanceOption = {}): Provider<ProvcConfig> & ProvcHelpers {
  const { name, ...rest } = options;
  const settings = resolveConfig(rest);
  const client = new GcoreClient(settings, options.dispatcher);
  return defineProvider<ProvcConfig, ProvcHelpers>({
    name: 'provc',
    instanceName: name,
    helpers: helpersFor(helpers, name),
    config: { settings, client },
    resources: [...resources],
    lookups: [...L.lookups],
    terraformConfig: () => terraformConfig(settings),
    // Where objects are made (a saved plan is applied only with the same): never the API key.
    planConfig: () => ({
      baseUrl: settings.baseUrl,
      cloudProjectId: settings.cloudProjectId,
      cloudRegionId: settings.cloudRegionId,
    }),
    // The plan-time check of the API key and the endpoint: one authenticated read of a single task.
    verify: async (ctx) => {
      await client.listTasks(ctx, { limit: 1 });
    },
  });
}

/** The lookup definitions. */
export const lookups = L.lookups;

// Each resource helper's fields carry their descriptions as TSDoc (field-docs.ts, generated with the reference pages).
const helpers = withFieldDocs<FieldDocs>()({
  cloudFloatingIp: resourceHelper(cloudFloatingIp),
  cdnOriginGroup: resourceHelper(cdnOriginGroup),
  cdnResource: resourceHelper(cdnResource),
  cdnResourceRule: resourceHelper(cdnResourceRule),
  cdnRuleTemplate: resourceHelper(cdnRuleTemplate),
  cdnCertificate: resourceHelper(cdnCertificate),
  cdnTrustedCaCertificate: resourceHelper(cdnTrustedCaCertificate),
  getCdnCertificate: lookupHelper(L.getCdnCertificate),
  getCdnOriginGroup: lookupHelper(L.getCdnOriginGroup),
  getCdnResource: lookupHelper(L.getCdnResource),
  getCdnResourceRule: lookupHelper(L.getCdnResourceRule),
  getCdnRuleTemplate: lookupHelper(L.getCdnRuleTemplate),
  getCdnTrustedCaCertificate: lookupHelper(L.getCdnTrustedCaCertificate),
  getCloudBaremetalServer: lookupHelper(L.getCloudBaremetalServer),
  getCloudBaremetalServers: lookupHelper(L.getCloudBaremetalServers),
  getCloudFloatingIp: lookupHelper(L.getCloudFloatingIp),
  getCloudFloatingIps: lookupHelper(L.getCloudFloatingIps),
  getCloudGpuBaremetalCluster: lookupHelper(L.getCloudGpuBaremetalCluster),
  getCloudGpuBaremetalClusterImage: lookupHelper(L.getCloudGpuBaremetalClusterImage),
  getCloudGpuBaremetalClusters: lookupHelper(L.getCloudGpuBaremetalClusters),
  getCloudGpuVirtualCluster: lookupHelper(L.getCloudGpuVirtualCluster),
  getCloudGpuVirtualClusterImage: lookupHelper(L.getCloudGpuVirtualClusterImage),
  getCloudGpuVirtualClusters: lookupHelper(L.getCloudGpuVirtualClusters),
  getCloudInferenceFlavor: lookupHelper(L.getCloudInferenceFlavor),
  getCloudInferenceFlavors: lookupHelper(L.getCloudInferenceFlavors),
});

type ProvcHelpers = typeof helpers;

/** The provider factory, with a typed helper per resource and lookup attached. */
export const provc = Object.assign(createProvider, helpers);
