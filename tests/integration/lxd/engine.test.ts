// The Engine with prova against the real daemon: plan → apply → plan again all noop; a change made
// with lxc shows in the next plan and is repaired; destroy leaves nothing behind.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Engine, MemoryStateStore } from '../../../src/index.js';
import { prova } from '../../../src/providers/a/index.js';
import { cleanupCvt, describeLxd, lxc, realEnv, type RealEnv, n } from './lxd-env.js';

describeLxd('prova through the Engine against a real LXD', (facts) => {
  let env: RealEnv;
  beforeAll(() => {
    cleanupCvt();
    env = realEnv(facts);
  });
  afterAll(async () => {
    await env.close();
    cleanupCvt();
  });

  const stack = () => {
    const prof = prova.profile('prof', { name: n('cvt-eng-prof'), config: { 'user.team': 'a' } });
    const web = prova.instance('web', {
      name: n('cvt-eng-web'),
      image: facts.image,
      profiles: ['default', prof.out('name')],
      config: { 'user.a': '1' },
    });
    const acl = prova.networkAcl('acl', {
      name: n('cvt-eng-acl'),
      ingresses: [{ action: 'allow', state: 'enabled', protocol: 'tcp', destinationPort: '22' }],
    });
    return [prof, web, acl];
  };

  it('plan → apply → plan is noop; lxc drift shows in the next plan and is repaired; destroy cleans up', async () => {
    const engine = new Engine({ providers: [env.provider], state: new MemoryStateStore() });
    try {
      const plan = await engine.plan(stack());
      expect(plan.summary.create).toBe(3);
      await engine.apply(plan);
      expect(lxc(['list', n('cvt-eng-web'), '--format', 'csv', '-c', '4'])).toMatch(/198\.18\.0\.\d+/);
      const again = await engine.plan(stack(), { refresh: true });
      expect(again.steps.map((s) => s.action)).toEqual(['noop', 'noop', 'noop']);

      lxc(['config', 'set', n('cvt-eng-web'), 'user.a', 'drifted']);
      lxc(['profile', 'set', n('cvt-eng-prof'), 'user.team', 'b']);
      const drift = await engine.plan(stack(), { refresh: true });
      expect(
        drift.steps
          .filter((s) => s.action === 'update')
          .map((s) => s.address)
          .sort(),
      ).toEqual(['prof', 'web']);
      await engine.apply(drift);
      expect(lxc(['config', 'get', n('cvt-eng-web'), 'user.a']).trim()).toBe('1');
      expect((await engine.plan(stack(), { refresh: true })).hasChanges).toBe(false);
    } finally {
      await engine.destroy();
    }
    expect(lxc(['list', n('cvt-eng-web'), '--format', 'csv', '-c', 'n']).trim()).toBe('');
    expect(lxc(['profile', 'list', '--format', 'csv'])).not.toContain(n('cvt-eng-prof'));
  });
});
