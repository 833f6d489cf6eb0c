// The example policies of converge/policies (issue 27), each passing and failing against the
// providers' in-process simulators (Civo, Gcore, the fake LXD; never a real daemon): a failing plan
// names the policy, resource and path, and its apply is refused with nothing made; a passing plan
// applies. Checks on values known only after apply stay pending at plan and run again at apply.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ApplyError, Engine, MemoryStateStore, PolicyViolationError, type Policy, type Provider } from 'converge';
import { civoDatabaseFirewall, civoNoSshFromWorld, gcoreCdnHttpsRedirect, lxdMemoryLimit } from 'converge/policies';
import { provb } from 'converge/providers/b';
import { provc } from 'converge/providers/c';
import { prova } from 'converge/providers/a';
import { startSimulator as startCivo, type CivoSimulator } from 'converge/providers/b/simulator';
import { startSimulator as startGcore } from 'converge/providers/c/simulator';
import { startSimulator as startLxd } from 'converge/providers/a/simulator';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of closers.splice(0).reverse()) await c();
});

const mandatory = (policy: Policy) => [{ policy, level: 'mandatory' as const }];

async function civo(policy: Policy): Promise<{ sim: CivoSimulator; engine: Engine }> {
  const sim = await startCivo();
  closers.push(() => sim.close());
  const engine = new Engine({
    providers: [provb({ token: sim.token, apiEndpoint: sim.url, region: 'LON1', pollIntervalMs: 1 })],
    state: new MemoryStateStore(),
    retry: { retries: 2, minTimeoutMs: 1, maxTimeoutMs: 2 },
    policies: mandatory(policy),
  });
  return { sim, engine };
}

