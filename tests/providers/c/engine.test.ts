import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ValidationError } from 'converge';
import { provc } from 'converge/providers/c';
import { failure, useHarness } from './helpers/harness.js';

const pem = (f: string) => readFileSync(new URL(`./fixtures/${f}`, import.meta.url), 'utf8');

const stack = (description = 'static') => {
  const origins = provc.cdnOriginGroup('origins', { name: 'origins', sources: [{ source: 'origin.example.com' }] });
  const cert = provc.cdnCertificate('cert', {
    name: 'site',
    sslCertificate: pem('cdn.crt'),
    sslPrivateKey: pem('cdn.key'),
  });
  const ca = provc.cdnTrustedCaCertificate('ca', { name: 'root', sslCertificate: pem('ca.crt') });
  const site = provc.cdnResource('site', {
    cname: 'cdn.example.com',
    originGroup: origins.out('originGroupId'),
    description,
    sslEnabled: true,
    sslData: cert.out('sslId'),
    options: { gzipOn: { enabled: true, value: true } },
  });
  const rule = provc.cdnResourceRule('images', { resourceId: site.out('resourceId'), name: 'images', rule: '/img/*' });
  const template = provc.cdnRuleTemplate('tpl', { name: 'tpl', rule: '/static/*' });
  const ip = provc.cloudFloatingIp('ip', { tags: { env: 'test' } });
  return [origins, cert, ca, site, rule, template, ip];
};

