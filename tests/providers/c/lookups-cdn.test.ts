import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { LookupError, ValidationError } from 'converge';
import { provc } from 'converge/providers/c';
import { failure, useHarness, type Harness } from './helpers/harness.js';

const pem = (f: string) => readFileSync(new URL(`./fixtures/${f}`, import.meta.url), 'utf8');
type Out = Record<string, unknown>;

/** Makes one of every CDN object through the provider's own resources. */
async function seed(h: Harness) {
  const r = (token: string) => h.provider.resources.get(token)!;
  const create = async (token: string, inputs: Record<string, unknown>) =>
    r(token).create(h.ctx('create'), r(token).inputs.parse(inputs));
  const group = await create('provc:index/cdnOriginGroup:CdnOriginGroup', {
    name: 'origins',
    sources: [{ source: 'origin.example.com' }],
  });
  const cert = await create('provc:index/cdnCertificate:CdnCertificate', {
    name: 'site',
    sslCertificate: pem('cdn.crt'),
    sslPrivateKey: pem('cdn.key'),
  });
  const ca = await create('provc:index/cdnTrustedCaCertificate:CdnTrustedCaCertificate', {
    name: 'root',
    sslCertificate: pem('ca.crt'),
  });
  const resource = await create('provc:index/cdnResource:CdnResource', {
    cname: 'cdn.example.com',
    originGroup: Number(group.id),
    sslEnabled: true,
    sslData: Number(cert.id),
    proxySslEnabled: true,
    proxySslCa: Number(ca.id),
  });
  const rule = await create('provc:index/cdnResourceRule:CdnResourceRule', {
    resourceId: Number(resource.id),
    name: 'images',
    rule: '/img/*',
  });
  const template = await create('provc:index/cdnRuleTemplate:CdnRuleTemplate', {
    name: 'tpl',
    rule: '/static/*',
    weight: 3,
  });
  h.secrets.push(pem('cdn.key').split('\n')[1]!);
  return { group, cert, ca, resource, rule, template };
}

