// Rate limits end to end: the simulators' token bucket and the vendor answers it produces (Civo's
// x-ratelimit-* headers and 429 body, Gcore's Cloud and CDN 429 bodies), and an engine run whose
// steps share one provider budget so a limited account refuses none of them.
import { afterEach, describe, expect, it } from 'vitest';
import { request } from 'undici';
import { RateLimiter } from '../../src/kit/sim/rate-limit.js';
import { startSimulator as startCivo } from '../../src/providers/b/simulator/index.js';
import { startSimulator as startGcore } from '../../src/providers/c/simulator/index.js';
import { provb } from '../../src/providers/b/index.js';
import { Engine, MemoryStateStore } from '../../src/index.js';
import { HttpClient } from '../../src/kit/http.js';
import { standaloneContext } from '../../src/engine/provider/context.js';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of closers.splice(0)) await c();
});

async function get(url: string, auth: string) {
  const r = await request(url, { headers: { authorization: auth } });
  return {
    status: r.statusCode,
    headers: r.headers as Record<string, string>,
    body: (await r.body.json()) as Record<string, unknown>,
  };
}

describe('RateLimiter', () => {
  it('allows a burst, then refuses with the seconds until the next request and until the bucket is whole', () => {
    let now = 0;
    const l = new RateLimiter({ requestsPerSecond: 2, burst: 3 }, () => now);
    expect([l.take(), l.take(), l.take()].map((f) => [f.allowed, f.remaining])).toEqual([
      [true, 2],
      [true, 1],
      [true, 0],
    ]);
    expect(l.take()).toEqual({ allowed: false, limit: 3, remaining: 0, resetSeconds: 2, retryAfterSeconds: 1 });
    now = 500;
    expect(l.take()).toMatchObject({ allowed: true, remaining: 0 });
    now = 10_000;
    expect(l.take()).toMatchObject({ allowed: true, remaining: 2, resetSeconds: 1 });
  });

  it('refuses a rate or burst that is not positive', () => {
    expect(() => new RateLimiter({ requestsPerSecond: 0 })).toThrow(TypeError);
    expect(() => new RateLimiter({ requestsPerSecond: 1, burst: 0 })).toThrow(TypeError);
  });
});

describe('simulator rate limits', () => {
  it("Civo: every answer carries x-ratelimit-*, and a request over the limit gets 429 with Retry-After and Civo's body", async () => {
    const sim = await startCivo({ rateLimit: { requestsPerSecond: 1, burst: 2 } });
    closers.push(() => sim.close());
    const auth = `bearer ${sim.token}`;
    const a = await get(`${sim.url}/v2/sshkeys`, auth);
    const b = await get(`${sim.url}/v2/sshkeys`, auth);
    const c = await get(`${sim.url}/v2/sshkeys`, auth);
    expect([a.status, b.status, c.status]).toEqual([200, 200, 429]);
    expect(a.headers).toMatchObject({ 'x-ratelimit-limit': '2', 'x-ratelimit-remaining': '1' });
    expect(b.headers['x-ratelimit-remaining']).toBe('0');
    expect(Number(b.headers['x-ratelimit-reset'])).toBeGreaterThanOrEqual(1);
    expect(c.headers['retry-after']).toBe('1');
    expect(c.body).toMatchObject({ result: 'Too many requests' }); // Civo documents no code for a 429 (civogo knows none)
    expect(sim.requests.map((r) => r.throttled ?? false)).toEqual([false, false, true]);
    expect(sim.unmatched).toEqual([]);
  });

  it("Gcore: a Cloud path gets the Cloud error body, a CDN path Django REST framework's throttling body", async () => {
    const sim = await startGcore({ rateLimit: { requestsPerSecond: 1, burst: 1 } });
    closers.push(() => sim.close());
    const auth = `APIKey ${sim.apiKey}`;
    expect((await get(`${sim.baseUrl}/cdn/origin_groups`, auth)).status).toBe(200);
    const cdn = await get(`${sim.baseUrl}/cdn/origin_groups`, auth);
    const cloud = await get(`${sim.baseUrl}/cloud/v1/floatingips/1/76`, auth);
    expect(cdn).toMatchObject({ status: 429, headers: { 'retry-after': '1' } });
    expect(cdn.body.detail).toMatch(/^Request was throttled\. Expected available in 1 second\.$/);
    expect(cloud).toMatchObject({ status: 429, body: { exception_class: 'HTTPError' } });
    expect(cdn.headers['x-ratelimit-limit']).toBeUndefined();
  });

  it('turns the limit off and on at run time', async () => {
    const sim = await startCivo({ rateLimit: { requestsPerSecond: 1, burst: 1 } });
    closers.push(() => sim.close());
    const auth = `bearer ${sim.token}`;
    await get(`${sim.url}/v2/sshkeys`, auth);
    sim.setRateLimit(undefined);
    const free = await get(`${sim.url}/v2/sshkeys`, auth);
    expect(free.status).toBe(200);
    expect(free.headers['x-ratelimit-limit']).toBe('600'); // without a configured limit, the account's own headers (every Civo answer carries them)
    sim.setRateLimit({ requestsPerSecond: 1, burst: 1 });
    expect((await get(`${sim.url}/v2/sshkeys`, auth)).status).toBe(200);
    expect((await get(`${sim.url}/v2/sshkeys`, auth)).status).toBe(429);
  });
});

describe('provider request budget', () => {
  it('shares one budget among every step of an apply, so a limited account refuses none of them', async () => {
    const limit = { requestsPerSecond: 50, burst: 10 };
    const sim = await startCivo({ rateLimit: limit });
    closers.push(() => sim.close());
    const engine = new Engine({
      providers: [provb({ token: sim.token, apiEndpoint: sim.url, rateLimit: limit })],
      state: new MemoryStateStore(),
      parallelism: 10,
    });
    const decls = Array.from({ length: 40 }, (_, i) => ({
      type: 'provb:index/dnsDomainName:DnsDomainName',
      name: `d${i}`,
      inputs: { name: `rl-${i}.example.com` },
    }));
    const result = await engine.apply(await engine.plan(decls, { refresh: false }));
    expect(result.failed).toEqual([]);
    expect(sim.requests.filter((r) => r.throttled)).toEqual([]);
    expect(sim.store.domains.size).toBe(40);
  });

  it('with no rate configured, waits out x-ratelimit-remaining 0 instead of sending into a 429', async () => {
    const sim = await startCivo({ rateLimit: { requestsPerSecond: 2, burst: 2 } });
    closers.push(() => sim.close());
    const http = new HttpClient({
      provider: 'provb',
      baseUrl: sim.url,
      headers: () => ({ authorization: `bearer ${sim.token}` }),
      parseError: () => ({ detail: 'error' }),
    });
    const ctx = standaloneContext({}, { retry: { retries: 0, minTimeoutMs: 1, maxTimeoutMs: 1 } });
    const list = () =>
      http
        .request(ctx, { method: 'GET', path: '/v2/sshkeys', pathTemplate: '/v2/sshkeys', operation: 'list SSH keys' })
        .then((r) => r.status);
    // the second answer says the allowance is spent: the next two wait for x-ratelimit-reset
    const statuses = [await list(), await list(), ...(await Promise.all([list(), list()]))];
    expect(statuses).toEqual([200, 200, 200, 200]);
    expect(sim.requests.filter((r) => r.throttled)).toEqual([]);
    expect(http.budget.throttledCount).toBe(0);
  });
});