describe('example policies', () => {
  it('name resource types the providers serve', () => {
    const tokens = new Set(
      [
        provb({ token: 't', region: 'LON1' }),
        provc({ apiKey: 'k', env: {} }),
        prova({ socketPath: '/nonexistent' }),
      ].flatMap((p: Provider<unknown>) => [...p.resources.keys()]),
    );
    for (const p of [civoNoSshFromWorld, civoDatabaseFirewall, gcoreCdnHttpsRedirect, lxdMemoryLimit])
      expect(
        p.types?.every((t) => tokens.has(t)),
        p.name,
      ).toBe(true);
  });

  describe('civo-no-ssh-from-world', () => {
    it('fails SSH from 0.0.0.0/0 and the default rules, naming each path; apply makes nothing', async () => {
      const { sim, engine } = await civo(civoNoSshFromWorld);
      const firewalls = sim.store.firewalls.size;
      const plan = await engine.plan([
        provb.firewall('defaults', { name: 'defaults' }),
        provb.firewall('open', {
          name: 'open',
          createDefaultRules: false,
          ingressRules: [
            { protocol: 'tcp', portRange: '443', cidrs: ['0.0.0.0/0'], action: 'allow' },
            { protocol: 'tcp', portRange: '20-30', cidrs: ['10.0.0.0/8', '0.0.0.0/0'], action: 'allow' },
          ],
        }),
      ]);
      expect(plan.violations.map((v) => `${v.address} ${v.path}`)).toEqual([
        'defaults createDefaultRules',
        'open ingressRules[1].cidrs[1]',
      ]);
      await expect(engine.apply(plan)).rejects.toBeInstanceOf(PolicyViolationError);
      expect(sim.store.firewalls.size).toBe(firewalls);
    });

    it('passes SSH from a private range, a denied or non-SSH rule; and re-checks a CIDR known at apply', async () => {
      const { sim, engine } = await civo(civoNoSshFromWorld);
      const firewalls = sim.store.firewalls.size;
      const net = provb.network('net', { label: 'pol-net', cidrV4: '10.20.0.0/24' });
      const plan = await engine.plan([
        net,
        provb.firewall('fw', {
          name: 'fw',
          networkId: net.out('networkId'),
          createDefaultRules: false,
          ingressRules: [
            { protocol: 'tcp', portRange: '22', cidrs: ['10.0.0.0/8'], action: 'allow' },
            { protocol: 'tcp', portRange: '22', cidrs: ['0.0.0.0/0'], action: 'deny' },
            { protocol: 'udp', portRange: '22', cidrs: ['0.0.0.0/0'], action: 'allow' },
            { protocol: 'tcp', portRange: '22', cidrs: [net.out('cidrV4')], action: 'allow' },
          ],
        }),
      ]);
      expect(plan.violations).toEqual([]);
      expect(plan.pendingChecks).toMatchObject([{ address: 'fw', path: 'ingressRules[3].cidrs[0]' }]);
      await engine.apply(plan);
      expect(sim.store.firewalls.size).toBe(firewalls + 1);
    });
  });

  describe('civo-database-firewall', () => {
    const db = (firewallId?: unknown) =>
      provb.database('db', {
        name: 'pol-db',
        engine: 'mysql',
        version: '8.0',
        size: 'g3.db.small',
        nodes: 1,
        ...(firewallId !== undefined ? { firewallId: firewallId as string } : {}),
      });

    it('fails a database without a firewall; apply makes nothing', async () => {
      const { sim, engine } = await civo(civoDatabaseFirewall);
      const plan = await engine.plan([db()]);
      expect(plan.violations).toMatchObject([{ policy: 'civo-database-firewall', address: 'db', path: 'firewallId' }]);
      await expect(engine.apply(plan)).rejects.toBeInstanceOf(PolicyViolationError);
      expect(sim.store.databases.size).toBe(0);
    });

    it('passes a database whose firewall is made in the same apply: pending at plan, checked with the id at apply', async () => {
      const { sim, engine } = await civo(civoDatabaseFirewall);
      const fw = provb.firewall('fw', {
        name: 'db-fw',
        createDefaultRules: false,
        ingressRules: [{ protocol: 'tcp', portRange: '3306', cidrs: ['10.0.0.0/8'], action: 'allow' }],
      });
      const plan = await engine.plan([fw, db(fw.out('firewallId'))]);
      expect(plan.violations).toEqual([]);
      expect(plan.pendingChecks).toMatchObject([{ address: 'db', reason: 'firewallId is known only after apply' }]);
      await engine.apply(plan);
      expect([...sim.store.databases.values()].map((d) => d.firewall_id)).toEqual([
        [...sim.store.firewalls.values()].find((f) => f.name === 'db-fw')!.id,
      ]);
    });

    it('stops the database at apply when the id it gets is blank, and the simulator sees no create', async () => {
      const { sim, engine } = await civo(civoDatabaseFirewall);
      // An unassigned reserved IP's instanceId is '': known only at apply, and blank.
      const ip = provb.reservedIp('ip', { name: 'pol-ip' });
      const plan = await engine.plan([ip, db(ip.out('instanceId'))]);
      expect(plan.pendingChecks.map((c) => c.address)).toEqual(['db']);
      const err = await engine.apply(plan).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ApplyError);
      expect((err as ApplyError).result.failed[0]!.error).toBeInstanceOf(PolicyViolationError);
      expect(sim.store.databases.size).toBe(0);
      expect(sim.requests.filter((r) => r.method === 'POST' && r.path.startsWith('/v2/databases'))).toEqual([]);
    });
  });

  describe('gcore-cdn-https-redirect', () => {
    it('fails a CDN resource without the redirect and passes one with it', async () => {
      const sim = await startGcore();
      closers.push(() => sim.close());
      const engine = new Engine({
        providers: [provc({ apiKey: sim.apiKey, baseUrl: sim.baseUrl, env: {} })],
        state: new MemoryStateStore(),
        retry: { retries: 2, minTimeoutMs: 1, maxTimeoutMs: 2 },
        policies: mandatory(gcoreCdnHttpsRedirect),
      });
      const cdn = (options: Record<string, unknown>) =>
        provc.cdnResource('site', { cname: 'cdn.example.com', origin: 'origin.example.com', options });
      const bad = await engine.plan([cdn({ redirect_http_to_https: { enabled: false, value: true } })]);
      expect(bad.violations).toMatchObject([{ address: 'site', path: 'options.redirect_http_to_https' }]);
      expect((await engine.plan([cdn({})])).violations).toHaveLength(1);
      await expect(engine.apply(bad)).rejects.toBeInstanceOf(PolicyViolationError);
      const good = await engine.plan([cdn({ redirect_http_to_https: { enabled: true, value: true } })]);
      expect(good.violations).toEqual([]);
      const result = await engine.apply(good);
      expect(result.outputs.site).toMatchObject({ cname: 'cdn.example.com' });
    });
  });

  describe('lxd-memory-limit', () => {
    it('fails an instance without limits.memory and passes one with it (the fake LXD)', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'cvt-policy-lxd-'));
      closers.push(async () => rmSync(dir, { recursive: true, force: true }));
      const sim = await startLxd({ socketPath: join(dir, 'unix.socket') });
      closers.push(() => sim.close());
      const engine = new Engine({
        providers: [prova({ socketPath: sim.socketPath, configDir: join(dir, 'config'), pollIntervalMs: 2 })],
        state: new MemoryStateStore(),
        retry: { retries: 2, minTimeoutMs: 1, maxTimeoutMs: 2 },
        policies: mandatory(lxdMemoryLimit),
      });
      const bad = await engine.plan([
        prova.instance('web', { name: 'cvt-pol-web', image: 'busybox', limits: { cpu: '1' } }),
      ]);
      expect(bad.violations).toMatchObject([{ policy: 'lxd-memory-limit', address: 'web', path: 'limits.memory' }]);
      await expect(engine.apply(bad)).rejects.toBeInstanceOf(PolicyViolationError);
      const good = await engine.plan([
        prova.instance('web', { name: 'cvt-pol-web', image: 'busybox', limits: { memory: '256MiB' } }),
      ]);
      expect(good.violations).toEqual([]);
      await engine.apply(good);
      expect((await engine.state()).resources.web?.inputs).toMatchObject({ limits: { memory: '256MiB' } });
    });
  });
});
