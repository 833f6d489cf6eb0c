// The fake LXD judged by the real `lxc` client over HTTPS: remote add with the trust password,
// then every command of the shared script (instances, exec, files, config, devices, power state,
// networks, ACLs, forwards, profiles, projects, pools, custom volumes) succeeds, lxc never panics,
// an interactive exec works, and the fake sees no request it has no route for.
import { execFile } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startSimulator, type LxdSimulator } from '../../../src/providers/a/simulator/index.js';
import {
  describeWithLxc,
  judgeFakeScript,
  lxcScript,
  runLxc,
  runStep,
  scratchConf,
  type LxcResult,
} from './lxc-script.js';
import { lxdFacts } from '../../integration/lxd/lxd-env.js';

// With the real daemon, tests/integration/lxd/lxc-differential.test.ts runs the script against the
// fake and the daemon at once and gives the fake this file's verdict too (judgeFakeScript): the
// script runs against the fake once, not twice (each lxc command is a Go process, ~0.1 s of CPU).
// The certificate, the join and the interactive exec are checked here either way.
const judgedWithTheDaemon = lxdFacts() !== undefined;

describeWithLxc('the fake LXD against the real lxc client', () => {
  let sim: LxdSimulator;
  let conf: ReturnType<typeof scratchConf>;
  let added: LxcResult;
  const results: LxcResult[] = [];

  beforeAll(async () => {
    sim = await startSimulator({ tls: true, trustPassword: 'lxcfake-pw' });
    conf = scratchConf();
    added = await runLxc(conf.env, [
      'remote',
      'add',
      'fake',
      sim.url,
      '--password',
      'lxcfake-pw',
      '--accept-certificate',
    ]);
    if (added.code === 0 && !judgedWithTheDaemon)
      for (const step of lxcScript('fake', conf.dir)) results.push(await runStep(conf.env, step));
  }, 300_000);
  afterAll(async () => {
    await sim?.close();
    conf?.close();
  });

  it('serves a certificate whose subjectAltNames hold IP 127.0.0.1 and ::1, as the daemon does', () => {
    const sans = new X509Certificate(sim.certificate!.pem).subjectAltName ?? '';
    expect(sans).toContain('IP Address:127.0.0.1');
    expect(sans).toMatch(/IP Address:(0:0:0:0:0:0:0:1|::1)/);
  });

  it('lets `lxc remote add --password --accept-certificate` join, storing the client certificate as PEM', async () => {
    expect(added.code, added.stderr).toBe(0);
    const trusted = [...sim.store.certificates.values()];
    expect(trusted).toHaveLength(1);
    expect(String(trusted[0]!.certificate)).toMatch(/^-----BEGIN CERTIFICATE-----\n/);
  });

  // the script's verdict, here when no daemon judges the fake (see judgedWithTheDaemon)
  if (!judgedWithTheDaemon) judgeFakeScript(() => ({ sim, results }));

  it('runs an interactive exec (lxc on a pseudo-terminal, one websocket for stdin and output)', async () => {
    await runLxc(conf.env, ['launch', 'fake:busybox', 'fake:lxcfake-tty']);
    const lxcCmd = `lxc exec fake:lxcfake-tty -- echo on a terminal`;
    const r = await new Promise<{ code: number; stdout: string }>((resolve) => {
      execFile(
        '/usr/bin/script',
        ['-qec', lxcCmd, '/dev/null'],
        { env: conf.env, timeout: 30_000, encoding: 'utf8' },
        (error, stdout) => resolve({ code: error ? Number(error.code) : 0, stdout }),
      ).stdin?.end();
    });
    expect(r.code).toBe(0);
    expect(r.stdout.replace(/\r/g, '')).toBe('on a terminal\n');
    const exec = sim.requests.filter((q) => q.path === '/1.0/instances/lxcfake-tty/exec').at(-1);
    expect((exec?.body as { interactive?: boolean }).interactive).toBe(true);
  }, 60_000);

  it('answered every request lxc made from its route table', () => {
    expect(sim.unmatched.map((u) => `${u.method} ${u.path}${u.query}`)).toEqual([]);
  });
});
