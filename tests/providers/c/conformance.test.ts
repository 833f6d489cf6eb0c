// provc against the shared provider conformance suite, on its simulator.
import { readFileSync } from 'node:fs';
import { provc } from 'converge/providers/c';
import { startSimulator, SIM_PROJECT_ID, SIM_REGION_ID } from 'converge/providers/c/simulator';
import { describeProvider } from '../../conformance/provider.js';

const pem = (f: string) => readFileSync(new URL(`./fixtures/${f}`, import.meta.url), 'utf8');
const origins = (name = 'origins') =>
  provc.cdnOriginGroup('origins', { name, sources: [{ source: 'origin.example.com' }] });
const site = (description: string, cname = 'cdn.example.com') => {
  const o = origins();
  return [o, provc.cdnResource('site', { cname, originGroup: o.out('originGroupId'), description })];
};

describeProvider({
  name: 'provc',
  start: async () => {
    const sim = await startSimulator({ taskDurationMs: 4 });
    const provider = provc({
      apiKey: sim.apiKey,
      baseUrl: sim.baseUrl,
      cloudProjectId: SIM_PROJECT_ID,
      cloudRegionId: SIM_REGION_ID,
      pollingIntervalSeconds: 0.002,
      pollingTimeoutSeconds: 5,
      env: {},
    });
    return { provider, sim, secrets: [sim.apiKey, pem('cdn.key').split('\n')[1]!], close: () => sim.close() };
  },
  resources: {
    'provc:index/cloudFloatingIp:CloudFloatingIp': {
      stack: () => [provc.cloudFloatingIp('ip', { tags: { env: 'test' } })],
      changed: () => [provc.cloudFloatingIp('ip', { tags: { env: 'prod' } })],
      expect: 'update',
      importId: (r) => `${SIM_PROJECT_ID}/${SIM_REGION_ID}/${r.id}`,
    },
    'provc:index/cdnOriginGroup:CdnOriginGroup': {
      stack: () => [origins()],
      changed: () => [origins('renamed')],
      expect: 'update',
    },
    'provc:index/cdnResource:CdnResource': {
      stack: () => site('first'),
      changed: () => site('second'),
      expect: 'update',
    },
    'provc:index/cdnResourceRule:CdnResourceRule': {
      stack: () => {
        const [o, s] = site('rules');
        return [
          o!,
          s!,
          provc.cdnResourceRule('rule', {
            resourceId: (s as ReturnType<typeof provc.cdnResource>).out('resourceId'),
            name: 'images',
            rule: '/img/*',
          }),
        ];
      },
      changed: () => {
        const [o, s] = site('rules');
        return [
          o!,
          s!,
          provc.cdnResourceRule('rule', {
            resourceId: (s as ReturnType<typeof provc.cdnResource>).out('resourceId'),
            name: 'images',
            rule: '/pics/*',
          }),
        ];
      },
      expect: 'update',
    },
    'provc:index/cdnRuleTemplate:CdnRuleTemplate': {
      stack: () => [provc.cdnRuleTemplate('tpl', { name: 'tpl', rule: '/static/*' })],
      changed: () => [provc.cdnRuleTemplate('tpl', { name: 'tpl', rule: '/assets/*' })],
      expect: 'update',
    },
    'provc:index/cdnCertificate:CdnCertificate': {
      stack: () => [
        provc.cdnCertificate('cert', { name: 'site', sslCertificate: pem('cdn.crt'), sslPrivateKey: pem('cdn.key') }),
      ],
      changed: () => [
        provc.cdnCertificate('cert', {
          name: 'site-renamed',
          sslCertificate: pem('cdn.crt'),
          sslPrivateKey: pem('cdn.key'),
        }),
      ],
      expect: 'update',
      importDiffers: ['sslCertificate', 'sslPrivateKey'],
    },
    'provc:index/cdnTrustedCaCertificate:CdnTrustedCaCertificate': {
      stack: () => [provc.cdnTrustedCaCertificate('ca', { name: 'root', sslCertificate: pem('ca.crt') })],
      changed: () => [provc.cdnTrustedCaCertificate('ca', { name: 'root-renamed', sslCertificate: pem('ca.crt') })],
      expect: 'update',
    },
  },
  lookups: {
    'provc:index/getCdnCertificate:getCdnCertificate': { notFound: { sslId: 999999 } },
    'provc:index/getCdnOriginGroup:getCdnOriginGroup': { notFound: { originGroupId: 999999 } },
    'provc:index/getCdnResource:getCdnResource': { notFound: { resourceId: 999999 } },
    'provc:index/getCdnResourceRule:getCdnResourceRule': { notFound: { resourceId: 999999, ruleId: 1 } },
    'provc:index/getCdnRuleTemplate:getCdnRuleTemplate': { notFound: { ruleTemplateId: 999999 } },
    'provc:index/getCdnTrustedCaCertificate:getCdnTrustedCaCertificate': { notFound: { id: 999999 } },
    'provc:index/getCloudBaremetalServer:getCloudBaremetalServer': {
      notFound: { serverId: '00000000-0000-4000-8000-000000000000' },
    },
    'provc:index/getCloudBaremetalServers:getCloudBaremetalServers': { succeeds: {} },
    'provc:index/getCloudGpuBaremetalCluster:getCloudGpuBaremetalCluster': {
      notFound: { clusterId: '00000000-0000-4000-8000-000000000000' },
    },
    'provc:index/getCloudGpuBaremetalClusterImage:getCloudGpuBaremetalClusterImage': {
      notFound: { imageId: '00000000-0000-4000-8000-000000000000' },
    },
    'provc:index/getCloudGpuBaremetalClusters:getCloudGpuBaremetalClusters': { succeeds: {} },
    'provc:index/getCloudGpuVirtualCluster:getCloudGpuVirtualCluster': {
      notFound: { clusterId: '00000000-0000-4000-8000-000000000000' },
    },
    'provc:index/getCloudGpuVirtualClusterImage:getCloudGpuVirtualClusterImage': {
      notFound: { imageId: '00000000-0000-4000-8000-000000000000' },
    },
    'provc:index/getCloudGpuVirtualClusters:getCloudGpuVirtualClusters': { succeeds: {} },
    'provc:index/getCloudInferenceFlavor:getCloudInferenceFlavor': { notFound: { flavorName: 'no-such-flavor' } },
    'provc:index/getCloudInferenceFlavors:getCloudInferenceFlavors': { succeeds: {} },
    'provc:index/getCloudFloatingIp:getCloudFloatingIp': {
      notFound: { floatingIpId: '00000000-0000-4000-8000-000000000000' },
    },
    'provc:index/getCloudFloatingIps:getCloudFloatingIps': { succeeds: {} },
  },
});
