// prova find for the one type LXD gives no mark to (auth groups): exact through the note the engine
// records in the pending record before the request (hint.existing), in any later process.
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
