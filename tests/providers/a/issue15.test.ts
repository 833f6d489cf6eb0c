// Issue 15 against the fake LXD (the same behaviours have real-daemon tests in
// tests/integration/lxd/aprov-*.test.ts): a create that never gets its IPv4 is a PartialCreateError,
// find is exact by the operation id, remote and target are checked at plan.
import { afterEach, describe, expect, it } from 'vitest';
import { Engine, MemoryStateStore, PartialCreateError, TimeoutError, ValidationError } from '../../../src/index.js';
import { prova } from '../../../src/providers/a/index.js';
import { simEnv, type SimEnv } from './sim-env.js';

let env: SimEnv | undefined;
afterEach(async () => {
  await env?.close();
  env = undefined;
});
const T = 'prova:index/instance:Instance';
const hint = (operationId: string) => ({ startedAt: new Date().toISOString(), operationId });

describe('prova instance create and find (fake LXD)', () => {
  it('throws PartialCreateError with the canonical id when the IPv4 never comes within timeouts.create', async () => {
    env = await simEnv({ networkDelayMs: 3_600_000 });
    const def = env.res(T);
    const err = await def
      .create(env.ctx, def.inputs.parse({ name: 'c1', image: 'busybox', timeouts: { create: '150ms' } }))
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PartialCreateError);
    expect(err).toMatchObject({ id: 'local:default/c1', outputs: { status: 'Running', ipv4Address: '' } });
    expect((err as PartialCreateError).cause).toBeInstanceOf(TimeoutError);
  });

  it("finds only the instance carrying the create's operation id, and read hides that key", async () => {
    env = await simEnv();
    const def = env.res(T);
    const i = def.inputs.parse({ name: 'c2', image: 'busybox', config: { 'user.a': '1' } });
    const made = await def.create({ ...env.ctx, operationId: 'op-1' }, i);
    expect(await def.find!(env.ctx, i, hint('op-1'))).toMatchObject({ id: made.id });
    expect(await def.find!(env.ctx, i, hint('op-2'))).toBeNull();
    expect((await def.read(env.ctx, made.id, { inputs: i, outputs: made.outputs }))!.inputs.config).toEqual({
      'user.a': '1',
    });
  });

  it('keeps the operation key through an update that rewrites the config', async () => {
    env = await simEnv();
    const def = env.res(T);
    const i = def.inputs.parse({ name: 'c3', image: 'busybox' });
    const made = await def.create({ ...env.ctx, operationId: 'op-3' }, i);
    await def.update!(
      env.ctx,
      made.id,
      { inputs: i, outputs: made.outputs },
      def.inputs.parse({ ...i, config: { 'user.b': '2' } }),
    );
    expect(await def.find!(env.ctx, i, hint('op-3'))).toMatchObject({ id: made.id });
  });
});

describe('prova plan-time checks (fake LXD)', () => {
  it('reports an image on an unknown remote at plan', async () => {
    env = await simEnv();
    const engine = new Engine({ providers: [env.provider], state: new MemoryStateStore() });
    const err = await engine
      .plan([prova.instance('w', { name: 'w', image: 'nowhere:busybox' })])
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ValidationError);
    expect((err as ValidationError).issues).toEqual([
      expect.objectContaining({ path: ['image'], code: 'unknown_remote' }),
    ]);
  });

  it('reports target at plan once the server is known to be standalone', async () => {
    env = await simEnv();
    const engine = new Engine({ providers: [env.provider], state: new MemoryStateStore() });
    await engine.lookup('prova:index/getInfo:getInfo', {});
    const err = await engine
      .plan([prova.storagePool('p', { name: 'p', driver: 'dir', target: 'm1' })])
      .catch((e: unknown) => e);
    expect((err as ValidationError).issues).toEqual([
      expect.objectContaining({ path: ['target'], code: 'target_not_clustered' }),
    ]);
  });
});
