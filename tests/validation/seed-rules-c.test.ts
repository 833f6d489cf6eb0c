// Every rule seed 002 (provc, Gcore) and its wire notes state, as a plan-time check: input → issue code and path.
import { describe } from 'vitest';
import { provc } from 'converge/providers/c';
import { describeRules, type Row, type Valid } from './table.js';

const base = { apiKey: 'valid-test-key', baseUrl: 'http://127.0.0.1:9', env: {} };
const scoped = () => provc({ ...base, cloudProjectId: 1, cloudRegionId: 1 });
const unscoped = () => provc(base);
const lk = (name: string, args: Record<string, unknown>) => ({ token: `provc:index/${name}:${name}`, args });
const site = (inputs: Record<string, unknown>) =>
  provc.cdnResource('site', { cname: 'cdn.example.com', originGroup: 1, ...inputs } as never);

const rows: Row[] = [
  {
    rule: 'CdnResource needs exactly one of originGroup and origin',
    decl: provc.cdnResource('site', { cname: 'cdn.example.com' }),
    code: 'invalid_value',
    path: ['originGroup'],
  },
  {
    rule: 'CdnResource originProtocol is HTTP, HTTPS or MATCH',
    decl: site({ originProtocol: 'FTP' }),
    code: 'invalid_value',
    path: ['originProtocol'],
  },
  {
    rule: 'CdnResource secondaryHostnames is list<string>',
    decl: site({ secondaryHostnames: 'a.example.com' }),
    code: 'invalid_type',
    path: ['secondaryHostnames'],
  },
  {
    rule: 'CdnResource unknown key is named at its path',
    decl: site({ cnmae: 'x' }),
    code: 'unrecognized_keys',
    path: ['cnmae'],
  },
  {
    rule: 'CdnOriginGroup sources has at least one source',
    decl: provc.cdnOriginGroup('og', { name: 'og', sources: [] }),
    code: 'too_small',
    path: ['sources'],
  },
  {
    rule: 'CdnOriginGroup sources entries have known keys',
    decl: provc.cdnOriginGroup('og', { name: 'og', sources: [{ source: 'o.example.com', backp: true }] } as never),
    code: 'unrecognized_keys',
    path: ['sources', 0, 'backp'],
  },
  {
    rule: 'CdnResourceRule ruleType is 0 or 1',
    decl: provc.cdnResourceRule('r', { resourceId: 1, name: 'r', rule: '/x', ruleType: 3 } as never),
    code: 'invalid_union',
    path: ['ruleType'],
  },
  {
    rule: 'CdnResourceRule resourceId is a number',
    decl: provc.cdnResourceRule('r', { resourceId: '1', name: 'r', rule: '/x' } as never),
    code: 'invalid_type',
    path: ['resourceId'],
  },
  {
    rule: 'CdnRuleTemplate rule is required',
    decl: provc.cdnRuleTemplate('t', {} as never),
    code: 'invalid_type',
    path: ['rule'],
  },
  {
    rule: 'CdnTrustedCaCertificate sslCertificate is required',
    decl: provc.cdnTrustedCaCertificate('ca', { name: 'ca' } as never),
    code: 'invalid_type',
    path: ['sslCertificate'],
  },
  {
    rule: 'CdnCertificate name is required',
    decl: provc.cdnCertificate('c', { automated: true } as never),
    code: 'invalid_type',
    path: ['name'],
  },
  {
    rule: 'CloudFloatingIp fixedIpAddress is IPv4',
    decl: provc.cloudFloatingIp('ip', {
      fixedIpAddress: 'not-an-ip',
      portId: '00000000-0000-4000-8000-000000000000',
    } as never),
    code: 'invalid_format',
    path: ['fixedIpAddress'],
  },
  {
    rule: 'CloudFloatingIp tags are key-value pairs',
    decl: provc.cloudFloatingIp('ip', { tags: ['a'] } as never),
    code: 'invalid_type',
    path: ['tags'],
  },
  {
    rule: 'getCdnCertificate sslId is a required number',
    lookup: lk('getCdnCertificate', { sslId: '7' }),
    code: 'invalid_type',
    path: ['sslId'],
  },
  {
    rule: 'getCdnOriginGroup originGroupId is required',
    lookup: lk('getCdnOriginGroup', {}),
    code: 'invalid_type',
    path: ['originGroupId'],
  },
  {
    rule: 'getCdnResource resourceId is required',
    lookup: lk('getCdnResource', {}),
    code: 'invalid_type',
    path: ['resourceId'],
  },
  {
    rule: 'getCdnResourceRule ruleId is required',
    lookup: lk('getCdnResourceRule', { resourceId: 1 }),
    code: 'invalid_type',
    path: ['ruleId'],
  },
  {
    rule: 'getCdnRuleTemplate ruleTemplateId is required',
    lookup: lk('getCdnRuleTemplate', {}),
    code: 'invalid_type',
    path: ['ruleTemplateId'],
  },
  {
    rule: 'getCdnTrustedCaCertificate id is required',
    lookup: lk('getCdnTrustedCaCertificate', {}),
    code: 'invalid_type',
    path: ['id'],
  },
  {
    rule: 'getCloudGpuBaremetalClusterImage imageId is required',
    lookup: lk('getCloudGpuBaremetalClusterImage', {}),
    code: 'invalid_type',
    path: ['imageId'],
  },
  {
    rule: 'getCloudGpuVirtualCluster clusterId is required',
    lookup: lk('getCloudGpuVirtualCluster', {}),
    code: 'invalid_type',
    path: ['clusterId'],
  },
  {
    rule: 'getCloudGpuVirtualClusterImage imageId is required',
    lookup: lk('getCloudGpuVirtualClusterImage', {}),
    code: 'invalid_type',
    path: ['imageId'],
  },
  {
    rule: 'getCloudGpuVirtualCluster clusterId is a UUID (wire notes)',
    lookup: lk('getCloudGpuVirtualCluster', { clusterId: 'gpu-1' }),
    code: 'invalid_format',
    path: ['clusterId'],
  },
  {
    rule: 'getCloudGpuBaremetalClusterImage imageId is a UUID (wire notes)',
    lookup: lk('getCloudGpuBaremetalClusterImage', { imageId: 'ubuntu' }),
    code: 'invalid_format',
    path: ['imageId'],
  },
  {
    rule: 'getCloudGpuBaremetalCluster clusterId is a UUID (wire notes)',
    lookup: lk('getCloudGpuBaremetalCluster', { clusterId: 'x' }),
    code: 'invalid_format',
    path: ['clusterId'],
  },
  {
    rule: 'getCloudFloatingIp needs exactly one of floatingIpId and findOneBy',
    lookup: lk('getCloudFloatingIp', { floatingIpId: 'a', findOneBy: {} }),
    code: 'invalid_value',
    path: ['findOneBy'],
  },
  {
    rule: 'CdnOriginGroup proxyNextUpstreams values are the listed ones',
    decl: provc.cdnOriginGroup('og', {
      name: 'og',
      sources: [{ source: 'o.example.com' }],
      proxyNextUpstreams: ['http_418'],
    } as never),
    code: 'invalid_value',
    path: ['proxyNextUpstreams', 0],
  },
  {
    rule: 'CdnCertificate needs a certificate and key unless automated',
    decl: provc.cdnCertificate('c', { name: 'c' }),
    code: ['invalid_value', 'custom'],
    path: ['sslCertificate'],
  },
  {
    rule: 'getCloudInferenceFlavor flavorName is required',
    lookup: lk('getCloudInferenceFlavor', {}),
    code: 'invalid_type',
    path: ['flavorName'],
  },
  {
    rule: 'getCloudBaremetalServers takes no unknown argument',
    lookup: lk('getCloudBaremetalServers', { bogusArg: 1 }),
    code: 'unrecognized_keys',
    path: ['bogusArg'],
  },
  {
    rule: 'getCloudBaremetalServers orderBy is one of the six orders',
    lookup: lk('getCloudBaremetalServers', { orderBy: 'created' }),
    code: 'invalid_value',
    path: ['orderBy'],
  },
  {
    rule: 'getCloudBaremetalServers status filter is one of nine',
    lookup: lk('getCloudBaremetalServers', { status: 'DELETED' }),
    code: 'invalid_value',
    path: ['status'],
  },
  {
    rule: 'getCloudBaremetalServers protectionStatus is Active, Queued or Error',
    lookup: lk('getCloudBaremetalServers', { protectionStatus: 'On' }),
    code: 'invalid_value',
    path: ['protectionStatus'],
  },
  {
    rule: 'getCloudBaremetalServers changesSince is a timestamp',
    lookup: lk('getCloudBaremetalServers', { changesSince: 'yesterday' }),
    code: 'invalid_format',
    path: ['changesSince'],
  },
  {
    rule: 'getCloudBaremetalServers tagValues is list<string>',
    lookup: lk('getCloudBaremetalServers', { tagValues: 'a' }),
    code: 'invalid_type',
    path: ['tagValues'],
  },
  {
    rule: 'getCloudBaremetalServers includeK8s is a boolean',
    lookup: lk('getCloudBaremetalServers', { includeK8s: 'yes' }),
    code: 'invalid_type',
    path: ['includeK8s'],
  },
  {
    rule: 'getCloudBaremetalServers maxItems is a count',
    lookup: lk('getCloudBaremetalServers', { maxItems: -1 }),
    code: 'too_small',
    path: ['maxItems'],
  },
  {
    rule: 'getCloudBaremetalServer needs exactly one of serverId and findOneBy',
    lookup: lk('getCloudBaremetalServer', {}),
    code: ['invalid_value', 'custom'],
    path: ['serverId'],
  },
  {
    rule: 'getCloudBaremetalServer findOneBy keys are known',
    lookup: lk('getCloudBaremetalServer', { findOneBy: { nam: 'x' } }),
    code: 'unrecognized_keys',
    path: ['findOneBy', 'nam'],
  },
  {
    rule: 'getCloudFloatingIps status is ACTIVE, DOWN or ERROR',
    lookup: lk('getCloudFloatingIps', { status: 'UP' }),
    code: 'invalid_value',
    path: ['status'],
  },
  {
    rule: 'getCloudFloatingIps tagKeys is list<string>',
    lookup: lk('getCloudFloatingIps', { tagKeys: 'a' }),
    code: 'invalid_type',
    path: ['tagKeys'],
  },
  {
    rule: 'getCloudGpuBaremetalClusters managedBies is list<string>',
    lookup: lk('getCloudGpuBaremetalClusters', { managedBies: 'k8s' }),
    code: 'invalid_type',
    path: ['managedBies'],
  },
  {
    rule: 'getCloudGpuVirtualClusters maxItems is an integer',
    lookup: lk('getCloudGpuVirtualClusters', { maxItems: 1.5 }),
    code: 'invalid_type',
    path: ['maxItems'],
  },
  {
    rule: 'getCloudInferenceFlavors maxItems is a number',
    lookup: lk('getCloudInferenceFlavors', { maxItems: '10' }),
    code: 'invalid_type',
    path: ['maxItems'],
  },
];

const scopeRows: Row[] = [
  {
    rule: 'CloudFloatingIp needs a project when the provider has none',
    decl: provc.cloudFloatingIp('ip', {}),
    code: 'missing_project',
    path: ['projectId'],
  },
  {
    rule: 'CloudFloatingIp needs a region when the provider has none',
    decl: provc.cloudFloatingIp('ip', { projectId: 1 }),
    code: 'missing_region',
    path: ['regionId'],
  },
  {
    rule: 'getCloudFloatingIps needs a region when the provider has none',
    lookup: lk('getCloudFloatingIps', { projectId: 1 }),
    code: 'missing_region',
    path: ['regionId'],
  },
];

const valid: Valid[] = [
  { rule: 'a CDN resource with an origin group', decl: site({}) },
  { rule: "a floating IP in the provider's scope", decl: provc.cloudFloatingIp('ip', { tags: { env: 'test' } }) },
];

describe('provc seed rules at plan time', () => describeRules(scoped, rows, valid));
describe('provc seed rules without a default scope', () => describeRules(unscoped, scopeRows));
