import { readFileSync } from 'node:fs';
import { found, sinceEpoch } from '../../helpers/builders.js';
import { describe, expect, it } from 'vitest';
import { ProviderError } from 'converge';
import type { Prior } from '../../../src/engine/provider/define.js';
import { cdnOriginGroup } from '../../../src/providers/c/resources/cdn-origin-group.js';
import { cdnResource } from '../../../src/providers/c/resources/cdn-resource.js';
import { cdnResourceRule } from '../../../src/providers/c/resources/cdn-resource-rule.js';
import { cdnRuleTemplate } from '../../../src/providers/c/resources/cdn-rule-template.js';
import { cdnCertificate } from '../../../src/providers/c/resources/cdn-certificate.js';
import { cdnTrustedCaCertificate } from '../../../src/providers/c/resources/cdn-trusted-ca-certificate.js';
import { failure, useHarness, type Harness } from './helpers/harness.js';

const pem = (f: string) => readFileSync(new URL(`./fixtures/${f}`, import.meta.url), 'utf8');
const prior = (inputs: Record<string, unknown>, outputs: Record<string, unknown>): Prior => ({ inputs, outputs });

async function group(h: Harness, name = 'origins') {
  const i = cdnOriginGroup.inputs.parse({
    name,
    sources: [{ source: 'origin.example.com' }, { source: 'backup.example.com', backup: true }],
  });
  return { i, r: await cdnOriginGroup.create(h.ctx('create'), i) };
}

async function resource(h: Harness, originGroup: number, cname = 'cdn.example.com') {
  const i = cdnResource.inputs.parse({ cname, originGroup, options: { gzipOn: { enabled: true, value: true } } });
  return { i, r: await cdnResource.create(h.ctx('create'), i) };
}

describe('CdnOriginGroup', () => {
  const h = useHarness();

  it('creates, reads back its declared inputs, replaces, finds by name and deletes', async () => {
    const { i, r } = await group(h());
    expect(r.outputs).toMatchObject({
      originGroupId: Number(r.id),
      name: 'origins',
      proxyNextUpstreams: ['error', 'timeout'],
      hasRelatedResources: false,
    });
    const read = await cdnOriginGroup.read(h().ctx(), r.id, prior(i, r.outputs));
    expect(read?.inputs).toEqual(i);
    const news = cdnOriginGroup.inputs.parse({ ...i, useNext: true, proxyNextUpstreams: ['error', 'http_502'] });
    const u = await cdnOriginGroup.update!(h().ctx('update'), r.id, prior(i, r.outputs), news);
    expect(u.outputs).toMatchObject({ useNext: true, proxyNextUpstreams: ['error', 'http_502'] });
    expect((await found(cdnOriginGroup.find!(h().ctx('find'), i, sinceEpoch)))?.id).toBe(r.id);
    expect(
      await found(
        cdnOriginGroup.find!(h().ctx('find'), i, {
          startedAt: new Date().toISOString(),
          operationId: 'another-operation',
        }),
      ),
    ).toBeNull();
    await cdnOriginGroup.delete(h().ctx('delete'), r.id, prior(news, u.outputs));
    expect(await cdnOriginGroup.read(h().ctx(), r.id, prior(news, u.outputs))).toBeNull();
    expect(cdnOriginGroup.importId!('42', h().provider.config)).toBe('42');
    expect(() => cdnOriginGroup.importId!('x', h().provider.config)).toThrow(TypeError);
  });

  it('surfaces the vendor field error for a duplicate name', async () => {
    await group(h());
    const e = await failure(h(), group(h()));
    expect(e).toBeInstanceOf(ProviderError);
    expect(e.status).toBe(400);
    expect(e.detail).toContain('name');
  });
});

describe('CdnResource', () => {
  const h = useHarness();

  it('creates, reads without drift, updates, deactivates before deleting, and imports', async () => {
    const g = await group(h());
    const { i, r } = await resource(h(), Number(g.r.id));
    expect(r.outputs).toMatchObject({
      resourceId: Number(r.id),
      cname: 'cdn.example.com',
      originGroup: Number(g.r.id),
      originGroupName: 'origins',
      active: true,
      rules: [],
    });
    const read = await cdnResource.read(h().ctx(), r.id, prior(i, r.outputs));
    expect(read?.inputs).toEqual(i);
    const news = cdnResource.inputs.parse({
      ...i,
      description: 'static files',
      originProtocol: 'HTTPS',
      secondaryHostnames: ['www.example.com'],
    });
    const u = await cdnResource.update!(h().ctx('update'), r.id, prior(i, r.outputs), news);
    expect(u.outputs).toMatchObject({
      description: 'static files',
      originProtocol: 'HTTPS',
      secondaryHostnames: ['www.example.com'],
    });
    expect((await found(cdnResource.find!(h().ctx('find'), i, sinceEpoch)))?.id).toBe(r.id);
    await cdnResource.delete(h().ctx('delete'), r.id, prior(news, u.outputs));
    const puts = h()
      .sim.requests.filter((x) => x.method === 'PUT')
      .map((x) => (x.body as { active: boolean }).active);
    expect(puts).toEqual([true, false]);
    expect(h().sim.store.cdn.resources.size).toBe(0);
    expect(await cdnResource.read(h().ctx(), r.id, prior(news, u.outputs))).toBeNull();
    expect(cdnResource.importId!('101', h().provider.config)).toBe('101');
  });

  it('needs exactly one of originGroup and origin', () => {
    expect(
      cdnResource.check!(cdnResource.inputs.parse({ cname: 'a.example.com' }), h().provider.config).map(
        (x) => x.path[0],
      ),
    ).toEqual(['originGroup']);
    expect(
      cdnResource.check!(
        cdnResource.inputs.parse({ cname: 'a.example.com', origin: 'o.example.com' }),
        h().provider.config,
      ),
    ).toEqual([]);
  });

  it('creates from a bare origin host and keeps `origin` as the declared input', async () => {
    const i = cdnResource.inputs.parse({ cname: 'img.example.com', origin: 'origin.example.com' });
    const r = await cdnResource.create(h().ctx('create'), i);
    expect(r.outputs.originGroupName).toBe('img.example.com_origin');
    const read = await cdnResource.read(h().ctx(), r.id, prior(i, r.outputs));
    expect(read?.inputs).toEqual(i);
  });
});

