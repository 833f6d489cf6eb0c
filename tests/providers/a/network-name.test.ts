// A bridge's name is a host interface name: LXD refuses one over 15 characters (seen on the real
// daemon: "Network interface is too long (maximum 15 characters)"). Provider A says so at plan,
// naming the resource and field, before any request; the fake LXD refuses it as the daemon does;
// non-bridge networks are not held to the rule.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Engine, MemoryStateStore, ValidationError } from '../../../src/index.js';
import { ProviderError } from '../../../src/engine/errors.js';
import { prova } from '../../../src/providers/a/index.js';
import { interfaceNameIssues } from '../../../src/providers/a/resources/network.js';
import { simEnv, type SimEnv } from './sim-env.js';

let env: SimEnv;
beforeAll(async () => {
  env = await simEnv();
});
afterAll(async () => {
  await env.close();
});

describe("a bridge network's name", () => {
  it.each([
    ['br0', 'bridge', []],
    ['cvt-net1-t1x2k', 'bridge', []],
    ['x', 'bridge', ['invalid_interface_name']],
    ['cvt-diff-net-t1x2k', 'bridge', ['invalid_interface_name']],
    ['bad name', 'bridge', ['invalid_interface_name']],
    ['a-rather-long-ovn-network', 'ovn', []],
  ])('%j (%s) gives %j', (name, type, codes) => {
    expect(interfaceNameIssues(name, type).map((i) => i.code)).toEqual(codes);
  });

  it('over 15 characters is a validation issue at plan naming the resource and field, with no request sent', async () => {
    env.sim.clearLog();
    const engine = new Engine({ providers: [env.provider], state: new MemoryStateStore() });
    const err = await engine.plan([prova.network('net', { name: 'cvt-diff-net-t1x2k' })]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ValidationError);
    const issue = (err as ValidationError).issues.find((i) => i.code === 'invalid_interface_name');
    expect(issue).toMatchObject({ resource: 'net', path: ['name'] });
    expect(issue!.message).toContain('maximum 15');
    expect(env.sim.requests).toEqual([]);
  });

  it('over 15 characters is refused by the fake LXD as the daemon refuses it', async () => {
    const net = env.res('prova:index/network:Network');
    const inputs = net.inputs.parse({ name: 'cvt-diff-net-t1x2k', config: { 'ipv4.address': 'none' } });
    const err = await net.create(env.ctx, inputs).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProviderError);
    expect(err).toMatchObject({ status: 400, detail: 'Network interface is too long (maximum 15 characters)' });
  });
});
