// Two instances of provider A in one stack: two LXD servers, each with its own remote and
// credentials. Always against two fake LXD daemons; with the real daemon (CONVERGE_TEST_LXD, run
// under `flock /tmp/converge-lxd.lock`) as the named instance beside a fake default one.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Engine, MemoryStateStore } from '../../../src/index.js';
import { prova } from '../../../src/providers/a/index.js';
import { startSimulator as startLxd, type LxdSimulator } from '../../../src/providers/a/simulator/index.js';
import { cleanupCvt, describeLxd, lxc, n } from '../../integration/lxd/lxd-env.js';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of closers.splice(0).reverse()) await c();
});

function tmp(): string {
  const d = mkdtempSync(join(tmpdir(), 'cvt-instances-'));
  closers.push(async () => rmSync(d, { recursive: true, force: true }));
  return d;
}

async function fakeLxd(): Promise<LxdSimulator> {
  const sim = await startLxd({ socketPath: join(tmp(), 'unix.socket') });
  closers.push(() => sim.close());
  return sim;
}

const profiles = (sim: LxdSimulator) => [...sim.store.profiles.keys()].filter((k) => k !== 'default/default').sort();

describe('two instances of provider A (two LXD servers) in one stack', () => {
  it('makes each profile on the server of the instance its declaration chose, and a move replaces it', async () => {
    const one = await fakeLxd();
    const two = await fakeLxd();
    const edge = prova({ name: 'edge', socketPath: two.socketPath, configDir: tmp(), pollIntervalMs: 2 });
    const main = prova({ socketPath: one.socketPath, configDir: tmp(), pollIntervalMs: 2 });
    closers.push(
      () => main.close(),
      () => edge.close(),
    );
    const engine = new Engine({ providers: [main, edge], state: new MemoryStateStore() });
    const decls = [
      prova.profile('a', { name: 'cvt-a', config: { 'user.team': 'a' } }),
      edge.profile('b', { name: 'cvt-b', config: { 'user.team': 'b' } }),
    ];
    await engine.apply(await engine.plan(decls));
    expect(profiles(one)).toEqual(['default/cvt-a']);
    expect(profiles(two)).toEqual(['default/cvt-b']);
    const state = await engine.state();
    expect(state.resources.b).toMatchObject({ instance: 'edge' });
    expect(state.resources.b!.instanceSettings).toMatchObject({ defaultRemote: 'local' });
    const moved = await engine.plan([decls[0]!, prova.profile('b', { name: 'cvt-b', config: { 'user.team': 'b' } })]);
    expect(moved.steps.find((s) => s.address === 'b')).toMatchObject({ action: 'replace', cause: 'provider_changed' });
    await engine.apply(moved);
    expect(profiles(one)).toEqual(['default/cvt-a', 'default/cvt-b']);
    expect(profiles(two)).toEqual([]);
  });
});

describeLxd('provider A: the fake LXD and the real daemon as two instances of one stack', (facts) => {
  beforeAll(() => cleanupCvt());
  afterAll(() => cleanupCvt());

  it('makes one profile on each, where each instance points, and destroys both', async () => {
    const fake = await fakeLxd();
    const real = prova({ name: 'real', socketPath: facts.socket, configDir: tmp(), pollIntervalMs: 100 });
    const main = prova({ socketPath: fake.socketPath, configDir: tmp(), pollIntervalMs: 2 });
    closers.push(
      () => main.close(),
      () => real.close(),
    );
    const engine = new Engine({ providers: [main, real], state: new MemoryStateStore() });
    const onFake = n('cvt-inst-fake');
    const onReal = n('cvt-inst-real');
    const decls = [
      prova.profile('fake', { name: onFake, config: { 'user.where': 'fake' } }),
      real.profile('real', { name: onReal, config: { 'user.where': 'real' } }),
    ];
    await engine.apply(await engine.plan(decls));
    expect(profiles(fake)).toEqual([`default/${onFake}`]);
    expect(lxc(['profile', 'get', onReal, 'user.where']).trim()).toBe('real');
    expect(lxc(['profile', 'list', '--format', 'csv'], true)).not.toContain(onFake);
    expect((await engine.plan(decls)).hasChanges).toBe(false);
    await engine.destroy();
    expect(profiles(fake)).toEqual([]);
    expect(lxc(['profile', 'list', '--format', 'csv'], true)).not.toContain(onReal);
  });
});
