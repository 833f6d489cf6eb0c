// Retries happen at exactly one layer: the HTTP kit for wire calls. Apply never wraps a provider
// call in a second retry, and the engine writes nothing to stderr (no MaxListenersExceededWarning
// however many steps share the caller's signal).
import { afterEach, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';
import { ApplyError, Engine, MemoryStateStore, ProviderError, defineProvider, defineResource } from 'converge';
import { HttpClient } from '../../src/kit/http.js';
import { setup, thing } from '../helpers/builders.js';

let server: Server | undefined;
afterEach(async () => {
  await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
  server = undefined;
});

/** A vendor whose PUT always answers 503; counts requests by method. */
async function vendor(): Promise<{ url: string; count: Record<string, number> }> {
  const count: Record<string, number> = {};
  server = createServer((req, res) => {
    count[req.method!] = (count[req.method!] ?? 0) + 1;
    if (req.method === 'PUT') {
      res.writeHead(503, { 'content-type': 'application/json' });
      res.end('{"error":"busy"}');
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ id: 'w1', size: req.method === 'GET' ? 1 : 1 }));
  });
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', () => r()));
  return { url: `http://127.0.0.1:${(server!.address() as AddressInfo).port}/`, count };
}

function widgetProvider(url: string) {
  const http = new HttpClient({
    provider: 'w',
    baseUrl: url,
    parseError: (status, body) => ({ detail: JSON.stringify(body), notFound: status === 404 }),
  });
  return defineProvider({
    name: 'w',
    resources: [
      defineResource({
        token: 'w:index/widget:Widget',
        inputs: z.object({ size: z.number() }).strict(),
        outputs: z.object({}),
        create: async (ctx, i) => {
          await http.request(ctx, {
            method: 'POST',
            path: '/widgets',
            pathTemplate: '/widgets',
            body: i,
            operation: 'create widget',
          });
          return { id: 'w1', outputs: {} };
        },
        read: async (ctx, id) => {
          const r = await http.request<{ size: number }>(ctx, {
            method: 'GET',
            path: `/widgets/${id}`,
            pathTemplate: '/widgets/{id}',
            operation: 'read widget',
          });
          return { inputs: { size: r.body.size }, outputs: {} };
        },
        update: async (ctx, id, _o, n) => {
          await http.request(ctx, {
            method: 'PUT',
            path: `/widgets/${id}`,
            pathTemplate: '/widgets/{id}',
            body: n,
            operation: 'update widget',
          });
          return { outputs: {} };
        },
        delete: async (ctx, id) => {
          await http.request(ctx, {
            method: 'DELETE',
            path: `/widgets/${id}`,
            pathTemplate: '/widgets/{id}',
            operation: 'delete widget',
          });
        },
      }),
    ],
  });
}

describe('one retry layer', () => {
  it('makes retries + 1 requests for a PUT that answers 503 every time, and the step fails with the ProviderError', async () => {
    const v = await vendor();
    const engine = new Engine({
      providers: [widgetProvider(v.url)],
      state: new MemoryStateStore(),
      retry: { retries: 3, minTimeoutMs: 1, maxTimeoutMs: 2 },
    });
    await engine.apply(await engine.plan([{ type: 'w:index/widget:Widget', name: 'w', inputs: { size: 1 } }]));
    const err = await engine
      .apply(await engine.plan([{ type: 'w:index/widget:Widget', name: 'w', inputs: { size: 2 } }], { refresh: false }))
      .catch((e) => e);
    expect(err).toBeInstanceOf(ApplyError);
    const cause = (err as ApplyError).result.failed[0]!.error;
    expect(cause).toBeInstanceOf(ProviderError);
    expect(cause).toMatchObject({ status: 503, code: 'CONVERGE_PROVIDER' });
    expect(v.count.PUT).toBe(4);
  });

  it("scrubs secrets from a failed step's error and keeps its class, code, status and facts", async () => {
    const { engine, cloud } = setup();
    await engine.apply(await engine.plan([thing('a', { password: 'hunter2-very-secret' })]));
    cloud.failUpdate.add('a');
    const err = await engine
      .apply(await engine.plan([thing('a', { password: 'hunter2-very-secret', size: 'large' })]))
      .catch((e) => e);
    const cause = (err as ApplyError).result.failed[0]!.error as ProviderError;
    expect(cause).toBeInstanceOf(ProviderError);
    expect(cause).toMatchObject({
      code: 'CONVERGE_PROVIDER',
      status: 422,
      provider: 'test',
      method: 'PUT',
      retryable: false,
    });
    expect(JSON.stringify({ ...cause, message: cause.message, stack: cause.stack })).not.toContain('hunter2');
  });

  it('refuses retry options that are not whole numbers, like parallelism', () => {
    expect(() => new Engine({ providers: [], state: new MemoryStateStore(), retry: { retries: -1 } })).toThrow(
      TypeError,
    );
    expect(() => new Engine({ providers: [], state: new MemoryStateStore(), retry: { retries: 1.5 } })).toThrow(
      TypeError,
    );
    expect(
      () => new Engine({ providers: [], state: new MemoryStateStore(), retry: { minTimeoutMs: 10, maxTimeoutMs: 5 } }),
    ).toThrow(TypeError);
  });

  it('prints no MaxListenersExceededWarning with many steps on one caller signal', async () => {
    const warnings: Error[] = [];
    const listen = (w: Error) => warnings.push(w);
    process.on('warning', listen);
    try {
      const { engine, cloud } = setup({ parallelism: 25 });
      cloud.latencyMs = 5;
      const controller = new AbortController();
      const decls = Array.from({ length: 60 }, (_, i) => thing(`t${i}`, {}, { timeouts: { create: '1m' } }));
      await engine.apply(await engine.plan(decls, { signal: controller.signal }), { signal: controller.signal });
      await engine.plan(decls, { signal: controller.signal });
      await new Promise((r) => setImmediate(r));
      expect(cloud.maxInflight).toBeGreaterThan(10);
      expect(warnings.map((w) => w.name)).toEqual([]);
    } finally {
      process.off('warning', listen);
    }
  });
});
