import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ProviderError } from '../../../src/engine/errors.js';
import { simEnv, type SimEnv } from './sim-env.js';

const T = 'prova:index/instance:Instance';
let env: SimEnv;
beforeEach(async () => {
  env = await simEnv();
});
afterEach(async () => {
  expect(env.sim.unmatched).toEqual([]);
  await env.close();
});

const parse = (inputs: Record<string, unknown>) => env.res(T).inputs.parse(inputs);

describe('Instance', () => {
  it('creates a running container and waits until eth0 has a global IPv4 address', async () => {
    (env.sim.store.options as { networkDelayMs: number }).networkDelayMs = 300;
    const i = parse({ name: 'c1', image: 'busybox' });
    const c = await env.res(T).create(env.ctx, i);
    expect(c.id).toBe('local:default/c1');
    expect(c.outputs).toMatchObject({
      status: 'Running',
      location: '',
      ipv6Address: '',
      macAddress: expect.stringMatching(/^00:16:3e:/),
    });
    expect(c.outputs.ipv4Address).toMatch(/^198\.18\.0\.\d+$/);
    expect((c.outputs.interfaces as Record<string, { name: string }>).eth0!.name).toBe('eth0');
    expect(env.reports.some((r) => r.kind === 'poll')).toBe(true);
  });

  it('creates it stopped when running is false, ignoring waitForNetwork', async () => {
    const c = await env.res(T).create(env.ctx, parse({ name: 'c2', image: 'busybox', running: false }));
    expect(c.outputs).toMatchObject({ status: 'Stopped', ipv4Address: '' });
    expect(env.sim.requests.some((r) => r.path.endsWith('/state') && r.method === 'PUT')).toBe(false);
  });

  it('toggles running off and on again', async () => {
    const i = parse({ name: 'c3', image: 'busybox' });
    const c = await env.res(T).create(env.ctx, i);
    const off = parse({ name: 'c3', image: 'busybox', running: false });
    const u1 = await env.res(T).update!(env.ctx, c.id, { inputs: i, outputs: c.outputs }, off);
    expect(u1.outputs.status).toBe('Stopped');
    const u2 = await env.res(T).update!(env.ctx, c.id, { inputs: off, outputs: u1.outputs }, i);
    expect(u2.outputs.status).toBe('Running');
    expect(u2.outputs.ipv4Address).toMatch(/^198\.18\.0\./);
  });

  it('refuses a rename of a running instance without allowRestart, before changing anything, naming the field', async () => {
    const i = parse({ name: 'c4', image: 'busybox' });
    const c = await env.res(T).create(env.ctx, i);
    env.sim.clearLog();
    const err = await env.res(T).update!(
      env.ctx,
      c.id,
      { inputs: i, outputs: c.outputs },
      parse({ name: 'c4b', image: 'busybox' }),
    ).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProviderError);
    expect((err as ProviderError).vendorCode).toBe('restart_required');
    expect((err as ProviderError).message).toContain('`name`');
    expect(env.sim.requests.filter((r) => r.method !== 'GET')).toEqual([]);
  });

  it('renames with allowRestart: stops, renames, starts again', async () => {
    const i = parse({ name: 'c5', image: 'busybox', allowRestart: true });
    const c = await env.res(T).create(env.ctx, i);
    const news = parse({ name: 'c5b', image: 'busybox', allowRestart: true });
    const u = await env.res(T).update!(env.ctx, c.id, { inputs: i, outputs: c.outputs }, news);
    expect(u.outputs.status).toBe('Running');
    expect(env.sim.store.instances.has('default/c5b')).toBe(true);
    const r = await env.res(T).read(env.ctx, c.id, { inputs: news, outputs: u.outputs });
    expect(r?.inputs.name).toBe('c5b');
  });

  it('writes the whole object back with If-Match, keeping volatile keys and profiles', async () => {
    const i = parse({ name: 'c6', image: 'busybox', config: { 'user.a': '1' } });
    const c = await env.res(T).create(env.ctx, i);
    const news = parse({ name: 'c6', image: 'busybox', config: { 'user.b': '2' }, limits: { memory: '64MB' } });
    await env.res(T).update!(env.ctx, c.id, { inputs: i, outputs: c.outputs }, news);
    const put = env.sim.requests.find((r) => r.method === 'PUT' && r.path === '/1.0/instances/c6')!;
    const body = put.body as { config: Record<string, string>; profiles: string[] };
    expect(body.profiles).toEqual(['default']);
    expect(body.config).toMatchObject({ 'user.b': '2', 'limits.memory': '64MB', 'volatile.idmap.base': '0' });
    expect(body.config['user.a']).toBeUndefined();
    const inst = env.sim.store.instances.get('default/c6')!;
    expect(inst.config['user.b']).toBe('2');
    const r = await env.res(T).read(env.ctx, c.id, { inputs: news, outputs: {} });
    expect(r?.inputs).toMatchObject({ config: { 'user.b': '2' }, limits: { memory: '64MB' }, running: true });
  });

  it('reads drift made out of band and returns null once it is gone', async () => {
    const i = parse({ name: 'c7', image: 'busybox' });
    const c = await env.res(T).create(env.ctx, i);
    env.sim.store.instances.get('default/c7')!.config['user.extra'] = 'x';
    const r = await env.res(T).read(env.ctx, c.id, { inputs: i, outputs: c.outputs });
    expect(r?.inputs.config).toEqual({ 'user.extra': 'x' });
    await env.res(T).delete(env.ctx, c.id, { inputs: i, outputs: c.outputs });
    expect(env.sim.store.instances.size).toBe(0);
    expect(await env.res(T).read(env.ctx, c.id, { inputs: i, outputs: c.outputs })).toBeNull();
  });

  it('uploads files and runs execs, recording output and exit codes', async () => {
    const i = parse({
      name: 'c8',
      image: 'busybox',
      files: [{ targetPath: '/opt/app/conf', content: 'hello', createDirectories: true }],
      execs: {
        a_cat: { command: ['cat', '/opt/app/conf'], recordOutput: true },
        b_fail: { command: ['sh', '-c', 'exit 3'] },
        c_once: { command: ['true'], trigger: 'once' },
      },
    });
    const c = await env.res(T).create(env.ctx, i);
    const f = env.sim.store.instances.get('default/c8')!.files;
    expect(f.get('/opt/app/conf')).toMatchObject({ content: 'hello', mode: 0o755 });
    expect(f.get('/opt')?.type).toBe('directory');
    expect(c.outputs.execResults).toMatchObject({
      a_cat: { exitCode: 0, stdout: 'hello', runCount: 1 },
      b_fail: { exitCode: 3, runCount: 1 },
      c_once: { runCount: 1 },
    });
    expect(env.sim.store.logs.size).toBe(0);
    const u = await env.res(T).update!(env.ctx, c.id, { inputs: i, outputs: c.outputs }, i);
    expect(u.outputs.execResults).toMatchObject({ a_cat: { runCount: 2 }, c_once: { runCount: 1 } });
  });

  it('reads an imported instance of another project with that project', async () => {
    env.sim.store.projects.set('p1', { name: 'p1', description: '', config: {} });
    const made = await env.res(T).create(env.ctx, parse({ name: 'pc', image: 'busybox', project: 'p1' }));
    expect(made.id).toBe('local:p1/pc');
    expect(env.sim.requests.find((r) => r.method === 'POST' && r.path === '/1.0/instances')!.query).toBe('?project=p1');
    const r = await env
      .res(T)
      .read(env.ctx, env.res(T).importId!('p1/pc', env.provider.config), { inputs: {}, outputs: {} });
    expect(r!.inputs).toMatchObject({ name: 'pc', project: 'p1', running: true });
  });

  it('imports by id with the image option', () => {
    const id = env.res(T).importId!('proj/web1,image=busybox', env.provider.config);
    expect(id).toBe('local:proj/web1,image=busybox');
  });

  it('reports a container without image, reserved config keys and bad exec keys as validation issues', () => {
    const issues = env.res(T).check!(
      parse({ name: 'x', config: { 'limits.cpu': '1' }, execs: { 'Bad-Key': { command: ['true'] } } }),
      env.provider.config,
    );
    expect(issues.map((i) => i.path.join('.'))).toEqual(['image', 'config.limits.cpu', 'execs.Bad-Key']);
  });

  it('fails with the LXD message when the create operation fails', async () => {
    const err = await env
      .res(T)
      .create(env.ctx, parse({ name: 'c9', image: 'busybox', limits: { bogus: '1' } }))
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProviderError);
    expect((err as ProviderError).detail).toContain('Unknown configuration key: limits.bogus');
  });
});

