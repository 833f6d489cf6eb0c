// Issue 11's hang: SSH key, an instance using it, a 10 GB volume and its attachment; change the key
// (the instance is replaced) and grow the volume to 20 GB, in one plan. It must converge in one
// apply, and the re-attachment keeps the declared attachAtBoot.
import { afterEach, describe, expect, it } from 'vitest';
import { Engine, MemoryStateStore, ref } from 'converge';
import { provb } from 'converge/providers/b';
import { startSimulator, type CivoSimulator } from 'converge/providers/b/simulator';

let sim: CivoSimulator | undefined;
afterEach(async () => {
  await sim?.close();
  sim = undefined;
});

const stack = (keyVersion: number, sizeGb: number) => {
  const key = provb.sshKey('key', {
    name: 'deploy',
    publicKey: `ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIv${keyVersion} deploy`,
  });
  const vm = provb.instance('vm', {
    hostname: 'vm',
    diskImage: 'ubuntu-jammy',
    firewallId: '',
    sshkeyId: key.out('sshKeyId'),
  });
  const vol = provb.volume('data', { name: 'data', sizeGb });
  const att = provb.volumeAttachment('att', {
    instanceId: ref('vm', 'id'),
    volumeId: vol.out('volumeId'),
    attachAtBoot: false,
  });
  return [key, vm, vol, att];
};

describe('replacing an instance while growing its attached volume', () => {
  it('converges in one apply and keeps attachAtBoot false', async () => {
    sim = await startSimulator({ transitions: { instance: 5, volume: 5 } });
    const engine = new Engine({
      providers: [provb({ token: sim.token, apiEndpoint: sim.url, region: 'LON1', pollIntervalMs: 2 })],
      state: new MemoryStateStore(),
    });
    await engine.apply(await engine.plan(stack(1, 10)));
    const plan = await engine.plan(stack(2, 20));
    expect(
      Object.fromEntries(plan.steps.filter((s) => s.action !== 'noop').map((s) => [s.address, s.action])),
    ).toMatchObject({ key: 'replace', vm: 'replace', data: 'update', att: 'replace' });
    await engine.apply(plan);
    const again = await engine.plan(stack(2, 20));
    expect(again.hasChanges, JSON.stringify(again.steps.filter((s) => s.action !== 'noop'))).toBe(false);
    const state = await engine.state();
    const vol = sim.store.volumes.get(state.resources.data!.id)!;
    expect(vol.size_gb).toBe(20);
    expect(vol.instance_id).toBe(state.resources.vm!.id);
    expect(sim.store.instances.size).toBe(1);
    expect((state.resources.att!.inputs as { attachAtBoot: boolean }).attachAtBoot).toBe(false);
  }, 60_000);
});
