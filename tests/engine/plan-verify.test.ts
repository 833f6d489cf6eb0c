// The plan-time credential check: a plan that changes anything has each provider involved check its
// credentials and endpoint once, so a bad token, a dead endpoint or an unknown region fail the plan
// (a CI plan gate goes red) instead of the apply; a plan with no changes makes no request for it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, Engine, MemoryStateStore, ProviderError, type Event } from '../../src/index.js';
import { provb } from '../../src/providers/b/index.js';
import { provc } from '../../src/providers/c/index.js';
import { prova } from '../../src/providers/a/index.js';
import { startSimulator as startCivo } from '../../src/providers/b/simulator/index.js';
import { startSimulator as startGcore } from '../../src/providers/c/simulator/index.js';
import { startSimulator as startLxd } from '../../src/providers/a/simulator/index.js';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of closers.splice(0).reverse()) await c();
});

const net = () => provb.network('net', { label: 'verify' });
const origins = () => provc.cdnOriginGroup('origins', { name: 'o', sources: [{ source: 'o.example.com' }] });
const profile = () => prova.profile('prof', { name: 'cvt-verify', config: { 'user.team': 'a' } });

function tmp(): string {
  const d = mkdtempSync(join(tmpdir(), 'cvt-verify-'));
  closers.push(async () => rmSync(d, { recursive: true, force: true }));
  return d;
}

describe('a plan with changes checks each provider once', () => {
  it('Civo: a bad token fails the plan with the 401', async () => {
    const sim = await startCivo();
    closers.push(() => sim.close());
    const engine = new Engine({
      providers: [provb({ token: 'wrong', apiEndpoint: sim.url, region: 'LON1' })],
      state: new MemoryStateStore(),
    });
    const e = await engine.plan([net()]).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ProviderError);
    expect((e as ProviderError).status).toBe(401);
    expect(sim.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /v2/regions']);
  });

  it('Civo: an unknown region fails the plan naming the regions Civo has', async () => {
    const sim = await startCivo();
    closers.push(() => sim.close());
    const engine = new Engine({
      providers: [provb({ token: sim.token, apiEndpoint: sim.url, region: 'XYZ9' })],
      state: new MemoryStateStore(),
    });
    const e = await engine.plan([net()]).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ConfigError);
    expect((e as ConfigError).message).toMatch(/^provb: region "XYZ9" is not a Civo region \(Civo lists LON1, /);
  });

  it('Civo: a dead endpoint fails the plan within 15 s, with one retry event per retry', async () => {
    const sim = await startCivo();
    const url = sim.url;
    await sim.close();
    const events: Event[] = [];
    const engine = new Engine({
      providers: [provb({ token: 'any', apiEndpoint: url, region: 'LON1' })],
      state: new MemoryStateStore(),
      onEvent: (e) => events.push(e),
    });
    const started = Date.now();
    const e = await engine.plan([net()]).catch((x: unknown) => x);
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(e).toBeInstanceOf(ProviderError);
    expect((e as ProviderError).detail).toMatch(/connection failed: ECONNREFUSED/);
    const retries = events.filter((x) => x.type === 'retry');
    expect(retries.map((x) => x.type === 'retry' && [x.address, x.operation, x.attempt])).toEqual([
      ['provb', 'verify', 1],
      ['provb', 'verify', 2],
      ['provb', 'verify', 3],
    ]);
  }, 20_000);

  it('Civo: a plan with no changes makes no request for the check', async () => {
    const sim = await startCivo();
    closers.push(() => sim.close());
    const engine = new Engine({
      providers: [provb({ token: sim.token, apiEndpoint: sim.url, region: 'LON1' })],
      state: new MemoryStateStore(),
    });
    await engine.apply(await engine.plan([net()]));
    const before = sim.requests.length;
    const again = await engine.plan([net()]);
    expect(again.hasChanges).toBe(false);
    expect(sim.requests.slice(before).filter((r) => r.path === '/v2/regions')).toEqual([]);
  });

  it('Gcore: a bad API key fails the plan with the 401', async () => {
    const sim = await startGcore();
    closers.push(() => sim.close());
    const engine = new Engine({
      providers: [provc({ apiKey: 'wrong', baseUrl: sim.baseUrl, env: {} })],
      state: new MemoryStateStore(),
    });
    const e = await engine.plan([origins()]).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ProviderError);
    expect((e as ProviderError).status).toBe(401);
  });

  it('Gcore: a dead endpoint fails the plan', async () => {
    const sim = await startGcore();
    const url = sim.baseUrl;
    await sim.close();
    const engine = new Engine({
      providers: [provc({ apiKey: 'k', baseUrl: url, env: {} })],
      state: new MemoryStateStore(),
      retry: { minTimeoutMs: 1, maxTimeoutMs: 5 },
    });
    const e = await engine.plan([origins()]).catch((x: unknown) => x);
    expect((e as ProviderError).detail).toMatch(/connection failed/);
  });

  it('fake LXD: a remote that refuses the trust password fails the plan', async () => {
    const sim = await startLxd({ tls: true, trustPassword: 'right' });
    closers.push(() => sim.close());
    const p = prova({
      configDir: tmp(),
      acceptRemoteCertificate: true,
      generateClientCertificates: true,
      remotes: [{ name: 's', address: sim.address, password: 'wrong', default: true }],
    });
    closers.push(() => p.close());
    const engine = new Engine({ providers: [p], state: new MemoryStateStore() });
    const e = await engine.plan([profile()]).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ProviderError);
    expect(sim.store.certificates.size).toBe(0);
  });

  it('fake LXD: a socket nobody listens on fails the plan', async () => {
    const p = prova({ socketPath: join(tmp(), 'none.socket'), configDir: tmp() });
    closers.push(() => p.close());
    const engine = new Engine({
      providers: [p],
      state: new MemoryStateStore(),
      retry: { minTimeoutMs: 1, maxTimeoutMs: 5 },
    });
    const e = await engine.plan([profile()]).catch((x: unknown) => x);
    expect((e as ProviderError).detail).toMatch(/connection failed: ENOENT/);
  });

  it('fake LXD: a plan with changes reads the server once, one with none does not read it again', async () => {
    const dir = tmp();
    const sim = await startLxd({ socketPath: join(dir, 'unix.socket') });
    closers.push(() => sim.close());
    const p = prova({ socketPath: sim.socketPath, configDir: join(dir, 'config'), pollIntervalMs: 2 });
    closers.push(() => p.close());
    const engine = new Engine({ providers: [p], state: new MemoryStateStore() });
    await engine.apply(await engine.plan([profile()]));
    const before = sim.requests.length;
    expect((await engine.plan([profile()])).hasChanges).toBe(false);
    expect(sim.requests.slice(before).filter((r) => r.path === '/1.0')).toEqual([]);
  });
});
