// Each API family answers errors in its own documented shape: Cloud paths
// {exception_class, message, request_id}, CDN paths the Django REST shapes ({detail}, {errors}).
// Injected 429 and 500 answers included, and the client reads both.
import { afterEach, describe, expect, it } from 'vitest';
import { ProviderError, standaloneContext } from 'converge';
import { startSimulator, type GcoreSimulator } from 'converge/providers/c/simulator';
import { makeProvider } from './helpers/harness.js';

let sim: GcoreSimulator | undefined;
afterEach(async () => {
  await sim?.close();
  sim = undefined;
});

const CDN = [
  '/cdn/origin_groups',
  '/cdn/resources',
  '/cdn/resources/rule_templates',
  '/cdn/sslData',
  '/cdn/sslCertificates',
];
const CLOUD = [
  '/cloud/v1/floatingips/1/76',
  '/cloud/v1/bminstances/1/76',
  '/cloud/v1/tasks',
  '/cloud/v3/inference/flavors',
];

async function get(s: GcoreSimulator, path: string, key = s.apiKey) {
  const res = await fetch(`${s.baseUrl}${path}`, { headers: { authorization: `APIKey ${key}` } });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

const isCloudShape = (b: Record<string, unknown>) =>
  typeof b.exception_class === 'string' && typeof b.message === 'string' && typeof b.request_id === 'string';
const isCdnShape = (b: Record<string, unknown>) => typeof b.detail === 'string' && !('exception_class' in b);

describe('error bodies per API family', () => {
  for (const kind of ['429', '500'] as const) {
    it(`an injected ${kind} on a CDN path has the CDN shape, on a Cloud path the Cloud shape`, async () => {
      sim = await startSimulator({ faults: { rate: 1, kinds: [kind], retryAfterSeconds: 2 } });
      for (const p of CDN) {
        const r = await get(sim, p);
        expect(r.status, p).toBe(Number(kind));
        expect(isCdnShape(r.body), `${p} ${JSON.stringify(r.body)}`).toBe(true);
      }
      for (const p of CLOUD) {
        const r = await get(sim, p);
        expect(r.status, p).toBe(Number(kind));
        expect(isCloudShape(r.body), `${p} ${JSON.stringify(r.body)}`).toBe(true);
      }
    });
  }

  it('a CDN 429 says when to come back, in its detail and in Retry-After', async () => {
    sim = await startSimulator({ faults: { rate: 1, kinds: ['429'], retryAfterSeconds: 7 } });
    const res = await fetch(`${sim.baseUrl}/cdn/origin_groups`, { headers: { authorization: `APIKey ${sim.apiKey}` } });
    expect(res.headers.get('retry-after')).toBe('7');
    expect(((await res.json()) as { detail: string }).detail).toContain('7 seconds');
  });

  it('the same holds under a path prefix (a proxy in front)', async () => {
    sim = await startSimulator({ basePath: '/gcore', faults: { rate: 1, kinds: ['500'] } });
    expect(isCdnShape((await get(sim, '/cdn/origin_groups')).body)).toBe(true);
    expect(isCloudShape((await get(sim, '/cloud/v1/tasks')).body)).toBe(true);
  });

  it('not found, unauthenticated and invalid answers keep their family shape', async () => {
    sim = await startSimulator();
    expect(isCdnShape((await get(sim, '/cdn/origin_groups/999999')).body)).toBe(true);
    expect(isCloudShape((await get(sim, '/cloud/v1/floatingips/1/76/00000000-0000-4000-8000-000000000000')).body)).toBe(
      true,
    );
    expect(isCdnShape((await get(sim, '/cdn/origin_groups', 'wrong')).body)).toBe(true);
    expect(isCloudShape((await get(sim, '/cloud/v1/tasks', 'wrong')).body)).toBe(true);
    const bad = await fetch(`${sim.baseUrl}/cdn/origin_groups`, {
      method: 'POST',
      headers: { authorization: `APIKey ${sim.apiKey}`, 'content-type': 'application/json' },
      body: '{"name": 1}',
    });
    expect(Object.keys((await bad.json()) as object)).toEqual(['errors']);
  });

  it('the client reads both shapes: CDN 500 detail, Cloud 500 exception class', async () => {
    sim = await startSimulator({ faults: { rate: 1, kinds: ['500'] } });
    const p = makeProvider(sim);
    const ctx = standaloneContext(p.config, { retry: { retries: 0, minTimeoutMs: 1, maxTimeoutMs: 1 } });
    const cdn = await p.config.client.getCdnOriginGroup(ctx, 1).catch((e: unknown) => e as ProviderError);
    expect(cdn).toBeInstanceOf(ProviderError);
    expect(cdn).toMatchObject({ status: 500, retryable: true, detail: 'A server error occurred.' });
    expect((cdn as ProviderError).vendorCode).toBeUndefined();
    const cloud = await p.config.client.getTask(ctx, 'x').catch((e: unknown) => e as ProviderError);
    expect(cloud).toMatchObject({ status: 500, vendorCode: 'HTTPError' });
  });
});