describe('CDN lookups', () => {
  const h = useHarness();

  it('getCdnCertificate returns the seed fields by sslId', async () => {
    const s = await seed(h());
    const c = (await h().engine.lookup(provc.getCdnCertificate({ sslId: Number(s.cert.id) }))) as Out;
    expect(c).toMatchObject({
      id: Number(s.cert.id),
      sslId: Number(s.cert.id),
      name: 'site',
      automated: false,
      certSubjectCn: 'cdn.example.com',
      hasRelatedResources: true,
      deleted: false,
    });
    for (const k of ['certIssuer', 'certSubjectAlt', 'sslCertificateChain', 'validityNotAfter', 'validityNotBefore'])
      expect(c).toHaveProperty(k);
  });

  it('getCdnOriginGroup returns sources, proxyNextUpstreams and usage', async () => {
    const s = await seed(h());
    const g = (await h().engine.lookup(provc.getCdnOriginGroup({ originGroupId: Number(s.group.id) }))) as Out;
    expect(g).toMatchObject({
      id: Number(s.group.id),
      originGroupId: Number(s.group.id),
      name: 'origins',
      useNext: false,
      proxyNextUpstreams: ['error', 'timeout'],
      hasRelatedResources: true,
      authType: 'none',
    });
    expect(g.sources).toEqual([
      { source: 'origin.example.com', backup: false, enabled: true, hostHeaderOverride: null },
    ]);
  });

  it('getCdnResource returns every seed field', async () => {
    const s = await seed(h());
    const r = (await h().engine.lookup(provc.getCdnResource({ resourceId: Number(s.resource.id) }))) as Out;
    const fields = [
      'active',
      'canPurgeByUrls',
      'client',
      'cname',
      'created',
      'deleted',
      'description',
      'enabled',
      'fullCustomEnabled',
      'id',
      'isPrimary',
      'name',
      'options',
      'originGroup',
      'originGroupName',
      'originProtocol',
      'presetApplied',
      'primaryResource',
      'proxySslCa',
      'proxySslData',
      'proxySslEnabled',
      'resourceId',
      'rules',
      'secondaryHostnames',
      'shieldDc',
      'shieldEnabled',
      'shieldRoutingMap',
      'shielded',
      'sslData',
      'sslEnabled',
      'status',
      'suspendDate',
      'suspended',
      'updated',
      'vpEnabled',
      'waapDomainId',
    ];
    for (const k of fields) expect(r, k).toHaveProperty(k);
    expect(r).toMatchObject({ sslData: Number(s.cert.id), proxySslCa: Number(s.ca.id), originGroupName: 'origins' });
    expect((r.rules as string[]).map((x) => JSON.parse(x).name)).toEqual(['images']);
  });

  it('getCdnResourceRule returns the rule with resourceId and ruleId', async () => {
    const s = await seed(h());
    const ruleId = Number(s.rule.id.split('/')[1]);
    const r = (await h().engine.lookup(provc.getCdnResourceRule({ resourceId: Number(s.resource.id), ruleId }))) as Out;
    expect(r).toMatchObject({
      id: ruleId,
      ruleId,
      resourceId: Number(s.resource.id),
      name: 'images',
      rule: '/img/*',
      ruleType: 0,
      active: true,
      deleted: false,
      presetApplied: false,
      originProtocol: 'HTTP',
    });
    for (const k of ['options', 'originGroup', 'primaryRule', 'weight']) expect(r).toHaveProperty(k);
  });

  it('getCdnRuleTemplate returns a user template and the system ones', async () => {
    const s = await seed(h());
    const t = (await h().engine.lookup(provc.getCdnRuleTemplate({ ruleTemplateId: Number(s.template.id) }))) as Out;
    expect(t).toMatchObject({
      ruleTemplateId: Number(s.template.id),
      name: 'tpl',
      weight: 3,
      template: true,
      default: false,
      client: 170,
      deleted: false,
    });
    const system = (await h().engine.lookup(provc.getCdnRuleTemplate({ ruleTemplateId: 1 }))) as Out;
    expect(system.default).toBe(true);
  });

  it('getCdnTrustedCaCertificate returns the CA facts', async () => {
    const s = await seed(h());
    const c = (await h().engine.lookup(provc.getCdnTrustedCaCertificate({ id: Number(s.ca.id) }))) as Out;
    expect(c).toMatchObject({
      id: Number(s.ca.id),
      name: 'root',
      certSubjectCn: 'Converge Test Root CA',
      hasRelatedResources: true,
      deleted: false,
    });
    expect(String(c.sslCertificateChain)).toContain('BEGIN CERTIFICATE');
  });

  it('answers every CDN lookup of a missing id with a not_found LookupError', async () => {
    const calls = [
      provc.getCdnCertificate({ sslId: 9 }),
      provc.getCdnOriginGroup({ originGroupId: 9 }),
      provc.getCdnResource({ resourceId: 9 }),
      provc.getCdnResourceRule({ resourceId: 9, ruleId: 9 }),
      provc.getCdnRuleTemplate({ ruleTemplateId: 9 }),
      provc.getCdnTrustedCaCertificate({ id: 9 }),
    ];
    for (const call of calls) {
      const e = await failure(h(), h().engine.lookup(call));
      expect(e).toBeInstanceOf(LookupError);
      expect(e.reason).toBe('not_found');
      expect(e.token).toBe(call.token);
    }
  });

  it('refuses ids that are not positive integers before any request', async () => {
    for (const args of [{ sslId: 'a' }, { sslId: 0 }, {}]) {
      expect(
        await failure(h(), h().engine.lookup('provc:index/getCdnCertificate:getCdnCertificate', args)),
      ).toBeInstanceOf(ValidationError);
    }
    expect(h().sim.requests).toHaveLength(0);
  });
});
