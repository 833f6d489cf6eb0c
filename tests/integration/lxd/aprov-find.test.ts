// find after an unknown create outcome (the contract in engine/provider/define.ts) on the real
// daemon: an object is this create's only when it carries the create's operation id, which reads
// hide; an object of the same name made before (by lxc) is never adopted, also after a definite refusal.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ApplyError, ProviderError } from '../../../src/index.js';
import { prova } from '../../../src/providers/a/index.js';
import { cleanupAprov, describeLxd, lxc, realEngine, realEnv, type RealEnv, n } from './lxd-env.js';

const hint = (operationId: string) => ({ startedAt: new Date().toISOString(), operationId });

describeLxd('prova find against a real LXD', (facts) => {
  let env: RealEnv;
  beforeAll(() => {
    cleanupAprov();
    env = realEnv(facts);
  });
  afterAll(async () => {
    await env.close();
    cleanupAprov();
  });

  it('finds the instance its own create made (by the operation id) and hides that key from read', async () => {
    const def = env.res('prova:index/instance:Instance');
    const i = def.inputs.parse({ name: n('aprov-find1'), image: facts.image, running: false });
    const made = await def.create({ ...env.ctx, operationId: `op-${n('aprov-1')}` }, i);
    try {
      expect(lxc(['config', 'get', n('aprov-find1'), 'user.converge.operation']).trim()).toBe(`op-${n('aprov-1')}`);
      expect(
        await def.find!({ ...env.ctx, operationId: `op-${n('aprov-1')}` }, i, hint(`op-${n('aprov-1')}`)),
      ).toMatchObject({
        id: made.id,
      });
      expect(await def.find!({ ...env.ctx, operationId: 'op-other' }, i, hint('op-other'))).toBeNull();
      const read = await def.read(env.ctx, made.id, { inputs: i, outputs: made.outputs });
      expect(read!.inputs.config).toEqual({});
    } finally {
      await def.delete(env.ctx, made.id, { inputs: i, outputs: made.outputs });
    }
  });

  it('answers null for an instance of the same name made before by someone else', async () => {
    const def = env.res('prova:index/instance:Instance');
    lxc(['init', facts.image, n('aprov-find2')]);
    const i = def.inputs.parse({ name: n('aprov-find2'), image: facts.image });
    expect(
      await def.find!({ ...env.ctx, operationId: `op-${n('aprov-2')}` }, i, hint(`op-${n('aprov-2')}`)),
    ).toBeNull();
    lxc(['delete', '--force', n('aprov-find2')]);
  });

  it('answers null for a network, profile and ACL of the same name made with lxc, and finds its own', async () => {
    const cases: [string, Record<string, unknown>, string[], string[]][] = [
      [
        'prova:index/network:Network',
        { name: n('aprovf3'), config: { 'ipv4.address': 'none', 'ipv6.address': 'none' } },
        ['network', 'create', n('aprovf3'), 'ipv4.address=none', 'ipv6.address=none'],
        ['network', 'delete', n('aprovf3')],
      ],
      [
        'prova:index/profile:Profile',
        { name: n('aprov-find3') },
        ['profile', 'create', n('aprov-find3')],
        ['profile', 'delete', n('aprov-find3')],
      ],
      [
        'prova:index/networkAcl:NetworkAcl',
        { name: n('aprov-find3') },
        ['network', 'acl', 'create', n('aprov-find3')],
        ['network', 'acl', 'delete', n('aprov-find3')],
      ],
    ];
    for (const [token, raw, make, remove] of cases) {
      const def = env.res(token);
      const i = def.inputs.parse(raw);
      lxc(make);
      try {
        expect(await def.find!({ ...env.ctx, operationId: 'op-x' }, i, hint('op-x')), token).toBeNull();
      } finally {
        lxc(remove);
      }
      const made = await def.create({ ...env.ctx, operationId: 'op-y' }, i);
      try {
        expect(await def.find!({ ...env.ctx, operationId: 'op-y' }, i, hint('op-y')), token).toMatchObject({
          id: made.id,
        });
        expect(
          (await def.read(env.ctx, made.id, { inputs: i, outputs: made.outputs }))!.inputs.config,
          token,
        ).not.toHaveProperty(['user.converge.operation']);
      } finally {
        await def.delete(env.ctx, made.id, { inputs: i, outputs: made.outputs });
      }
    }
  });

  it("never adopts an instance that existed before: the create's definite refusal fails the apply and the state stays empty", async () => {
    lxc(['init', facts.image, n('aprov-find4')]);
    const { engine, store, provider } = realEngine(facts, env.dir);
    try {
      const err = await engine
        .apply(await engine.plan([prova.instance('x', { name: n('aprov-find4'), image: facts.image })]))
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ApplyError);
      expect((err as ApplyError).result.failed[0]!.error).toBeInstanceOf(ProviderError);
      // LXD 5.0.2 refuses in the operation ("This \"instances\" entry already exists", 400); newer ones with 409.
      expect((err as ApplyError).result.failed[0]!.error).toMatchObject({
        outcomeUnknown: false,
        status: expect.any(Number),
      });
      expect((await store.read()).resources).toEqual({});
      expect(lxc(['list', n('aprov-find4'), '--format', 'csv', '-c', 's']).trim()).toBe('STOPPED');
    } finally {
      await provider.close();
      lxc(['delete', '--force', n('aprov-find4')], true);
    }
  });
});
