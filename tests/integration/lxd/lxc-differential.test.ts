// The real `lxc` client runs one script against the fake LXD and against the real daemon, both
// over HTTPS joined with a trust password from a scratch LXD_CONF: every command succeeds on both,
// and each compared command (every `show`, get, list, exec and pulled file) prints the same thing
// once ids, MACs, veth names, addresses and timestamps are normalised. The fake's half is also
// judged on its own terms (judgeFakeScript: exit codes, no panic, exec streaming, events, routes).
// Its objects carry this run's suffix and its forward this run's address (lxd-env's `n` and
// `forwardAddress`), so two suites on one daemon never meet.
import { createHash, X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startSimulator, type LxdSimulator } from '../../../src/providers/a/simulator/index.js';
import {
  judgeFakeScript,
  lxcScript,
  normalizeLxc,
  runLxc,
  runStep,
  scratchConf,
  type LxcResult,
} from '../../providers/a/lxc-script.js';
import { describeLxd, forwardAddress, lxc, n } from './lxd-env.js';

const FORWARD = forwardAddress(2);

/** Removes this run's objects of the script from the real daemon (through the local unix socket). */
function cleanupScript(): void {
  for (const c of ['cvt-lxc-c1', 'cvt-lxc-c2', 'cvt-lxc-c3']) lxc(['delete', '--force', n(c)], true);
  lxc(['network', 'delete', n('cvt-lxn')], true);
  lxc(['network', 'acl', 'delete', n('cvt-lxc-acl')], true);
  lxc(['network', 'forward', 'delete', 'convergebr0', FORWARD], true);
  lxc(['profile', 'delete', n('cvt-lxc-prof')], true);
  lxc(['project', 'delete', n('cvt-lxc-proj')], true);
  lxc(['storage', 'volume', 'delete', n('cvt-lxc-pool'), n('cvt-lxc-vol')], true);
  lxc(['storage', 'delete', n('cvt-lxc-pool')], true);
}

async function runScript(
  remote: string,
  address: string,
  password: string,
): Promise<{ added: LxcResult; results: LxcResult[]; fingerprint: string }> {
  const conf = scratchConf();
  try {
    const added = await runLxc(conf.env, [
      'remote',
      'add',
      remote,
      address,
      '--password',
      password,
      '--accept-certificate',
    ]);
    const results: LxcResult[] = [];
    if (added.code === 0)
      for (const step of lxcScript(remote, conf.dir, n, FORWARD)) results.push(await runStep(conf.env, step));
    const pem = readFileSync(join(conf.dir, 'conf', 'client.crt'), 'utf8');
    return { added, results, fingerprint: createHash('sha256').update(new X509Certificate(pem).raw).digest('hex') };
  } finally {
    conf.close();
  }
}

describeLxd('the lxc client against the fake LXD and the real daemon', (facts) => {
  let sim: LxdSimulator;
  let fake: Awaited<ReturnType<typeof runScript>>;
  let real: Awaited<ReturnType<typeof runScript>>;
  const steps = lxcScript('R', '/SCRATCH');

  beforeAll(async () => {
    cleanupScript();
    sim = await startSimulator({ tls: true, trustPassword: 'lxcfake-pw' });
    // the two remotes share nothing (own LXD_CONF, own objects): the scripts run at once
    [fake, real] = await Promise.all([
      runScript('fake', sim.url, 'lxcfake-pw'),
      runScript('real', `https://${facts.https}`, facts.trustPassword),
    ]);
  }, 600_000);
  afterAll(async () => {
    cleanupScript();
    if (real?.fingerprint) lxc(['config', 'trust', 'remove', real.fingerprint], true);
    await sim?.close();
  });

  it('joins both remotes with the trust password', () => {
    expect([fake.added.code, real.added.code]).toEqual([0, 0]);
  });

  // the fake's own verdict, on its half of this run (tests/providers/a/lxc-client.test.ts without a daemon)
  judgeFakeScript(() => ({ sim, results: fake.results }));

  for (const [n, step] of steps.entries()) {
    const title = `lxc ${step.argv.join(' ').replace(/\S*\/SCRATCH\S*/g, 'FILE')}`;
    it(`step ${n + 1}: ${title} succeeds on both${step.compare ? ' and prints the same' : ''}`, () => {
      const f = fake.results[n]!;
      const r = real.results[n]!;
      expect({ fake: f.code, real: r.code }, `${f.stderr}\n${r.stderr}`).toEqual({
        fake: step.exitCode ?? 0,
        real: step.exitCode ?? 0,
      });
      if (!step.compare) return;
      const view = (x: LxcResult, remote: string) => ({
        stdout: normalizeLxc(x.stdout, remote, FORWARD),
        pulled: x.pulled,
      });
      expect(view(f, 'fake')).toEqual(view(r, 'real'));
    });
  }

  it('left no request unanswered by the fake', () => {
    expect(sim.unmatched.map((u) => `${u.method} ${u.path}${u.query}`)).toEqual([]);
  });
});
