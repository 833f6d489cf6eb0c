// The fake LXD judged by the real `lxc` client over HTTPS: remote add with the trust password,
// then every command of the shared script (instances, exec, files, config, devices, power state,
// networks, ACLs, forwards, profiles, projects, pools, custom volumes) succeeds, lxc never panics,
// and the fake sees no request it has no route for.
import { execFile } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startSimulator, type LxdSimulator } from '../../../src/providers/a/simulator/index.js';
import { describeWithLxc, lxcScript, runLxc, runStep, scratchConf, type LxcResult } from './lxc-script.js';

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
  }, 120_000);
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

  for (const [n, step] of lxcScript('fake', '/SCRATCH').entries()) {
    it(`runs step ${n + 1}: lxc ${step.argv.join(' ').replace(/\S*\/SCRATCH\S*/g, 'FILE')}`, async () => {
      const real = lxcScript('fake', conf.dir)[n]!;
      const r = await runStep(conf.env, real);
      results.push(r);
      expect(r.stderr).not.toMatch(/panic:|goroutine \d+/);
      expect(r.code, `${r.cmd}\n${r.stderr}`).toBe(step.exitCode ?? 0);
      if (real.thenRead) expect(r.pulled).toBe('hello from the lxcfake script\n');
    }, 60_000);
  }

  it('streams exec stdin and output over the operation websockets and reports the exit code', async () => {
    const echo = results.find((r) => r.cmd.includes('echo hello'));
    expect(echo?.stdout).toBe('hello from lxcfake\n');
    expect(results.find((r) => r.cmd.includes('exit 3'))?.code).toBe(3);
    expect(results.find((r) => r.cmd.endsWith('-- cat'))?.stdout).toBe('piped into lxcfake\n');
  });

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

  it('sent operation and lifecycle events that lxc waited on', () => {
    const types = new Set(sim.store.events.sent.map((e) => e.type));
    expect(types).toEqual(new Set(['operation', 'lifecycle']));
    const actions = sim.store.events.sent
      .filter((e) => e.type === 'lifecycle')
      .map((e) => (e.metadata as { action: string }).action);
    expect(actions).toEqual(
      expect.arrayContaining([
        'instance-created',
        'instance-started',
        'instance-stopped',
        'instance-restarted',
        'instance-deleted',
      ]),
    );
  });

  it('answered every request lxc made from its route table', () => {
    expect(sim.unmatched.map((u) => `${u.method} ${u.path}${u.query}`)).toEqual([]);
  });
});
