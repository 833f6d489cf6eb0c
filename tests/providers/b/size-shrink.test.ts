// Civo resizes an instance up only (wire notes 4.2): a larger size plans as an in-place update, a
// smaller one as a replacement that names the size, never as an update the API refuses at apply.
import { afterEach, describe, expect, it } from 'vitest';
import { Engine, MemoryStateStore } from '../../../src/index.js';
import { provb } from '../../../src/providers/b/index.js';
import { startSimulator } from '../../../src/providers/b/simulator/index.js';
import { isShrink } from '../../../src/providers/b/support/size.js';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of closers.splice(0)) await c();
});

function stack(size: string) {
  const net = provb.network('net', { label: 'shrink' });
  const fw = provb.firewall('fw', { name: 'shrink', networkId: net.out('networkId') });
  const web = provb.instance('web', {
    hostname: 'web1',
    diskImage: 'ubuntu-jammy',
    size,
    networkId: net.out('networkId'),
    firewallId: fw.out('firewallId'),
  });
  return [net, fw, web];
}

describe("a Civo instance's size", () => {
  it('is compared within its family, and names outside the scheme are left to the API', () => {
    expect(isShrink('g3.medium', 'g3.small')).toBe(true);
    expect(isShrink('g3.small', 'g3.large')).toBe(false);
    expect(isShrink('g3.medium', 'g4s.small')).toBe(false);
    expect(isShrink('g3.legacy', 'g3.small')).toBe(false);
  });

  it('plans a shrink as a replacement forced by size, and a growth as an update', async () => {
    const sim = await startSimulator();
    closers.push(() => sim.close());
    const engine = new Engine({
      providers: [provb({ token: sim.token, apiEndpoint: sim.url, region: 'LON1', pollIntervalMs: 5 })],
      state: new MemoryStateStore(),
    });
    await engine.apply(await engine.plan(stack('g3.medium')));
    const smaller = (await engine.plan(stack('g3.small'))).steps.find((s) => s.address === 'web')!;
    expect(smaller.action).toBe('replace');
    expect(smaller.reasons.join(' ')).toContain('size');
    const larger = (await engine.plan(stack('g3.large'))).steps.find((s) => s.address === 'web')!;
    expect(larger.action).toBe('update');
  });
});
