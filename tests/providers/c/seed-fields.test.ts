// Every lookup answers every field the seed lists for its object; a field the API sends as null or
// leaves out is null, never dropped (the deprecated origin-group `auth`, a rule's or template's
// `overrideOriginProtocol` that inherits the resource's protocol, a floating IP's null port).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { provc } from 'converge/providers/c';
import { SEED_FIELDS } from '../../../src/providers/c/support/shape.js';
import { useHarness, type Harness } from './helpers/harness.js';

const pem = (f: string) => readFileSync(new URL(`./fixtures/${f}`, import.meta.url), 'utf8');
type Out = Record<string, unknown>;

async function make(h: Harness) {
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
  });
  const inherit = await create('provc:index/cdnResourceRule:CdnResourceRule', {
    resourceId: Number(resource.id),
    name: 'inherit',
    rule: '/img/*',
  });
  const https = await create('provc:index/cdnResourceRule:CdnResourceRule', {
    resourceId: Number(resource.id),
    name: 'https',
    rule: '/api/*',
    overrideOriginProtocol: 'HTTPS',
  });
  const template = await create('provc:index/cdnRuleTemplate:CdnRuleTemplate', { name: 'tpl', rule: '/static/*' });
  const fip = await create('provc:index/cloudFloatingIp:CloudFloatingIp', {});
  h.secrets.push(pem('cdn.key').split('\n')[1]!);
  return { group, cert, ca, resource, inherit, https, template, fip };
}

const ruleId = (id: string) => Number(id.split('/')[1]);

function expectAll(o: Out, fields: readonly string[]) {
  for (const f of fields) expect(o, f).toHaveProperty(f);
  for (const f of fields) expect(o[f], f).not.toBeUndefined();
}

describe('seed fields of every lookup', () => {
  const h = useHarness();

  it('getCdnOriginGroup returns the deprecated auth as null for a host-origin group, with authType and path', async () => {
    const m = await make(h());
    const g = (await h().engine.lookup(provc.getCdnOriginGroup({ originGroupId: Number(m.group.id) }))) as Out;
    expectAll(g, SEED_FIELDS.cdnOriginGroup);
    expect(g.auth).toBeNull();
    expect(g.authType).toBe('none');
  });

  it('getCdnResourceRule returns overrideOriginProtocol as null when it inherits, and the value when set', async () => {
    const m = await make(h());
    const inherit = (await h().engine.lookup(
      provc.getCdnResourceRule({ resourceId: Number(m.resource.id), ruleId: ruleId(m.inherit.id) }),
    )) as Out;
    expectAll(inherit, SEED_FIELDS.cdnResourceRule);
    expect(inherit.overrideOriginProtocol).toBeNull();
    expect(inherit.originProtocol).toBe('HTTP');
    const https = (await h().engine.lookup(
      provc.getCdnResourceRule({ resourceId: Number(m.resource.id), ruleId: ruleId(m.https.id) }),
    )) as Out;
    expect(https).toMatchObject({ overrideOriginProtocol: 'HTTPS', originProtocol: 'HTTPS' });
    expect(m.inherit.outputs.overrideOriginProtocol).toBeNull();
  });

  it('getCdnRuleTemplate returns overrideOriginProtocol as null for user and system templates', async () => {
    const m = await make(h());
    for (const id of [Number(m.template.id), 1]) {
      const t = (await h().engine.lookup(provc.getCdnRuleTemplate({ ruleTemplateId: id }))) as Out;
      expectAll(t, SEED_FIELDS.cdnRuleTemplate);
      expect(t.overrideOriginProtocol).toBeNull();
    }
    expect(m.template.outputs.overrideOriginProtocol).toBeNull();
  });

  it('getCdnResource, getCdnCertificate and getCdnTrustedCaCertificate return every seed field', async () => {
    const m = await make(h());
    expectAll(
      (await h().engine.lookup(provc.getCdnResource({ resourceId: Number(m.resource.id) }))) as Out,
      SEED_FIELDS.cdnResource,
    );
    expectAll(
      (await h().engine.lookup(provc.getCdnCertificate({ sslId: Number(m.cert.id) }))) as Out,
      SEED_FIELDS.cdnCertificate,
    );
    expectAll(
      (await h().engine.lookup(provc.getCdnTrustedCaCertificate({ id: Number(m.ca.id) }))) as Out,
      SEED_FIELDS.cdnTrustedCaCertificate,
    );
  });

  it('every cloud lookup returns every seed field, nulls included', async () => {
    const m = await make(h());
    const fip = (await h().engine.lookup(provc.getCloudFloatingIp({ floatingIpId: m.fip.id }))) as Out;
    expectAll(fip, SEED_FIELDS.floatingIp);
    expect(fip).toMatchObject({ portId: null, fixedIpAddress: null, routerId: null });
    const fips = (await h().engine.lookup(provc.getCloudFloatingIps({}))) as { items: Out[] };
    expectAll(fips.items[0]!, SEED_FIELDS.floatingIp);
    const servers = (await h().engine.lookup(provc.getCloudBaremetalServers({}))) as { items: Out[] };
    for (const s of servers.items) expectAll(s, SEED_FIELDS.baremetalServer);
    const bm = (await h().engine.lookup(provc.getCloudGpuBaremetalClusters({}))) as { items: Out[] };
    for (const c of bm.items) expectAll(c, [...SEED_FIELDS.gpuCluster, ...SEED_FIELDS.gpuBaremetalCluster]);
    const vc = (await h().engine.lookup(provc.getCloudGpuVirtualClusters({}))) as { items: Out[] };
    for (const c of vc.items) expectAll(c, SEED_FIELDS.gpuCluster);
    expect(vc.items[0]!.updatedAt).toBeNull();
    const image = (await h().engine.lookup(
      provc.getCloudGpuVirtualClusterImage({ imageId: '4793c250-0b3b-4678-bab3-e11afbc29657' }),
    )) as Out;
    expectAll(image, SEED_FIELDS.gpuImage);
    const flavors = (await h().engine.lookup(provc.getCloudInferenceFlavors({}))) as { items: Out[] };
    for (const f of flavors.items) expectAll(f, SEED_FIELDS.inferenceFlavor);
  });
});