describe('CdnResourceRule', () => {
  const h = useHarness();

  it('creates under a resource, reads without drift, updates, finds by name, switches off before deleting', async () => {
    const g = await group(h());
    const res = await resource(h(), Number(g.r.id));
    const i = cdnResourceRule.inputs.parse({
      resourceId: Number(res.r.id),
      name: 'images',
      rule: 'images/*',
      options: { gzipOn: { enabled: true, value: false } },
    });
    const r = await cdnResourceRule.create(h().ctx('create'), i);
    expect(r.id).toBe(`${res.r.id}/${r.outputs.ruleId}`);
    expect(r.outputs).toMatchObject({
      rule: '/images/*',
      resourceId: Number(res.r.id),
      originProtocol: 'HTTP',
      active: true,
    });
    const read = await cdnResourceRule.read(h().ctx(), r.id, prior(i, r.outputs));
    expect(read?.inputs).toEqual(i);
    const news = cdnResourceRule.inputs.parse({ ...i, overrideOriginProtocol: 'HTTPS', weight: 5 });
    const u = await cdnResourceRule.update!(h().ctx('update'), r.id, prior(i, r.outputs), news);
    expect(u.outputs).toMatchObject({ originProtocol: 'HTTPS', weight: 5 });
    expect((await found(cdnResourceRule.find!(h().ctx('find'), i, sinceEpoch)))?.id).toBe(r.id);
    const viaResource = (await h().engine.lookup('provc:index/getCdnResource:getCdnResource', {
      resourceId: Number(res.r.id),
    })) as { rules: string[] };
    expect(JSON.parse(viaResource.rules[0]!)).toMatchObject({ name: 'images' });
    await cdnResourceRule.delete(h().ctx('delete'), r.id, prior(news, u.outputs));
    expect(
      h().sim.requests.some((x) => x.method === 'PATCH' && (x.body as { active?: boolean }).active === false),
    ).toBe(true);
    expect(await cdnResourceRule.read(h().ctx(), r.id, prior(news, u.outputs))).toBeNull();
    expect(cdnResourceRule.importId!(r.id, h().provider.config)).toBe(r.id);
    expect(() => cdnResourceRule.importId!('12', h().provider.config)).toThrow(TypeError);
  });
});

describe('CdnRuleTemplate', () => {
  const h = useHarness();

  it('creates, reads, updates, finds by name (never a system template) and deletes', async () => {
    const i = cdnRuleTemplate.inputs.parse({ name: 'no-cache-api', rule: '/api/*', ruleType: 0 });
    const r = await cdnRuleTemplate.create(h().ctx('create'), i);
    expect(r.outputs).toMatchObject({ ruleTemplateId: Number(r.id), template: true, default: false, client: 170 });
    expect((await cdnRuleTemplate.read(h().ctx(), r.id, prior(i, r.outputs)))?.inputs).toEqual(i);
    const news = cdnRuleTemplate.inputs.parse({ ...i, options: { disable_cache: { enabled: true, value: true } } });
    const u = await cdnRuleTemplate.update!(h().ctx('update'), r.id, prior(i, r.outputs), news);
    expect(u.outputs.options).toEqual({ disable_cache: { enabled: true, value: true } });
    expect((await found(cdnRuleTemplate.find!(h().ctx('find'), i, sinceEpoch)))?.id).toBe(r.id);
    expect(
      await found(
        cdnRuleTemplate.find!(h().ctx('find'), i, {
          startedAt: new Date().toISOString(),
          operationId: 'another-operation',
        }),
      ),
    ).toBeNull();
    expect(cdnRuleTemplate.importId!(r.id, h().provider.config)).toBe(r.id);
    await cdnRuleTemplate.delete(h().ctx('delete'), r.id, prior(news, u.outputs));
    expect(await cdnRuleTemplate.read(h().ctx(), r.id, prior(news, u.outputs))).toBeNull();
  });
});

