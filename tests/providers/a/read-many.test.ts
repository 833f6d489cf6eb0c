// Provider A refreshes instances (`?recursion=2`: every instance with its state), profiles and
// custom storage volumes by the listing, and plans exactly as one read per resource does, on the
// same state: changed outside (drift), deleted outside (gone), unchanged, and another stack's
// objects in the same listings (never claimed). Against the fake LXD.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { planBothWays } from '../../helpers/read-many.js';
import { Engine, MemoryStateStore, MemoryLocation, type ResourceDecl } from '../../../src/index.js';
import { prova } from '../../../src/providers/a/index.js';
import { simEnv, type SimEnv } from './sim-env.js';

let env: SimEnv;
beforeEach(async () => {
  env = await simEnv();
});
afterEach(async () => {
  expect(env.sim.unmatched).toEqual([]);
  await env.close();
});

const three = <T>(make: (i: number) => T): T[] => [0, 1, 2].map(make);
const stack = (p: string): ResourceDecl[] => [
  ...three((i) =>
    prova.instance(`${p}vm${i}`, {
      name: `cvt-${p}vm${i}`,
      image: 'busybox',
      running: i !== 0,
      config: { 'user.n': String(i) },
    }),
  ),
  ...three((i) => prova.profile(`${p}prof${i}`, { name: `cvt-${p}prof${i}`, config: { 'user.n': String(i) } })),
  ...three((i) =>
    prova.storageVolume(`${p}vol${i}`, { pool: 'default', name: `cvt-${p}vol${i}`, config: { 'user.n': String(i) } }),
  ),
];

describe('prova refresh by the listing', () => {
  it('plans exactly as one read per resource does (drift, gone, unchanged, foreign objects), with listings instead of GETs', async () => {
    const location = new MemoryLocation();
    const batched = new Engine({ providers: [env.provider], state: new MemoryStateStore(location) });
    await batched.apply(await batched.plan(stack('a')));
    const other = new Engine({ providers: [env.provider], state: new MemoryStateStore() });
    await other.apply(await other.plan(stack('z')));

    const store = env.sim.store;
    store.instances.get('default/cvt-avm1')!.config['user.n'] = 'changed';
    expect(store.instances.delete('default/cvt-avm2')).toBe(true);
    (store.profiles.get('default/cvt-aprof1')!.config as Record<string, string>)['user.n'] = 'changed';
    expect(store.profiles.delete('default/cvt-aprof2')).toBe(true);
    const volumeKey = (name: string) => [...store.volumes.keys()].find((k) => k.endsWith(`/${name}`))!;
    (store.volumes.get(volumeKey('cvt-avol1'))!.config as Record<string, string>)['user.n'] = 'changed';
    expect(store.volumes.delete(volumeKey('cvt-avol2'))).toBe(true);

    const {
      plan: viaLists,
      listRequests,
      readRequests,
      changed,
    } = await planBothWays(env.provider, location, stack('a'), env.sim, (path) => path === '/1.0');
    expect(changed).toEqual({
      avm1: 'drift',
      avm2: 'gone',
      aprof1: 'drift',
      aprof2: 'gone',
      avol1: 'drift',
      avol2: 'gone',
    });
    expect(viaLists.steps.filter((s) => s.address.startsWith('z'))).toEqual([]);
    // Three listings (instances, profiles, the pool's volumes) and a GET for each object they lack (the
    // three deleted: a listing is no proof of absence), against a GET each and a state GET per live instance.
    expect(listRequests).toBe(3 + 3);
    expect(readRequests).toBe(9 + 2);
  });
});
