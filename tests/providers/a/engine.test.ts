import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Engine, MemoryStateStore, ValidationError } from '../../../src/index.js';
import { prova } from '../../../src/providers/a/index.js';
import { simEnv, type SimEnv } from './sim-env.js';

let env: SimEnv;
beforeEach(async () => {
  env = await simEnv();
});
afterEach(async () => {
  expect(env.sim.unmatched).toEqual([]);
  await env.close();
});

const stack = () => {
  const prof = prova.profile('prof', { name: 'cvt-eprof', config: { 'user.team': 'a' } });
  const web = prova.instance('web', {
    name: 'cvt-web',
    image: 'busybox',
    profiles: ['default', prof.out('name')],
    config: { 'user.a': '1' },
  });
  const acl = prova.networkAcl('acl', {
    name: 'cvt-eacl',
    ingresses: [{ action: 'allow', state: 'enabled', protocol: 'tcp', destinationPort: '22' }],
  });
  return [prof, web, acl];
};

describe('prova through the Engine', () => {
  it('plan → apply → plan again is all noop; drift shows in the next plan and is repaired', async () => {
    const engine = new Engine({ providers: [env.provider], state: new MemoryStateStore() });
    const plan = await engine.plan(stack());
    expect(plan.summary.create).toBe(3);
    await engine.apply(plan);
    expect(env.sim.store.instances.get('default/cvt-web')!.profiles).toEqual(['default', 'cvt-eprof']);
    const again = await engine.plan(stack(), { refresh: true });
    expect(again.steps.map((s) => s.action)).toEqual(['noop', 'noop', 'noop']);

    env.sim.store.instances.get('default/cvt-web')!.config['user.a'] = 'drifted';
    const drift = await engine.plan(stack(), { refresh: true });
    const step = drift.steps.find((s) => s.address === 'web')!;
    expect(step.action).toBe('update');
    expect(step.changes.map((c) => c.path)).toContain('config.user.a');
    await engine.apply(drift);
    expect(env.sim.store.instances.get('default/cvt-web')!.config['user.a']).toBe('1');
    expect((await engine.plan(stack(), { refresh: true })).hasChanges).toBe(false);

    await engine.destroy();
    expect(env.sim.store.instances.size).toBe(0);
    expect(env.sim.store.profiles.has('default/cvt-eprof')).toBe(false);
  });

  it('plans a replacement when a replaceOn input changes', async () => {
    const engine = new Engine({ providers: [env.provider], state: new MemoryStateStore() });
    await engine.apply(
      await engine.plan([prova.instance('web', { name: 'cvt-r', image: 'busybox', type: 'container' })]),
    );
    const plan = await engine.plan([prova.instance('web', { name: 'cvt-r', image: 'busybox', ephemeral: true })]);
    expect(plan.steps[0]!.action).toBe('replace');
    expect(plan.steps[0]!.reasons).toContain('ephemeral');
  });

  it('finds a container without an image at plan time, before any request', async () => {
    const engine = new Engine({ providers: [env.provider], state: new MemoryStateStore() });
    env.sim.clearLog();
    const err = await engine.plan([prova.instance('bad', { name: 'cvt-bad' })]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ValidationError);
    expect((err as ValidationError).issues.map((i) => i.path.join('.'))).toContain('image');
    expect(env.sim.requests).toEqual([]);
  });

  it('imports an existing instance and a lookup runs through the engine', async () => {
    const def = env.res('prova:index/instance:Instance');
    await def.create(env.ctx, def.inputs.parse({ name: 'cvt-imp', image: 'busybox' }));
    const engine = new Engine({ providers: [env.provider], state: new MemoryStateStore() });
    const imported = await engine.import(
      prova.instance('imp', { name: 'cvt-imp', image: 'busybox' }),
      'cvt-imp,image=busybox',
    );
    expect(imported.inputs).toMatchObject({ name: 'cvt-imp', image: 'busybox' });
    const plan = await engine.plan([prova.instance('imp', { name: 'cvt-imp', image: 'busybox' })]);
    expect(plan.steps[0]!.action).toBe('noop');
    const got = await engine.lookup(prova.getInstance({ name: 'cvt-imp' }));
    expect(got).toMatchObject({ name: 'cvt-imp', running: true });
  });

  it('returns terraformConfig with upstream key names and the password as the sensitive marker', () => {
    const p = prova({
      socketPath: env.sim.socketPath,
      configDir: env.dir,
      remotes: [{ name: 'r1', address: '10.0.0.1', password: 'pw', default: true }],
      acceptRemoteCertificate: true,
    });
    expect(p.terraformConfig()).toEqual({
      remote: [
        {
          name: 'r1',
          address: 'https://10.0.0.1:8443',
          protocol: 'lxd',
          password: { '@converge': 'sensitive' },
          default: true,
        },
      ],
      accept_remote_certificate: true,
      generate_client_certificates: false,
      config_dir: env.dir,
    });
  });
});

