// The lxc refusal script (tests/providers/a/lxc-refusals.ts) against the fake LXD and the real
// daemon at once, both over HTTPS from scratch LXD_CONFs: every command LXD refuses is refused by
// the fake with the same exit code and the same first line of error, and the snapshot, copy and
// exec commands exit the same and print the same. The fake's half is also judged on its own terms
// (judgeFakeRefusals: LXD's recorded codes and messages, the snapshot listings, no unrouted request).
// Its objects carry this run's suffix (lxd-env's `n`), so two suites on one daemon never meet.
import { createHash, X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startSimulator, type LxdSimulator } from '../../../src/providers/a/simulator/index.js';
import { normalizeLxc, runLxc, scratchConf } from '../../providers/a/lxc-script.js';
import {
  firstLine,
  judgeFakeRefusals,
  lxcEveryday,
  lxcRefusals,
  refusalLeftovers,
  runRefusalScripts,
  type RefusalRun,
} from '../../providers/a/lxc-refusals.js';
import { describeLxd, lxc, n } from './lxd-env.js';

function cleanup(): void {
  const l = refusalLeftovers(n);
  for (const x of l.instances) lxc(['delete', '--force', x], true);
  for (const x of l.profiles) lxc(['profile', 'delete', x], true);
  for (const x of l.networks) lxc(['network', 'delete', x], true);
  for (const x of l.volumes) lxc(['storage', 'volume', 'delete', 'default', x], true);
  for (const x of l.projects) lxc(['project', 'delete', x], true);
  for (const x of l.pools) lxc(['storage', 'delete', x], true);
}

type Run = RefusalRun & { code: number; fingerprint: string };

async function runOn(remote: string, address: string, password: string): Promise<Run> {
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
    const pem = readFileSync(join(conf.dir, 'conf', 'client.crt'), 'utf8');
    const fingerprint = createHash('sha256').update(new X509Certificate(pem).raw).digest('hex');
    if (added.code !== 0) return { code: added.code, fingerprint, setup: [], refusals: [], everyday: [] };
    return { code: 0, fingerprint, ...(await runRefusalScripts(conf.env, remote, n)) };
  } finally {
    conf.close();
  }
}

describeLxd('lxc refusals, snapshots, copies and exec: the fake LXD against the real daemon', (facts) => {
  let sim: LxdSimulator;
  let fake: Run;
  let real: Run;

  beforeAll(async () => {
    cleanup();
    sim = await startSimulator({ tls: true, trustPassword: 'lxcfake-pw' });
    [fake, real] = await Promise.all([
      runOn('fake', sim.url, 'lxcfake-pw'),
      runOn('real', `https://${facts.https}`, facts.trustPassword),
    ]);
  }, 600_000);
  afterAll(async () => {
    cleanup();
    if (real?.fingerprint) lxc(['config', 'trust', 'remove', real.fingerprint], true);
    await sim?.close();
  });

  it('joins both and sets up the same objects', () => {
    expect([fake.code, real.code]).toEqual([0, 0]);
    expect(fake.setup.map((x) => x.code)).toEqual(real.setup.map((x) => x.code));
  });

  // the fake's own verdict, on its half of this run (tests/providers/a/lxc-refusals.test.ts without a daemon)
  judgeFakeRefusals(() => ({ sim, run: fake }), n);

  for (const [k, refusal] of lxcRefusals('R').entries())
    it(`lxc ${refusal.argv.join(' ')}: refused by both, same exit code and first line`, () => {
      const f = fake.refusals[k]!;
      const r = real.refusals[k]!;
      expect({ code: f.code, line: firstLine(f, 'fake') }).toEqual({ code: r.code, line: firstLine(r, 'real') });
      expect(r.code).not.toBe(0);
    });

  for (const [k, step] of lxcEveryday('R').entries())
    it(`lxc ${step.argv.join(' ')}: same exit code${step.compare ? ' and output' : ''}`, () => {
      const f = fake.everyday[k]!;
      const r = real.everyday[k]!;
      expect({ code: f.code, line: firstLine(f, 'fake') }).toEqual({ code: r.code, line: firstLine(r, 'real') });
      if (step.compare) expect(normalizeLxc(f.stdout, 'fake')).toBe(normalizeLxc(r.stdout, 'real'));
    });
});
