import { describe, expect, it } from 'vitest';
import { ApplyError, Engine, MemoryStateStore, ValidationError, type Event } from 'converge';
import { provb } from 'converge/providers/b';
import type { CivoSimulator } from 'converge/providers/b/simulator';
import { fastTransitions, harness } from './harness.js';

/** The full stack of the issue: network, firewall with rules, instance, reserved IP assignment, DNS, cluster + pool, database, volume attached, object store and credential. */
function stack(opts: { webTags?: string[]; nodeCount?: number } = {}) {
  const net = provb.network('net', { label: 'app' });
  const fw = provb.firewall('fw', {
    name: 'app-fw',
    networkId: net.out('networkId'),
    createDefaultRules: false,
    ingressRules: [
      { label: 'ssh', portRange: '22', cidrs: ['0.0.0.0/0'], action: 'allow' },
      { label: 'web', portRange: '80-443', cidrs: ['0.0.0.0/0'], action: 'allow' },
    ],
    egressRules: [{ label: 'all', portRange: '1-65535', cidrs: ['0.0.0.0/0'], action: 'allow' }],
  });
  const web = provb.instance('web', {
    hostname: 'web1',
    diskImage: 'ubuntu-jammy',
    firewallId: fw.out('firewallId'),
    networkId: net.out('networkId'),
    tags: opts.webTags ?? ['web'],
  });
  const ip = provb.reservedIp('ip', { name: 'web-ip' });
  const assign = provb.instanceReservedIpAssignment('assign', {
    instanceId: web.out('instanceId'),
    reservedIpId: ip.out('reservedIpId'),
  });
  const domain = provb.dnsDomainName('domain', { name: 'example.com' });
  const www = provb.dnsDomainRecord('www', {
    domainId: domain.out('dnsDomainNameId'),
    type: 'a',
    name: 'www',
    value: ip.out('ip'),
  });
  const mx = provb.dnsDomainRecord('mx', {
    domainId: domain.out('dnsDomainNameId'),
    type: 'mx',
    name: '@',
    value: 'mail.example.com',
  });
  const k8s = provb.kubernetesCluster('k8s', {
    name: 'k1',
    firewallId: fw.out('firewallId'),
    networkId: net.out('networkId'),
    pools: { label: 'main', nodeCount: opts.nodeCount ?? 2, size: 'g4s.kube.small' },
  });
  const pool = provb.kubernetesNodePool('pool', {
    clusterId: k8s.out('clusterId'),
    label: 'extra',
    nodeCount: 1,
    size: 'g4s.kube.medium',
  });
  const db = provb.database('db', {
    name: 'db1',
    engine: 'mysql',
    version: '8.0',
    size: 'g3.db.small',
    nodes: 1,
    networkId: net.out('networkId'),
    firewallId: fw.out('firewallId'),
  });
  const vol = provb.volume('vol', { name: 'data', sizeGb: 10, networkId: net.out('networkId') });
  const attach = provb.volumeAttachment('attach', { instanceId: web.out('instanceId'), volumeId: vol.out('volumeId') });
  const cred = provb.objectStoreCredential('cred', { name: 'app-cred' });
  const bucket = provb.objectStore('bucket', { name: 'app-bucket', accessKeyId: cred.out('accessKeyId') });
  return [net, fw, web, ip, assign, domain, www, mx, k8s, pool, db, vol, attach, cred, bucket];
}

function engineFor(sim: CivoSimulator, events: Event[] = [], retries = 3) {
  return new Engine({
    providers: [provb({ token: sim.token, apiEndpoint: sim.url, region: 'LON1', pollIntervalMs: 1 })],
    state: new MemoryStateStore(),
    retry: { retries, minTimeoutMs: 1, maxTimeoutMs: 4 },
    onEvent: (e) => events.push(e),
  });
}

/** What the stack leaves in the simulator beyond its seeded defaults (4 regions: a network and a firewall each). */
function made(sim: CivoSimulator) {
  const c = sim.store.counts();
  const pools = [...sim.store.clusters.values()].reduce((n, cl) => n + cl.pools.length, 0);
  return { ...c, networks: c.networks - 4, firewalls: c.firewalls - 4, pools };
}
const expected = {
  instances: 1,
  networks: 1,
  subnets: 0,
  firewalls: 1,
  volumes: 1,
  ips: 1,
  loadbalancers: 0,
  clusters: 1,
  databases: 1,
  domains: 1,
  records: 2,
  sshkeys: 0,
  objectStores: 1,
  credentials: 1,
  pools: 2,
};