describe('Instance on a cluster (simulated)', () => {
  it('places it with target, refuses a migration without allowRestart naming target, migrates with it', async () => {
    await env.close();
    env = await simEnv({ members: ['m1', 'm2'] });
    const i = parse({ name: 'cl1', image: 'busybox', target: 'm1' });
    const c = await env.res(T).create(env.ctx, i);
    expect(c.outputs.location).toBe('m1');
    expect(env.sim.requests.find((r) => r.method === 'POST' && r.path === '/1.0/instances')!.query).toBe('?target=m1');
    const err = await env.res(T).update!(
      env.ctx,
      c.id,
      { inputs: i, outputs: c.outputs },
      parse({ name: 'cl1', image: 'busybox', target: 'm2' }),
    ).catch((e: unknown) => e);
    expect((err as ProviderError).message).toContain('`target`');
    expect(env.sim.store.instances.get('default/cl1')!.location).toBe('m1');
    const moved = await env.res(T).update!(
      env.ctx,
      c.id,
      { inputs: i, outputs: c.outputs },
      parse({ name: 'cl1', image: 'busybox', target: 'm2', allowRestart: true }),
    );
    expect(moved.outputs).toMatchObject({ location: 'm2', status: 'Running' });
    const info = (await env.provider.lookups.get('prova:index/getInfo:getInfo')!.run(env.ctx, {})) as {
      clusterMembers: Record<string, { status: string }>;
    };
    expect(Object.keys(info.clusterMembers)).toEqual(['m1', 'm2']);
  });

  it('parses memory sizes for the VM memory-growth restart rule', async () => {
    const { memoryBytes } = await import('../../../src/providers/a/support/instances.js');
    expect(memoryBytes('1GiB')).toBe(1024 ** 3);
    expect(memoryBytes('512MB')).toBe(512e6);
    expect(memoryBytes('2048')).toBe(2048);
    expect(memoryBytes('50%')).toBeUndefined();
  });
});
