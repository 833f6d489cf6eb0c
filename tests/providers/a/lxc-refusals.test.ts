// The fake LXD judged by the real `lxc` client on what LXD refuses: every refusal of the script
// (bad config on instances, profiles, networks, volumes, pools and projects; missing snapshots;
// unknown routes) exits as the real daemon did with the same first line of error, and snapshots,
// copies and exec with --cwd and --env work. The same script runs against the real daemon in
// tests/integration/lxd/lxc-refusals.test.ts.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startSimulator, type LxdSimulator } from '../../../src/providers/a/simulator/index.js';
import { describeWithLxc, runLxc, scratchConf } from './lxc-script.js';
import { firstLine, lxcEveryday, lxcRefusals, runRefusalScripts, type RefusalRun } from './lxc-refusals.js';

describeWithLxc('the fake LXD refuses what LXD refuses, through the real lxc client', () => {
  let sim: LxdSimulator;
  let conf: ReturnType<typeof scratchConf>;
  let run: RefusalRun;

  beforeAll(async () => {
    sim = await startSimulator({ tls: true, trustPassword: 'lxcfake-pw' });
    conf = scratchConf();
    const added = await runLxc(conf.env, [
      'remote',
      'add',
      'fake',
      sim.url,
      '--password',
      'lxcfake-pw',
      '--accept-certificate',
    ]);
    expect(added.code, added.stderr).toBe(0);
    run = await runRefusalScripts(conf.env, 'fake');
  }, 120_000);
  afterAll(async () => {
    await sim?.close();
    conf?.close();
  });

  it('sets up the objects the refusals name', () => {
    expect(run.setup.map((x) => [x.cmd, x.code, x.stderr])).toEqual(run.setup.map((x) => [x.cmd, 0, '']));
  });

  for (const [n, refusal] of lxcRefusals('fake').entries())
    it(`refuses lxc ${refusal.argv.join(' ')} as LXD does`, () => {
      const got = run.refusals[n]!;
      expect({ code: got.code, firstLine: firstLine(got, 'fake') }).toEqual({
        code: refusal.exitCode,
        firstLine: refusal.firstLine,
      });
    });

  it('runs exec in --cwd (falling back to /) and with --env', () => {
    const out = run.everyday.slice(0, 4).map((x) => x.stdout);
    expect(out).toEqual(['/tmp\n', '/root\n', '/\n', 'bar\n']);
  });

  it('takes, lists, restores and deletes snapshots, and copies with and without them', () => {
    const steps = lxcEveryday('fake');
    run.everyday.forEach((x, n) => expect(x.code, `${x.cmd}\n${x.stderr}`).toBe(steps[n]!.exitCode ?? 0));
    const lists = run.everyday.filter((x) => x.cmd.includes(' list '));
    expect(lists.map((x) => x.stdout)).toEqual([
      'lxcfake-r1,2\n',
      'lxcfake-r1,2\nlxcfake-r2,2\nlxcfake-r3,0\nlxcfake-r4,0\n',
    ]);
    const snapshots = run.everyday.filter((x) => x.cmd.includes('/snapshots')).map((x) => JSON.parse(x.stdout));
    expect(snapshots).toEqual([
      ['/1.0/instances/lxcfake-r1/snapshots/s0', '/1.0/instances/lxcfake-r1/snapshots/s1'],
      ['/1.0/instances/lxcfake-r1/snapshots/s0'],
      ['/1.0/instances/lxcfake-r2/snapshots/s0', '/1.0/instances/lxcfake-r2/snapshots/s1'],
    ]);
  });

  it('left no request unanswered by a route', () => {
    const expected = ['GET /1.0/nosuch', 'GET /1.0/instances/lxcfake-r1/nosuch', 'DELETE /1.0/profiles'];
    expect(sim.unmatched.map((u) => `${u.method} ${u.path}`).sort()).toEqual(expected.sort());
  });
});
