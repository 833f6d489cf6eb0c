// The warning that secrets are stored in clear: given only when a secret value will be written (a
// secret input that holds a value), once, naming the resource and path; a secret path left empty
// (an optional password left out, Civo's initial password with writePassword: false) warns nothing.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Engine, FileStateStore, type Event } from '../../src/index.js';
import { provb } from '../../src/providers/b/index.js';
import { startSimulator } from '../../src/providers/b/simulator/index.js';
import { TestCloud, testProvider } from '../helpers/test-provider.js';
import { thing } from '../helpers/builders.js';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of closers.splice(0)) await c();
});

function fileStore(): FileStateStore {
  const dir = mkdtempSync(join(tmpdir(), 'cvt-clear-'));
  const store = new FileStateStore(join(dir, 'state.json'));
  closers.push(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return store;
}

function engineWith(store: FileStateStore) {
  const events: Event[] = [];
  const engine = new Engine({
    providers: [testProvider(new TestCloud())],
    state: store,
    onEvent: (e) => events.push(e),
  });
  return { engine, events };
}

const clearWarnings = (list: readonly string[]) => list.filter((w) => w.includes('stored in clear'));

describe('the clear-text secrets warning', () => {
  it('is not given when no secret input holds a value', async () => {
    const { engine } = engineWith(fileStore());
    const plan = await engine.plan([thing('a')]);
    expect(clearWarnings(plan.warnings)).toEqual([]);
  });

  it('names each resource and path whose secret value will be written, once across plan and apply', async () => {
    const store = fileStore();
    const { engine, events } = engineWith(store);
    const plan = await engine.plan([thing('a', { password: 'hunter2' }), thing('b')]);
    expect(clearWarnings(plan.warnings)).toEqual([
      `Secret values (a.inputs.password) will be stored in clear in ${store.location}. Pass secretsPassphrase or set CONVERGE_SECRETS_PASSPHRASE to encrypt them.`,
    ]);
    await engine.apply(plan);
    const warned = events.filter((e) => e.type === 'warning' && e.message.includes('will be stored in clear'));
    expect(warned).toEqual([]);
  });

  it("is not given for a Civo instance whose initial password is not written (the Quickstart's stack)", async () => {
    const sim = await startSimulator();
    closers.push(() => sim.close());
    const events: Event[] = [];
    const engine = new Engine({
      providers: [provb({ token: sim.token, apiEndpoint: sim.url, region: 'LON1', pollIntervalMs: 5 })],
      state: fileStore(),
      onEvent: (e) => events.push(e),
    });
    const net = provb.network('net', { label: 'demo' });
    const fw = provb.firewall('fw', { name: 'web', networkId: net.out('networkId') });
    const web = provb.instance('web', {
      hostname: 'web1',
      diskImage: 'ubuntu-jammy',
      networkId: net.out('networkId'),
      firewallId: fw.out('firewallId'),
    });
    const plan = await engine.plan([net, fw, web]);
    expect(clearWarnings(plan.warnings)).toEqual([]);
    await engine.apply(plan);
    expect((await engine.plan([net, fw, web])).warnings).toEqual([]);
    expect(events.filter((e) => e.type === 'warning')).toEqual([]);
  });
});