describe('the simulator on loopback', () => {
  it('serves a prova remote over plain HTTP on 127.0.0.1', async () => {
    const { startSimulator } = await import('../../../src/providers/a/simulator/index.js');
    const sim = await startSimulator();
    const p = prova({
      configDir: env.dir,
      pollIntervalMs: 2,
      remotes: [{ name: 'sim', address: sim.address, default: true }],
    });
    try {
      const engine = new Engine({ providers: [p], state: new MemoryStateStore() });
      await engine.apply(await engine.plan([prova.instance('web', { name: 'lo1', image: 'busybox' })]));
      expect(sim.store.instances.get('default/lo1')!.running).toBe(true);
      expect(sim.address).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    } finally {
      await p.close();
      await sim.close();
    }
  });
});

describe('replacement through the Engine', () => {
  it('replaces a network whose name changes: the old one is deleted, the new one created', async () => {
    const engine = new Engine({ providers: [env.provider], state: new MemoryStateStore() });
    await engine.apply(
      await engine.plan([prova.network('net', { name: 'cvt-n1', config: { 'ipv4.address': 'none' } })]),
    );
    const plan = await engine.plan([prova.network('net', { name: 'cvt-n2', config: { 'ipv4.address': 'none' } })]);
    expect(plan.steps[0]!).toMatchObject({ action: 'replace', reasons: ['name'] });
    await engine.apply(plan);
    expect(env.sim.store.networks.has('default/cvt-n1')).toBe(false);
    expect(env.sim.store.networks.has('default/cvt-n2')).toBe(true);
    expect(
      (
        await engine.plan([prova.network('net', { name: 'cvt-n2', config: { 'ipv4.address': 'none' } })], {
          refresh: true,
        })
      ).hasChanges,
    ).toBe(false);
  });

  it('updates an ACL in place and replaces an instance file whose content changes', async () => {
    const engine = new Engine({ providers: [env.provider], state: new MemoryStateStore() });
    const stack = (rules: string, content: string) => [
      prova.networkAcl('acl', {
        name: 'cvt-a',
        ingresses: [{ action: 'allow', state: 'enabled', protocol: 'tcp', destinationPort: rules }],
      }),
      prova.instance('box', { name: 'cvt-box', image: 'busybox' }),
      prova.instanceFile('f', { instance: 'cvt-box', targetPath: '/etc/x', content }, { dependsOn: ['box'] }),
    ];
    await engine.apply(await engine.plan(stack('22', 'one')));
    const plan = await engine.plan(stack('22,80', 'two'));
    expect(Object.fromEntries(plan.steps.map((s) => [s.address, s.action]))).toEqual({
      acl: 'update',
      box: 'noop',
      f: 'replace',
    });
    await engine.apply(plan);
    expect(env.sim.store.instances.get('default/cvt-box')!.files.get('/etc/x')!.content).toBe('two');
    expect((env.sim.store.acls.get('default/cvt-a')!.ingress as Record<string, string>[])[0]!.destination_port).toBe(
      '22,80',
    );
  });
});