describe('CdnCertificate', () => {
  const h = useHarness();

  it('uploads a certificate and key, reads the parsed facts, keeps the secrets out of every answer', async () => {
    const i = cdnCertificate.inputs.parse({
      name: 'site',
      sslCertificate: pem('cdn.crt'),
      sslPrivateKey: pem('cdn.key'),
    });
    const r = await cdnCertificate.create(h().ctx('create'), i);
    expect(r.outputs).toMatchObject({
      sslId: Number(r.id),
      name: 'site',
      automated: false,
      certSubjectCn: 'cdn.example.com',
      certSubjectAlt: 'cdn.example.com,www.example.com',
      deleted: false,
    });
    expect(String(r.outputs.validityNotAfter)).toMatch(/^21\d\d-/);
    expect(JSON.stringify(h().sim.requests.map((x) => x.response))).not.toContain('PRIVATE KEY');
    const read = await cdnCertificate.read(h().ctx(), r.id, prior(i, r.outputs));
    expect(read?.inputs).toEqual(i);
    const u = await cdnCertificate.update!(h().ctx('update'), r.id, prior(i, r.outputs), { ...i, name: 'site-2' });
    expect(u.outputs.name).toBe('site-2');
    expect((await found(cdnCertificate.find!(h().ctx('find'), i, sinceEpoch)))?.id).toBe(r.id);
    expect(cdnCertificate.importId!(r.id, h().provider.config)).toBe(r.id);
    const imported = await cdnCertificate.read(h().ctx('import'), r.id, { inputs: {}, outputs: {} });
    expect(imported?.inputs).toEqual({ name: 'site-2', automated: false, validateRootCa: false });
    await cdnCertificate.delete(h().ctx('delete'), r.id, prior(i, u.outputs));
    expect(await cdnCertificate.read(h().ctx(), r.id, prior(i, u.outputs))).toBeNull();
    expect(cdnCertificate.secrets).toEqual(['sslCertificate', 'sslPrivateKey']);
  });

  it('fails on a key that does not match, without the key in the error', async () => {
    h().secrets.push(pem('other.key').split('\n')[1]!);
    const i = cdnCertificate.inputs.parse({
      name: 'bad',
      sslCertificate: pem('cdn.crt'),
      sslPrivateKey: pem('other.key'),
    });
    const e = await failure(h(), cdnCertificate.create(h().ctx('create'), i));
    expect(e.status).toBe(400);
    expect(e.detail).toContain('sslPrivateKey');
  });

  it("asks Let's Encrypt for an automated certificate and checks the inputs for each kind", async () => {
    const i = cdnCertificate.inputs.parse({ name: 'le', automated: true });
    expect(cdnCertificate.check!(i, h().provider.config)).toEqual([]);
    const r = await cdnCertificate.create(h().ctx('create'), i);
    expect(r.outputs).toMatchObject({ automated: true, name: 'le' });
    expect(
      cdnCertificate.check!(cdnCertificate.inputs.parse({ name: 'x' }), h().provider.config).map((x) => x.path[0]),
    ).toEqual(['sslCertificate', 'sslPrivateKey']);
  });
});

describe('CdnTrustedCaCertificate', () => {
  const h = useHarness();

  it('creates, reads, renames in place, finds by name and deletes', async () => {
    const i = cdnTrustedCaCertificate.inputs.parse({ name: 'root', sslCertificate: pem('ca.crt') });
    const r = await cdnTrustedCaCertificate.create(h().ctx('create'), i);
    expect(r.outputs).toMatchObject({
      name: 'root',
      certSubjectCn: 'Converge Test Root CA',
      certIssuer: 'Converge Test Root CA',
      hasRelatedResources: false,
    });
    expect((await cdnTrustedCaCertificate.read(h().ctx(), r.id, prior(i, r.outputs)))?.inputs).toEqual(i);
    const u = await cdnTrustedCaCertificate.update!(h().ctx('update'), r.id, prior(i, r.outputs), {
      ...i,
      name: 'root-2',
    });
    expect(u.outputs.name).toBe('root-2');
    expect(h().sim.requests.find((x) => x.method === 'PUT')?.body).toEqual({ name: 'root-2' });
    expect(cdnTrustedCaCertificate.replaceOn).toEqual(['sslCertificate']);
    expect((await found(cdnTrustedCaCertificate.find!(h().ctx('find'), i, sinceEpoch)))?.id).toBe(r.id);
    expect(cdnTrustedCaCertificate.importId!(r.id, h().provider.config)).toBe(r.id);
    const imported = await cdnTrustedCaCertificate.read(h().ctx('import'), r.id, { inputs: {}, outputs: {} });
    expect(imported?.inputs).toEqual({ name: 'root-2', sslCertificate: pem('ca.crt') });
    await cdnTrustedCaCertificate.delete(h().ctx('delete'), r.id, prior(i, u.outputs));
    expect(await cdnTrustedCaCertificate.read(h().ctx(), r.id, prior(i, u.outputs))).toBeNull();
  });
});
