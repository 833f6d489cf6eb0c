// A refresh by the page (readMany) and one read per resource give identical plans on the same
// states: drift, objects deleted outside, unchanged ones, and objects of other stacks in the same
// listings (never claimed). Against the Civo simulator, where instances and networks list whole.
import { afterEach, describe, expect, it } from 'vitest';
import { planBothWays } from '../../helpers/read-many.js';
import { Engine, MemoryStateStore, MemoryLocation } from 'converge';
import { provb } from 'converge/providers/b';
import { startSimulator, type CivoSimulator } from 'converge/providers/b/simulator';

let sim: CivoSimulator | undefined;
afterEach(async () => {
  await sim?.close();
  sim = undefined;
});

const stack = () => [
  ...Array.from({ length: 3 }, (_, i) =>
    provb.sshKey(`key${i}`, { name: `key${i}`, publicKey: `ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI${i} k${i}` }),
  ),
  ...Array.from({ length: 3 }, (_, i) => provb.dnsDomainName(`zone${i}`, { name: `zone${i}.example.com` })),
  ...Array.from({ length: 6 }, (_, i) => provb.network(`net${i}`, { label: `net-${i}` })),
  ...Array.from({ length: 6 }, (_, i) =>
    provb.instance(`vm${i}`, { hostname: `vm${i}`, diskImage: 'ubuntu-jammy', firewallId: '' }),
  ),
];

describe('refresh by the page', () => {
  it('plans exactly as one read per resource does, with far fewer requests', async () => {
    sim = await startSimulator({ transitions: { instance: 1 } });
    const provider = provb({ token: sim.token, apiEndpoint: sim.url, region: 'LON1', pollIntervalMs: 2 });
    const location = new MemoryLocation();
    const batched = new Engine({ providers: [provider], state: new MemoryStateStore(location) });
    await batched.apply(await batched.plan(stack()));

    // Another stack's objects in the same listings, and changes made outside converge.
    const other = new Engine({ providers: [provider], state: new MemoryStateStore() });
    await other.apply(
      await other.plan([
        provb.network('theirs', { label: 'theirs' }),
        provb.instance('theirs-vm', { hostname: 'theirs', diskImage: 'ubuntu-jammy', firewallId: '' }),
        provb.sshKey('theirs-key', { name: 'theirs', publicKey: 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIt theirs' }),
      ]),
    );
    const state = await batched.state();
    sim.store.instances.get(state.resources.vm1!.id)!.tags = ['drifted'];
    sim.store.instances.delete(state.resources.vm2!.id);
    sim.store.networks.get(state.resources.net3!.id)!.label = 'renamed';
    sim.store.networks.delete(state.resources.net4!.id);
    sim.store.sshkeys.delete(state.resources.key1!.id);
    sim.store.domains.get(state.resources.zone2!.id)!.name = 'renamed.example.com';

    const {
      plan: viaPages,
      listRequests: pageRequests,
      readRequests,
    } = await planBothWays(provider, location, stack(), sim);
    expect(
      Object.fromEntries(
        viaPages.steps.filter((s) => s.action !== 'noop').map((s) => [s.address, [s.action, s.cause]]),
      ),
    ).toEqual({
      vm1: ['update', 'drift'],
      vm2: ['create', 'gone'],
      net3: ['update', 'drift'],
      net4: ['create', 'gone'],
      key1: ['create', 'gone'],
      zone2: ['update', 'drift'],
    });
    expect(readRequests).toBe(18);
    // The listings, and a GET for each of the three objects deleted outside (absence is no proof).
    expect(pageRequests).toBeLessThanOrEqual(5 + 3);
  });
});
