// The same scenario against the fake LXD and the real daemon: outputs, reads and lookups must
// agree, modulo ids, addresses and fingerprints.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { simEnv, type SimEnv } from '../../providers/a/sim-env.js';
import { cleanupCvt, describeLxd, forwardAddress, realEnv, type RealEnv, n } from './lxd-env.js';

type Env = Pick<RealEnv, 'ctx' | 'res' | 'provider'>;

async function scenario(env: Env, image: string): Promise<unknown[]> {
  const out: unknown[] = [];
  const prof = env.res('prova:index/profile:Profile');
  const inst = env.res('prova:index/instance:Instance');
  const acl = env.res('prova:index/networkAcl:NetworkAcl');
  const pi = prof.inputs.parse({
    name: n('cvt-diff-prof'),
    config: { 'user.team': 'a' },
    devices: [{ name: 'scratch', type: 'disk', properties: { source: '/tmp', path: '/scratch' } }],
  });
  const p = await prof.create(env.ctx, pi);
  const ai = acl.inputs.parse({
    name: n('cvt-diff-acl'),
    ingresses: [{ action: 'allow', state: 'enabled', protocol: 'tcp', destinationPort: '22', source: '198.18.0.0/24' }],
  });
  const a = await acl.create(env.ctx, ai);
  out.push(await acl.read(env.ctx, a.id, { inputs: ai, outputs: {} }));
  const ii = inst.inputs.parse({
    name: n('cvt-diff1'),
    image,
    profiles: ['default', n('cvt-diff-prof')],
    config: { 'user.a': '1' },
    limits: { cpu: '1' },
    files: [{ targetPath: '/etc/cvt.conf', content: 'x=1\n' }],
    execs: { show: { command: ['cat', '/etc/cvt.conf'], recordOutput: true } },
  });
  const c = await inst.create(env.ctx, ii);
  out.push(c.outputs);
  out.push(await inst.read(env.ctx, c.id, { inputs: ii, outputs: c.outputs }));
  const getInstance = env.provider.lookups.get('prova:index/getInstance:getInstance')!;
  out.push(await getInstance.run(env.ctx, getInstance.args.parse({ name: n('cvt-diff1') })));
  const stopped = inst.inputs.parse({ ...ii, running: false });
  out.push((await inst.update!(env.ctx, c.id, { inputs: ii, outputs: c.outputs }, stopped)).outputs);
  out.push(await inst.read(env.ctx, c.id, { inputs: stopped, outputs: {} }));
  await inst.delete(env.ctx, c.id, { inputs: stopped, outputs: {} });
  out.push(await inst.read(env.ctx, c.id, { inputs: stopped, outputs: {} }));
  for (const [token, inputs] of [
    [
      'prova:index/network:Network',
      { name: n('cvt-dnet'), config: { 'ipv4.address': 'none', 'ipv6.address': 'none' } },
    ],
    [
      'prova:index/networkForward:NetworkForward',
      {
        network: 'convergebr0',
        listenAddress: forwardAddress(1),
        ports: [{ protocol: 'udp', listenPort: '53', targetAddress: '198.18.0.30' }],
      },
    ],
    [
      'prova:index/storageVolume:StorageVolume',
      { pool: 'default', name: n('cvt-diff-vol'), config: { 'user.k': 'v' } },
    ],
  ] as const) {
    const def = env.res(token);
    const parsed = def.inputs.parse(inputs);
    const made = await def.create(env.ctx, parsed);
    out.push(
      made.outputs,
      await def.read(env.ctx, made.id, { inputs: parsed, outputs: made.outputs }),
      await def.read(env.ctx, made.id, { inputs: {}, outputs: {} }),
    );
    await def.delete(env.ctx, made.id, { inputs: parsed, outputs: made.outputs });
    out.push(await def.read(env.ctx, made.id, { inputs: parsed, outputs: made.outputs }));
  }
  await prof.delete(env.ctx, p.id, { inputs: pi, outputs: {} });
  await acl.delete(env.ctx, a.id, { inputs: ai, outputs: {} });
  out.push(await prof.read(env.ctx, p.id, { inputs: pi, outputs: {} }));
  return out;
}

/** Replaces what legitimately differs: addresses, MACs, fingerprints, link-local suffixes. */
function normalize(value: unknown): unknown {
  return JSON.parse(
    JSON.stringify(value)
      .replace(/198\.18\.0\.\d+/g, '198.18.0.N')
      .replace(/fe80::[0-9a-f:]+/g, 'fe80::N')
      .replace(/([0-9a-f]{2}:){5}[0-9a-f]{2}/g, 'MAC')
      .replace(/[0-9a-f]{64}/g, 'FP'),
  );
}

describeLxd('the fake LXD behaves like the real one', (facts) => {
  let real: RealEnv;
  let fake: SimEnv;
  beforeAll(async () => {
    cleanupCvt();
    real = realEnv(facts);
    fake = await simEnv();
  });
  afterAll(async () => {
    await real.close();
    await fake.close();
    cleanupCvt();
  });

  it('gives the same outputs, reads and lookups for one scenario', async () => {
    const fromReal = normalize(await scenario(real, facts.image));
    const fromFake = normalize(await scenario(fake, 'busybox'));
    expect(fromReal).toHaveLength(20);
    expect(fromFake).toEqual(fromReal);
    expect(fake.sim.unmatched).toEqual([]);
  });
});
