import { describe, expect, it } from 'vitest';
import { ConfigError, isSensitive } from 'converge';
import { provc, DEFAULT_BASE_URL } from 'converge/providers/c';

describe('provc configuration', () => {
  it('defaults to the vendor base URL, 3 s polls and a 7200 s polling time-out', () => {
    const s = provc({ apiKey: 'k', env: {} }).config.settings;
    expect(s).toEqual({
      apiKey: 'k',
      baseUrl: 'https://api.gcore.com',
      cloudProjectId: undefined,
      cloudRegionId: undefined,
      pollingIntervalSeconds: 3,
      pollingTimeoutSeconds: 7200,
    });
    expect(DEFAULT_BASE_URL).toBe('https://api.gcore.com');
  });

  it('reads PROVC_API_KEY, PROVC_CLOUD_PROJECT_ID and PROVC_CLOUD_REGION_ID when no argument is given', () => {
    const s = provc({ env: { PROVC_API_KEY: '123$abc', PROVC_CLOUD_PROJECT_ID: '12', PROVC_CLOUD_REGION_ID: '76' } })
      .config.settings;
    expect(s).toMatchObject({ apiKey: '123$abc', cloudProjectId: 12, cloudRegionId: 76 });
  });

  it('prefers arguments to the environment', () => {
    const s = provc({
      apiKey: 'arg',
      cloudProjectId: 1,
      cloudRegionId: 2,
      env: { PROVC_API_KEY: 'env', PROVC_CLOUD_PROJECT_ID: '12', PROVC_CLOUD_REGION_ID: '76' },
    }).config.settings;
    expect(s).toMatchObject({ apiKey: 'arg', cloudProjectId: 1, cloudRegionId: 2 });
  });

  it('reads process.env only inside the factory call', () => {
    process.env.PROVC_CLOUD_REGION_ID = '33';
    try {
      expect(provc({ apiKey: 'k' }).config.settings.cloudRegionId).toBe(33);
    } finally {
      delete process.env.PROVC_CLOUD_REGION_ID;
    }
    expect(provc({ apiKey: 'k' }).config.settings.cloudRegionId).toBeUndefined();
  });

  it('accepts fractional polling seconds and refuses non-positive ones', () => {
    expect(
      provc({ apiKey: 'k', pollingIntervalSeconds: 0.005, pollingTimeoutSeconds: 0.5, env: {} }).config.settings
        .pollingIntervalSeconds,
    ).toBe(0.005);
    for (const bad of [{ pollingIntervalSeconds: 0 }, { pollingTimeoutSeconds: -1 }]) {
      const e = (() => {
        try {
          provc({ apiKey: 'k', env: {}, ...bad });
        } catch (x) {
          return x as ConfigError;
        }
      })();
      expect(e).toBeInstanceOf(ConfigError);
      expect(e!.field).toBe(Object.keys(bad)[0]);
    }
  });

  it('refuses a project id from the environment that is not a positive integer', () => {
    const e = (() => {
      try {
        provc({ apiKey: 'k', env: { PROVC_CLOUD_PROJECT_ID: 'abc' } });
      } catch (x) {
        return x as ConfigError;
      }
    })();
    expect(e).toBeInstanceOf(ConfigError);
    expect(e!.field).toBe('cloudProjectId');
    expect(() => provc({ apiKey: 'k', baseUrl: 'not a url', env: {} })).toThrow(ConfigError);
  });

  it('gives terraformConfig with the upstream key names and the key marked sensitive', () => {
    const tf = provc({
      apiKey: '123$secret',
      baseUrl: 'http://127.0.0.1:9/prefix',
      cloudProjectId: 1,
      cloudRegionId: 76,
      pollingIntervalSeconds: 1,
      env: {},
    }).terraformConfig();
    expect(Object.keys(tf).sort()).toEqual([
      'api_key',
      'base_url',
      'cloud_project_id',
      'cloud_region_id',
      'polling_interval_seconds',
      'polling_timeout_seconds',
    ]);
    expect(tf).toMatchObject({
      base_url: 'http://127.0.0.1:9/prefix',
      cloud_project_id: 1,
      cloud_region_id: 76,
      polling_interval_seconds: 1,
      polling_timeout_seconds: 7200,
    });
    expect(isSensitive(tf.api_key)).toBe(true);
    expect(JSON.stringify(tf)).not.toContain('123$secret');
  });
});

describe('the provc provider', () => {
  const p = provc({ apiKey: 'k', env: {} });

  it('serves every lookup of the seed under its token', () => {
    const fns = [
      'getCdnCertificate',
      'getCdnOriginGroup',
      'getCdnResource',
      'getCdnResourceRule',
      'getCdnRuleTemplate',
      'getCdnTrustedCaCertificate',
      'getCloudBaremetalServer',
      'getCloudBaremetalServers',
      'getCloudFloatingIp',
      'getCloudFloatingIps',
      'getCloudGpuBaremetalCluster',
      'getCloudGpuBaremetalClusterImage',
      'getCloudGpuBaremetalClusters',
      'getCloudGpuVirtualCluster',
      'getCloudGpuVirtualClusterImage',
      'getCloudGpuVirtualClusters',
      'getCloudInferenceFlavor',
      'getCloudInferenceFlavors',
    ];
    expect([...p.lookups.keys()].sort()).toEqual(fns.map((f) => `provc:index/${f}:${f}`).sort());
  });

  it('serves the managed resources under their tokens', () => {
    expect([...p.resources.keys()].sort()).toEqual([
      'provc:index/cdnCertificate:CdnCertificate',
      'provc:index/cdnOriginGroup:CdnOriginGroup',
      'provc:index/cdnResource:CdnResource',
      'provc:index/cdnResourceRule:CdnResourceRule',
      'provc:index/cdnRuleTemplate:CdnRuleTemplate',
      'provc:index/cdnTrustedCaCertificate:CdnTrustedCaCertificate',
      'provc:index/cloudFloatingIp:CloudFloatingIp',
    ]);
  });

  it('builds plain declarations and lookup calls with its typed helpers', () => {
    const g = provc.cdnOriginGroup('origins', { name: 'origins', sources: [{ source: 'o.example.com' }] });
    const r = provc.cdnResource('site', { cname: 'cdn.example.com', originGroup: g.out('originGroupId') });
    expect(r.type).toBe('provc:index/cdnResource:CdnResource');
    expect(JSON.parse(JSON.stringify(r))).toEqual({
      type: 'provc:index/cdnResource:CdnResource',
      name: 'site',
      inputs: {
        cname: 'cdn.example.com',
        originGroup: { '@converge': 'ref', resource: 'origins', path: 'originGroupId' },
      },
    });
    expect(provc.getCdnResource({ resourceId: 5 })).toEqual({
      token: 'provc:index/getCdnResource:getCdnResource',
      args: { resourceId: 5 },
    });
  });
});