describe('provb through the engine', () => {
  it('applies the full stack, plans it again as all noop, updates in place and destroys it', async () => {
    const { sim } = await harness({ transitions: { ...fastTransitions, cluster: 150, database: 100 } });
    const events: Event[] = [];
    const engine = engineFor(sim, events);
    const plan = await engine.plan(stack());
    expect(plan.summary.create).toBe(15);
    const result = await engine.apply(plan);
    expect(result.failed).toEqual([]);
    expect(made(sim)).toEqual(expected);
    expect(events.some((e) => e.type === 'poll')).toBe(true);

    const again = await engine.plan(stack(), { refresh: true });
    expect(again.steps.filter((s) => s.action !== 'noop').map((s) => [s.address, s.action, s.changes])).toEqual([]);
    const rendered = again.render() + JSON.stringify(again);
    const db = [...sim.store.databases.values()][0]!;
    expect(rendered).not.toContain(db.password);
    expect(rendered).not.toContain(sim.token);
    const k8s = [...sim.store.clusters.values()][0]!;
    const said = JSON.stringify(events);
    for (const secret of [db.password, k8s.kubeconfig, sim.token]) expect(said).not.toContain(secret);

    // The assignment moved the instance's public IP; a refresh shows it.
    await engine.refresh();
    const state = await engine.state();
    expect(state.resources.web!.outputs.publicIp).toBe(state.resources.ip!.outputs.ip);

    const changed = await engine.plan(stack({ webTags: ['web', 'prod'], nodeCount: 3 }));
    expect(
      changed.steps
        .filter((s) => s.action !== 'noop')
        .map((s) => [s.address, s.action])
        .sort(),
    ).toEqual([
      ['k8s', 'update'],
      ['web', 'update'],
    ]);
    await engine.apply(changed);
    expect([...sim.store.instances.values()][0]!.tags).toEqual(['web', 'prod']);
    expect((await engine.plan(stack({ webTags: ['web', 'prod'], nodeCount: 3 }))).hasChanges).toBe(false);

    const destroyed = await engine.destroy();
    expect(destroyed.failed).toEqual([]);
    expect(Object.values(made(sim)).every((n) => n === 0)).toBe(true);
    expect(sim.unmatched).toEqual([]);
  });

  it('plans drift made in the simulator as an update', async () => {
    const { sim } = await harness();
    const engine = engineFor(sim);
    const decls = stack().filter((d) => ['net', 'fw', 'vol', 'domain', 'mx'].includes(d.name));
    await engine.apply(await engine.plan(decls));
    [...sim.store.volumes.values()][0]!.size_gb = 10;
    [...sim.store.records.values()][0]!.ttl = 3600;
    const plan = await engine.plan(decls, { refresh: true });
    expect(
      plan.steps.filter((s) => s.action !== 'noop').map((s) => [s.address, s.action, s.changes.map((c) => c.path)]),
    ).toEqual([['mx', 'update', ['ttl']]]);
  });

  it('imports a DNS domain by its name and plans it as noop', async () => {
    const { sim, provider, ctx } = await harness();
    const def = provider.resources.get('provb:index/dnsDomainName:DnsDomainName')!;
    const made = await def.create(ctx(), { name: 'imported.example' });
    const engine = engineFor(sim);
    const decl = provb.dnsDomainName('d', { name: 'imported.example' });
    await engine.import(decl, 'imported.example');
    expect((await engine.state()).resources.d!.id).toBe(made.id);
    expect((await engine.plan([decl])).steps.map((s) => s.action)).toEqual(['noop']);
  });

  it('runs lookups through the engine, validating their arguments first', async () => {
    const { sim } = await harness();
    const engine = engineFor(sim);
    await engine.apply(await engine.plan(stack().filter((d) => ['net', 'fw', 'web'].includes(d.name))));
    const found = await engine.lookup(provb.getInstance({ hostname: 'web1' }));
    expect(found).toMatchObject({ hostname: 'web1', region: 'LON1' });
    const sizes = await engine.lookup(
      provb.getSize({ filters: [{ key: 'type', values: ['database'] }], sorts: [{ key: 'name', direction: 'desc' }] }),
    );
    expect(sizes.sizes.map((s) => s.name)).toEqual(['g3.db.small', 'g3.db.medium']);
    const bad = await engine.lookup(provb.getSize({ filters: [{ key: 'colour', values: ['red'] }] })).catch((e) => e);
    expect(bad).toBeInstanceOf(ValidationError);
  });

  it('reports every invalid input at plan time and sends no request', async () => {
    const { sim } = await harness();
    const engine = new Engine({
      providers: [provb({ token: sim.token, apiEndpoint: sim.url })],
      state: new MemoryStateStore(),
    });
    const bad = [
      provb.dnsDomainRecord('r', { domainId: 'd', type: 'a', name: '@', value: '192.0.2.1', ttl: 60, priority: 3 }),
      provb.firewall('f', {
        name: 'f',
        region: 'LON1',
        ingressRules: [{ portRange: '22', cidrs: ['0.0.0.0/0'], action: 'allow' }],
      }),
      provb.volume('v', { name: 'v', sizeGb: 1 }),
    ];
    const e = await engine.plan(bad).catch((x) => x);
    expect(e).toBeInstanceOf(ValidationError);
    const codes = (e as ValidationError).issues.map((i) => `${i.resource}:${i.path.join('.')}`);
    expect(codes).toEqual(expect.arrayContaining(['r:ttl', 'f:createDefaultRules', 'v:region']));
    expect((e as ValidationError).issues.find((i) => i.resource === 'v')?.code).toBe('missing_region');
    expect(sim.requests).toHaveLength(0);
  });

  it('adopts every object whose create answer was lost instead of creating it again', async () => {
    const { sim } = await harness({ faults: { rate: 1, kinds: ['drop_after'], methods: ['POST'] } });
    const engine = engineFor(sim);
    const decls = stack().filter((d) => !['assign', 'attach'].includes(d.name));
    const result = await engine.apply(await engine.plan(decls));
    expect(result.failed).toEqual([]);
    expect(made(sim)).toEqual(expected);
    expect(sim.requests.filter((r) => r.fault === 'drop_after').length).toBeGreaterThanOrEqual(13);
    sim.setFaults(undefined);
    expect((await engine.plan(decls, { refresh: true })).hasChanges).toBe(false);
  });

  it('converges under 20% injected faults with nothing created twice', async () => {
    const { sim } = await harness({ faults: { rate: 0.2, retryAfterSeconds: 0 }, seed: 7 });
    const engine = engineFor(sim, [], 8);
    let converged = false;
    for (let round = 0; round < 8 && !converged; round++) {
      try {
        const plan = await engine.plan(stack(), { refresh: true });
        if (!plan.hasChanges) {
          converged = true;
          break;
        }
        await engine.apply(plan);
      } catch (error) {
        if (!(error instanceof ApplyError) && !(error as Error).message.includes('Refreshing')) throw error;
      }
    }
    expect(converged).toBe(true);
    expect(made(sim)).toEqual(expected);
    expect(sim.requests.some((r) => r.fault)).toBe(true);

    // Updates and the destroy converge under the same faults.
    for (let round = 0; round < 8; round++) {
      try {
        const plan = await engine.plan(stack({ webTags: ['web', 'faulty'], nodeCount: 3 }), { refresh: true });
        if (!plan.hasChanges) break;
        await engine.apply(plan);
      } catch (error) {
        if (!(error instanceof ApplyError) && !(error as Error).message.includes('Refreshing')) throw error;
      }
    }
    expect([...sim.store.instances.values()][0]!.tags).toEqual(['web', 'faulty']);
    for (let round = 0; round < 8 && Object.keys((await engine.state()).resources).length; round++) {
      await engine.destroy().catch((error) => {
        if (!(error instanceof ApplyError)) throw error;
      });
    }
    expect(Object.keys((await engine.state()).resources)).toEqual([]);
    expect(Object.values(made(sim)).every((n) => n === 0)).toBe(true);
  });
});

describe('provb plans through the engine', () => {
  it('plans a replacement naming the path for a pool size change, and an update for a node count change', async () => {
    const { sim } = await harness();
    const engine = engineFor(sim);
    const fw = provb.firewall('fw', { name: 'k-fw' });
    const k = (size: string, nodeCount: number) =>
      provb.kubernetesCluster('k8s', {
        name: 'kp',
        firewallId: fw.out('firewallId'),
        pools: { label: 'main', nodeCount, size },
      });
    await engine.apply(await engine.plan([fw, k('g4s.kube.small', 1)]));
    const scale = await engine.plan([fw, k('g4s.kube.small', 2)]);
    expect(scale.steps.find((s) => s.address === 'k8s')?.action).toBe('update');
    const resize = await engine.plan([fw, k('g4s.kube.large', 1)]);
    const step = resize.steps.find((s) => s.address === 'k8s')!;
    expect(step.action).toBe('replace');
    expect(step.reasons.map(String).join(' ')).toContain('pools.size');
  });
});
