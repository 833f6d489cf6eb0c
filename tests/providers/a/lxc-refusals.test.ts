// The fake LXD judged by the real `lxc` client on what LXD refuses: every refusal of the script
// (bad config on instances, profiles, networks, volumes, pools and projects; missing snapshots;
// unknown routes) exits as the real daemon did with the same first line of error, and snapshots,
// copies and exec with --cwd and --env work. The same script runs against the real daemon in
// tests/integration/lxd/lxc-refusals.test.ts, which judges the fake there when the daemon is up.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type LxdSimulator } from '../../../src/providers/a/simulator/index.js';
import { describeWithLxc, runLxc, scratchConf } from './lxc-script.js';
import { judgeFakeRefusals, runRefusalScripts, type RefusalRun } from './lxc-refusals.js';
import { lxdFacts } from '../../integration/lxd/lxd-env.js';

// With the real daemon, tests/integration/lxd/lxc-refusals.test.ts runs the scripts against the fake
// and the daemon at once and gives the fake this file's verdict too (judgeFakeRefusals): the scripts
// run against the fake once, not twice (each lxc command is a Go process, ~0.1 s of CPU).
const judgedWithTheDaemon = lxdFacts() !== undefined;
const suite = judgedWithTheDaemon
  ? (name: string) =>
      describe.skip(name, () =>
        it('is judged with the daemon, in tests/integration/lxd/lxc-refusals.test.ts', () => {}),
      )
  : describeWithLxc;

suite('the fake LXD refuses what LXD refuses, through the real lxc client', () => {
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

  judgeFakeRefusals(() => ({ sim, run }));
});
