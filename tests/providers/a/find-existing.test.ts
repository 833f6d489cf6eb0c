// prova find for the types LXD gives no mark to (auth groups, instance files): exact through the note
// the engine records in the pending record before the request (hint.existing), in any later process.
import { afterEach, describe, expect, it } from 'vitest';
import { isCannotTell } from '../../../src/engine/provider/define.js';
import { simEnv, type SimEnv } from './sim-env.js';

let env: SimEnv | undefined;
afterEach(async () => {
  await env?.close();
  env = undefined;
});
const T = 'prova:index/authGroup:AuthGroup';
const hint = (existing?: string[]) => ({
  startedAt: new Date().toISOString(),
  operationId: 'op-g',
  ...(existing ? { existing } : {}),
});

describe('prova auth group find (fake LXD)', () => {
  it('claims the group only when the note says no group of that name existed before the request', async () => {
    env = await simEnv();
    const def = env.res(T);
    const i = def.inputs.parse({ name: 'cvt-find-g', permissions: [] });
    expect([...(await def.existing!(env.ctx, i))]).toEqual([]);
    expect(await def.find!(env.ctx, i, hint([]))).toBeNull();
    const made = await def.create({ ...env.ctx, operationId: 'op-g' }, i);
    expect([...(await def.existing!(env.ctx, i))]).toEqual(['cvt-find-g']);
    expect(await def.find!(env.ctx, i, hint([]))).toMatchObject({ id: made.id });
    expect(await def.find!(env.ctx, i, hint(['cvt-find-g']))).toBeNull();
    const old = await def.find!(env.ctx, i, hint());
    expect(isCannotTell(old) && old.cannotTell).toMatch(/carries no mark/);
  });
});

describe('prova instance file find (fake LXD)', () => {
  const F = 'prova:index/instanceFile:InstanceFile';
  const note = async (e: SimEnv, i: Record<string, unknown>) => [...(await e.res(F).existing!(e.ctx, i as never))];

  it('overwrite: adopts the file once it holds what the create wrote, not before', async () => {
    env = await simEnv();
    const inst = env.res('prova:index/instance:Instance');
    await inst.create(env.ctx, inst.inputs.parse({ name: 'fh1', image: 'busybox' }));
    const def = env.res(F);
    const i = def.inputs.parse({ instance: 'fh1', targetPath: '/etc/motd.d', content: 'ours\n' });
    const before = await note(env, i);
    expect(before).toEqual([]);
    expect(await def.find!(env.ctx, i, hint(before))).toBeNull();
    await def.create(env.ctx, def.inputs.parse({ ...i, content: 'theirs\n' }));
    expect(await def.find!(env.ctx, i, hint(before))).toBeNull();
    const made = await def.create(env.ctx, i);
    expect(await def.find!(env.ctx, i, hint(before))).toMatchObject({ id: made.id });
    expect(isCannotTell(await def.find!(env.ctx, i, hint()))).toBe(true);
  });

  it('append: adopts only when the file is what was noted plus the appended text', async () => {
    env = await simEnv();
    const inst = env.res('prova:index/instance:Instance');
    await inst.create(env.ctx, inst.inputs.parse({ name: 'fh2', image: 'busybox' }));
    const def = env.res(F);
    const base = def.inputs.parse({ instance: 'fh2', targetPath: '/etc/app.log', content: 'line1\n' });
    await def.create(env.ctx, base);
    const i = def.inputs.parse({ instance: 'fh2', targetPath: '/etc/app.log', content: 'line2\n', append: true });
    const before = await note(env, i);
    expect(before).toHaveLength(1);
    expect(await def.find!(env.ctx, i, hint(before))).toBeNull();
    const made = await def.create(env.ctx, i);
    expect(await def.find!(env.ctx, i, hint(before))).toMatchObject({ id: made.id });
  });
});
