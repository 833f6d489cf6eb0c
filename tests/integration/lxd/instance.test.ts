// A busybox container on the real daemon: running with an IPv4 on the test bridge, stopped,
// started again, renamed only with allowRestart, drift made with lxc seen by a read, execs and files.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ProviderError } from '../../../src/engine/errors.js';
import { cleanupCvt, describeLxd, lxc, lxcExecOut, realEnv, type RealEnv, n } from './lxd-env.js';

describeLxd('prova Instance against a real LXD', (facts) => {
  let env: RealEnv;
  beforeAll(() => {
    cleanupCvt();
    env = realEnv(facts);
  });
  afterAll(async () => {
    await env.close();
    cleanupCvt();
  });
  const T = 'prova:index/instance:Instance';

  it('create → running with a global IPv4 on the test bridge; running:false → stopped; toggled back', async () => {
    const def = env.res(T);
    const on = def.inputs.parse({ name: n('cvt-inst1'), image: facts.image });
    const made = await def.create(env.ctx, on);
    try {
      expect(made.outputs.status).toBe('Running');
      expect(made.outputs.ipv4Address).toMatch(/^198\.18\.0\.\d+$/);
      expect(made.outputs.macAddress).toMatch(/^00:16:3e:/);
      expect(lxc(['list', n('cvt-inst1'), '--format', 'csv', '-c', '4'])).toContain(String(made.outputs.ipv4Address));
      const off = def.inputs.parse({ ...on, running: false });
      const stopped = await def.update!(env.ctx, made.id, { inputs: on, outputs: made.outputs }, off);
      expect(stopped.outputs).toMatchObject({ status: 'Stopped', ipv4Address: '' });
      expect(lxc(['list', n('cvt-inst1'), '--format', 'csv', '-c', 's']).trim()).toBe('STOPPED');
      const back = await def.update!(env.ctx, made.id, { inputs: off, outputs: stopped.outputs }, on);
      expect(back.outputs.status).toBe('Running');
      expect(back.outputs.ipv4Address).toMatch(/^198\.18\.0\.\d+$/);
    } finally {
      await def.delete(env.ctx, made.id, { inputs: on, outputs: made.outputs });
    }
    expect(lxc(['list', n('cvt-inst1'), '--format', 'csv', '-c', 'n']).trim()).toBe('');
  });

  it('creates stopped with running:false and never waits for the network', async () => {
    const def = env.res(T);
    const i = def.inputs.parse({ name: n('cvt-inst2'), image: facts.image, running: false });
    const made = await def.create(env.ctx, i);
    try {
      expect(made.outputs).toMatchObject({ status: 'Stopped', ipv4Address: '', interfaces: {} });
    } finally {
      await def.delete(env.ctx, made.id, { inputs: i, outputs: made.outputs });
    }
  });

  it('refuses a rename without allowRestart and does it with allowRestart', async () => {
    const def = env.res(T);
    const i = def.inputs.parse({ name: n('cvt-inst3'), image: facts.image });
    const made = await def.create(env.ctx, i);
    let current = i;
    try {
      const err = await def.update!(
        env.ctx,
        made.id,
        { inputs: i, outputs: made.outputs },
        def.inputs.parse({ ...i, name: n('cvt-inst3b') }),
      ).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ProviderError);
      expect((err as ProviderError).message).toContain('allowRestart');
      expect(lxc(['list', n('cvt-inst3'), '--format', 'csv', '-c', 's']).trim()).toBe('RUNNING');
      const renamed = def.inputs.parse({ ...i, name: n('cvt-inst3b'), allowRestart: true });
      const u = await def.update!(env.ctx, made.id, { inputs: i, outputs: made.outputs }, renamed);
      current = renamed;
      expect(u.outputs.status).toBe('Running');
      expect(lxc(['list', n('cvt-inst3b'), '--format', 'csv', '-c', 's']).trim()).toBe('RUNNING');
    } finally {
      await def.delete(env.ctx, made.id, { inputs: current, outputs: made.outputs });
    }
  });

  it('sees drift made with the lxc CLI in the next read', async () => {
    const def = env.res(T);
    const i = def.inputs.parse({ name: n('cvt-inst4'), image: facts.image, config: { 'user.owner': 'converge' } });
    const made = await def.create(env.ctx, i);
    try {
      lxc(['config', 'set', n('cvt-inst4'), 'user.owner', 'someone-else']);
      lxc(['config', 'set', n('cvt-inst4'), 'user.extra', 'x']);
      lxc(['stop', '--force', n('cvt-inst4')]);
      const r = await def.read(env.ctx, made.id, { inputs: i, outputs: made.outputs });
      expect(r!.inputs).toMatchObject({ config: { 'user.owner': 'someone-else', 'user.extra': 'x' }, running: false });
      expect(r!.outputs.status).toBe('Stopped');
    } finally {
      await def.delete(env.ctx, made.id, { inputs: i, outputs: made.outputs });
    }
  });

  it('uploads files and runs execs inside the container', async () => {
    const def = env.res(T);
    const i = def.inputs.parse({
      name: n('cvt-inst5'),
      image: facts.image,
      files: [{ targetPath: '/opt/x/hello.txt', content: 'hi there\n', createDirectories: true, mode: '0640' }],
      execs: {
        a_read: { command: ['cat', '/opt/x/hello.txt'], recordOutput: true },
        b_exit: { command: ['sh', '-c', 'exit 3'] },
        c_missing: { command: ['/no/such/binary'] },
      },
    });
    const made = await def.create(env.ctx, i);
    try {
      expect(made.outputs.execResults).toMatchObject({
        a_read: { exitCode: 0, stdout: 'hi there\n', runCount: 1 },
        b_exit: { exitCode: 3 },
        c_missing: { exitCode: expect.any(Number) },
      });
      expect((await lxcExecOut(n('cvt-inst5'), ['stat', '-c', '%a', '/opt/x/hello.txt'])).trim()).toBe('640');
    } finally {
      await def.delete(env.ctx, made.id, { inputs: i, outputs: made.outputs });
    }
  });
});
