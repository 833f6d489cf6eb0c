// Objects inside a non-default project on the real daemon: ?project= on every call, ids and imports
// carrying the project, and the project deleted last.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { cleanupCvt, describeLxd, lxc, realEnv, type RealEnv, n } from './lxd-env.js';

describeLxd('prova objects in a project on a real LXD', (facts) => {
  let env: RealEnv;
  beforeAll(() => {
    cleanupCvt();
    env = realEnv(facts);
  });
  afterAll(async () => {
    await env.close();
    lxc(['delete', '--force', '--project', n('cvt-scope'), n('cvt-pi')], true);
    lxc(['profile', 'delete', '--project', n('cvt-scope'), n('cvt-pprof')], true);
    lxc(['project', 'delete', n('cvt-scope')], true);
    cleanupCvt();
  });

  it('creates a profile and a running container in a project, imports them, and cleans up', async () => {
    const proj = env.res('prova:index/project:Project');
    const prof = env.res('prova:index/profile:Profile');
    const inst = env.res('prova:index/instance:Instance');
    const pi = proj.inputs.parse({
      name: n('cvt-scope'),
      config: { 'features.images': 'false', 'features.profiles': 'true' },
    });
    const p = await proj.create(env.ctx, pi);
    let failed = false;
    try {
      const fi = prof.inputs.parse({ name: n('cvt-pprof'), project: n('cvt-scope'), config: { 'user.p': '1' } });
      const f = await prof.create(env.ctx, fi);
      expect(f.id).toBe(`local:${n('cvt-scope')}/${n('cvt-pprof')}`);
      expect(lxc(['profile', 'get', '--project', n('cvt-scope'), n('cvt-pprof'), 'user.p']).trim()).toBe('1');
      const ii = inst.inputs.parse({
        name: n('cvt-pi'),
        project: n('cvt-scope'),
        image: facts.image,
        profiles: [n('cvt-pprof')],
        devices: [
          { name: 'root', type: 'disk', properties: { path: '/', pool: 'default' } },
          { name: 'eth0', type: 'nic', properties: { network: facts.bridge } },
        ],
      });
      const i = await inst.create(env.ctx, ii);
      expect(i.id).toBe(`local:${n('cvt-scope')}/${n('cvt-pi')}`);
      expect(i.outputs.ipv4Address).toMatch(/^198\.18\.0\./);
      const imported = await inst.read(
        env.ctx,
        inst.importId!(`${n('cvt-scope')}/${n('cvt-pi')}`, env.provider.config),
        {
          inputs: {},
          outputs: {},
        },
      );
      expect(imported!.inputs).toMatchObject({
        name: n('cvt-pi'),
        project: n('cvt-scope'),
        profiles: [n('cvt-pprof')],
        running: true,
      });
      expect((imported!.inputs.devices as { name: string }[]).map((d) => d.name)).toEqual(['eth0', 'root']);
      expect(
        prof.inputs.parse(
          (await prof.read(env.ctx, prof.importId!(`${n('cvt-scope')}/${n('cvt-pprof')}`, env.provider.config), {
            inputs: {},
            outputs: {},
          }))!.inputs,
        ),
      ).toEqual(fi);
      await inst.delete(env.ctx, i.id, { inputs: ii, outputs: i.outputs });
      await prof.delete(env.ctx, f.id, { inputs: fi, outputs: {} });
    } catch (error) {
      failed = true;
      throw error;
    } finally {
      // After a failure the afterAll hook empties the project; do not hide the first error.
      await proj.delete(env.ctx, p.id, { inputs: pi, outputs: {} }).catch((e: unknown) => {
        if (!failed) throw e;
      });
    }
    expect(await proj.read(env.ctx, p.id, { inputs: pi, outputs: {} })).toBeNull();
  });
});
