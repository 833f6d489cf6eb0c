// The README's "testing your own stacks against the simulators", verbatim (the region below): a
// stack tested against the shipped Civo simulator, with injected faults, in vitest.
// #region test
import { afterEach, beforeEach, expect, it } from 'vitest';
import { Engine, MemoryStateStore } from 'converge';
import { provb } from 'converge/providers/b';
import { startSimulator, type CivoSimulator } from 'converge/providers/b/simulator';

function myStack(replicas: number) {
  const net = provb.network('net', { label: 'app' });
  const fw = provb.firewall('fw', { name: 'app-fw', networkId: net.out('networkId') });
  const webs = Array.from({ length: replicas }, (_, i) =>
    provb.instance(`web-${i}`, {
      hostname: `web-${i}`,
      diskImage: 'ubuntu-jammy',
      networkId: net.out('networkId'),
      firewallId: fw.out('firewallId'),
    }),
  );
  return [net, fw, ...webs];
}

let civo: CivoSimulator;
beforeEach(async () => {
  // One in five requests fails (429 with Retry-After, 500, dropped connections), the same ones on every run.
  civo = await startSimulator({ faults: { rate: 0.2 }, seed: 7, transitions: { instance: 5 } });
});
afterEach(async () => {
  expect(civo.unmatched).toEqual([]); // every request the provider made is one the API knows
  await civo.close();
});

it('converges despite transient API failures, and creates nothing twice', async () => {
  const engine = new Engine({
    providers: [provb({ token: civo.token, apiEndpoint: civo.url, region: 'LON1', pollIntervalMs: 1 })],
    state: new MemoryStateStore(),
    retry: { retries: 8, minTimeoutMs: 1, maxTimeoutMs: 5 },
  });
  await engine.apply(await engine.plan(myStack(3)));
  expect((await engine.plan(myStack(3))).hasChanges).toBe(false);
  expect([...civo.store.instances.values()].map((i) => i.hostname).sort()).toEqual(['web-0', 'web-1', 'web-2']);

  const shrink = await engine.plan(myStack(2));
  expect(shrink.summary).toMatchObject({ delete: 1, noop: 4 });
  await engine.apply(shrink);
  expect(civo.store.instances.size).toBe(2);
});
// #endregion test