describe('provc through the engine', () => {
  const h = useHarness();

  it('applies a stack, then plans it again as all noop', async () => {
    h().secrets.push(pem('cdn.key').split('\n')[1]!);
    h().sim.store.taskDurationMs = 400; // long enough to be polled on a loaded machine
    const plan = await h().engine.plan(stack());
    expect(plan.summary.create).toBe(7);
    const result = await h().engine.apply(plan);
    expect(result.failed).toEqual([]);
    const again = await h().engine.plan(stack(), { refresh: true });
    expect(again.steps.filter((s) => s.action !== 'noop').map((s) => [s.address, s.action, s.changes])).toEqual([]);
    expect(again.hasChanges).toBe(false);
    expect(again.render()).not.toContain('PRIVATE KEY');
    expect(JSON.stringify(again)).not.toContain('PRIVATE KEY');
    expect(h().events.some((e) => e.type === 'poll')).toBe(true);
  });

  it('updates in place, then destroys everything in reverse order', async () => {
    await h().engine.apply(await h().engine.plan(stack()));
    const plan = await h().engine.plan(stack('changed'));
    expect(plan.steps.filter((s) => s.action !== 'noop').map((s) => [s.address, s.action])).toEqual([
      ['site', 'update'],
    ]);
    await h().engine.apply(plan);
    expect([...h().sim.store.cdn.resources.values()][0]!.description).toBe('changed');
    const destroyed = await h().engine.destroy();
    expect(destroyed.failed).toEqual([]);
    const c = h().sim.store.cdn;
    expect([
      c.originGroups.size,
      c.resources.size,
      c.rules.size,
      c.certificates.size,
      c.caCertificates.size,
      h().sim.store.floatingIps.size,
    ]).toEqual([0, 0, 0, 0, 0, 0]);
  });

  it('imports an existing floating IP and plans it as noop', async () => {
    const fip = h().provider.resources.get('provc:index/cloudFloatingIp:CloudFloatingIp')!;
    const made = await fip.create(h().ctx('create'), fip.inputs.parse({ tags: { env: 'test' } }));
    const decl = provc.cloudFloatingIp('ip', { tags: { env: 'test' } });
    await h().engine.import(decl, `1/76/${made.id}`);
    const plan = await h().engine.plan([decl]);
    expect(plan.steps.map((s) => s.action)).toEqual(['noop']);
    const state = await h().engine.state();
    expect(state.resources.ip!.id).toBe(made.id);
  });

  it('imports an existing CDN resource and origin group by id and plans them as noop', async () => {
    const c = h().provider.config.client;
    const g = await c.createCdnOriginGroup(h().ctx(), { name: 'origins', sources: [{ source: 'origin.example.com' }] });
    const r = await c.createCdnResource(h().ctx(), {
      cname: 'cdn.example.com',
      originGroup: g.id,
      description: 'imported',
      options: { gzipOn: { enabled: true, value: true } },
    });
    const origins = provc.cdnOriginGroup('origins', { name: 'origins', sources: [{ source: 'origin.example.com' }] });
    const site = provc.cdnResource('site', {
      cname: 'cdn.example.com',
      originGroup: Number(g.id),
      description: 'imported',
      options: { gzipOn: { enabled: true, value: true } },
    });
    await h().engine.import(origins, String(g.id));
    await h().engine.import(site, String(r.id));
    const plan = await h().engine.plan([origins, site]);
    expect(plan.steps.map((s) => [s.address, s.action])).toEqual(
      expect.arrayContaining([
        ['origins', 'noop'],
        ['site', 'noop'],
      ]),
    );
  });

  it('finds every invalid input at plan time, before any request', async () => {
    const bad = [
      provc.cdnResource('both', { cname: 'a.example.com' }),
      provc.cloudFloatingIp('ip', { tags: {} }),
      provc.cdnResourceRule('r', { resourceId: 1, name: 'n', rule: '/x', ruleType: 3 as 0 }),
    ];
    const { provc: factory } = await import('converge/providers/c');
    const { Engine, MemoryStateStore } = await import('converge');
    const engine = new Engine({
      providers: [factory({ apiKey: 'k', baseUrl: h().sim.baseUrl, env: {} })],
      state: new MemoryStateStore(),
    });
    const e = await failure(h(), engine.plan(bad));
    expect(e).toBeInstanceOf(ValidationError);
    const codes = (e as unknown as ValidationError).issues.map((i) => `${i.resource}:${i.path.join('.')}:${i.code}`);
    expect(codes).toEqual(
      expect.arrayContaining([
        'both:originGroup:invalid_value',
        'ip:projectId:missing_project',
        'ip:regionId:missing_region',
      ]),
    );
    expect(codes.some((c) => c.startsWith('r:ruleType'))).toBe(true);
    expect(h().sim.requests).toHaveLength(0);
  });

  it('refreshes drift made behind its back', async () => {
    await h().engine.apply(await h().engine.plan(stack()));
    const r = [...h().sim.store.cdn.resources.values()][0]!;
    r.description = 'edited in the portal';
    const plan = await h().engine.plan(stack(), { refresh: true });
    expect(plan.steps.filter((s) => s.action !== 'noop').map((s) => [s.address, s.action])).toEqual([
      ['site', 'update'],
    ]);
  });

  it('leaves exactly one object per create when creates fail with 500 or lose their answer', async () => {
    h().sim.setFaults({ rate: 0.5, kinds: ['500', 'drop_after'], methods: ['POST'] });
    const decls = [
      ...['a', 'b', 'c', 'd'].map((n) =>
        provc.cdnOriginGroup(n, { name: n, sources: [{ source: `${n}.example.com` }] }),
      ),
      provc.cdnTrustedCaCertificate('ca', { name: 'root', sslCertificate: pem('ca.crt') }),
      provc.cdnRuleTemplate('tpl', { name: 'tpl', rule: '/static/*' }),
    ];
    const result = await h().engine.apply(await h().engine.plan(decls));
    expect(result.failed).toEqual([]);
    expect(h().sim.requests.some((r) => r.fault === 'drop_after')).toBe(true);
    expect(h().sim.store.cdn.originGroups.size).toBe(4);
    expect(h().sim.store.cdn.caCertificates.size).toBe(1);
    expect([...h().sim.store.cdn.ruleTemplates.values()].filter((t) => !t.default)).toHaveLength(1);
    const state = await h().engine.state();
    expect(Object.keys(state.resources).sort()).toEqual(['a', 'b', 'c', 'ca', 'd', 'tpl']);
  });
});
