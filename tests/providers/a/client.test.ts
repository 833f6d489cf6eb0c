import { afterEach, describe, expect, it } from 'vitest';
import { Agent } from 'undici';
import { ProviderError } from '../../../src/engine/errors.js';
import { standaloneContext } from '../../../src/engine/provider/context.js';
import { LxdClient } from '../../../src/providers/a/client.js';
import { parseLxdError } from '../../../src/providers/a/errors.js';
import { simEnv, type SimEnv } from './sim-env.js';

let env: SimEnv | undefined;
afterEach(async () => {
  await env?.close();
  env = undefined;
});

const ctx = standaloneContext(undefined, { retry: { retries: 1, minTimeoutMs: 1, maxTimeoutMs: 2 } });
function clientFor(e: SimEnv, secrets: string[] = []): LxdClient {
  return new LxdClient({
    remote: 'sim',
    baseUrl: 'http://lxd',
    dispatcher: new Agent({ connect: { socketPath: e.sim.socketPath! } }),
    secrets: () => secrets,
    operationWaitSeconds: 1,
  });
}
const start = (c: LxdClient) =>
  c.request(ctx, {
    method: 'PUT',
    pathTemplate: '/1.0/instances/{name}/state',
    params: { name: 'c1' },
    operation: 'start instance',
    body: { action: 'start' },
  });

async function withRunning(options = {}) {
  env = await simEnv(options);
  const def = env.res('prova:index/instance:Instance');
  await def.create(env.ctx, def.inputs.parse({ name: 'c1', image: 'busybox' }));
  return clientFor(env);
}

describe('LxdClient', () => {
  it('returns sync metadata with the ETag', async () => {
    env = await simEnv();
    const r = await clientFor(env).request<{ name: string }>(ctx, {
      method: 'GET',
      pathTemplate: '/1.0/profiles/{name}',
      params: { name: 'default' },
      operation: 'read profile',
    });
    expect(r.metadata.name).toBe('default');
    expect(r.etag).toMatch(/^"[0-9a-f]{64}"$/);
  });

  it('treats a 200 /wait that carries a failed operation (LXD 5.0) as a failure with the LXD message', async () => {
    const c = await withRunning({ waitStyle: '5.0' });
    const err = await start(c).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProviderError);
    expect((err as ProviderError).detail).toBe('The instance is already running');
    expect((err as ProviderError).retryable).toBe(false);
  });

  it('treats an HTTP 200 error envelope from /wait (LXD 5.20+) as a failure after checking the operation', async () => {
    const c = await withRunning({ waitStyle: '5.20' });
    const err = await start(c).catch((e: unknown) => e);
    expect((err as ProviderError).detail).toBe('The instance is already running');
    expect(env!.sim.requests.some((r) => /^\/1\.0\/operations\/[^/]+$/.test(r.path))).toBe(true);
  });

  it('keeps waiting while /wait times out with the operation still running', async () => {
    env = await simEnv({ operationMs: 30, waitStyle: '5.20' });
    env.sim.use({
      method: 'GET',
      path: '/1.0/operations/:id/wait',
      handler: () => ({ status: 200, body: { type: 'error', error: 'context deadline exceeded', error_code: 500 } }),
    });
    const c = clientFor(env);
    const r = await c.request(ctx, {
      method: 'POST',
      pathTemplate: '/1.0/instances',
      operation: 'create instance',
      body: { name: 'w1', source: { type: 'image', alias: 'busybox' } },
    });
    expect(r.operation?.status).toBe('Success');
    expect(env.sim.store.instances.has('default/w1')).toBe(true);
  });

  it('resolves a vanished operation (404 after retention) to undefined so the caller re-reads', async () => {
    env = await simEnv();
    env.sim.use(
      {
        method: 'GET',
        path: '/1.0/operations/:id/wait',
        handler: () => ({ status: 404, body: { type: 'error', error: 'Operation not found', error_code: 404 } }),
      },
      {
        method: 'GET',
        path: '/1.0/operations/:id',
        handler: () => ({ status: 404, body: { type: 'error', error: 'Operation not found', error_code: 404 } }),
      },
    );
    const r = await clientFor(env).request(ctx, {
      method: 'POST',
      pathTemplate: '/1.0/instances',
      operation: 'create instance',
      body: { name: 'w2', source: { type: 'image', alias: 'busybox' } },
    });
    expect(r.operation).toBeUndefined();
  });

  it('maps error envelopes to ProviderError with the LXD message and notFound for 404', async () => {
    env = await simEnv();
    const err = await clientFor(env)
      .request(ctx, {
        method: 'GET',
        pathTemplate: '/1.0/instances/{name}',
        params: { name: 'nope' },
        operation: 'read instance',
      })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProviderError);
    expect(err as ProviderError).toMatchObject({
      status: 404,
      notFound: true,
      detail: 'Instance not found',
      pathTemplate: '/1.0/instances/{name}',
    });
  });

  it('passes ?project= through', async () => {
    env = await simEnv();
    const c = clientFor(env);
    await c.request(ctx, {
      method: 'GET',
      pathTemplate: '/1.0/instances',
      operation: 'list',
      project: 'p1',
    });
    expect(env.sim.requests.at(-1)!.query).toBe('?project=p1');
  });

  it("refuses ?target= on a standalone server with LXD's 400 before sending the call", async () => {
    env = await simEnv();
    const c = clientFor(env);
    const err = await c
      .request(ctx, {
        method: 'POST',
        pathTemplate: '/1.0/instances',
        operation: 'create instance',
        target: 'm1',
        body: {},
      })
      .catch((e: unknown) => e);
    expect(err).toMatchObject({ status: 400, vendorCode: 'target_not_clustered', retryable: false });
    expect(env.sim.requests.filter((r) => r.method === 'POST')).toHaveLength(0);
  });

  it('reads api_extensions once per client', async () => {
    env = await simEnv();
    const c = clientFor(env);
    await c.requireExtension(ctx, 'etag', 'x');
    await c.requireExtension(ctx, 'network', 'y');
    expect(env.sim.requests.filter((r) => r.path === '/1.0').length).toBe(1);
  });

  it('never lets a secret into an error', async () => {
    env = await simEnv();
    env.sim.use({
      method: 'GET',
      path: '/1.0/profiles/:name',
      handler: () => ({
        status: 400,
        body: { type: 'error', error: 'bad password hunter2-secret given', error_code: 400 },
      }),
    });
    const err = await clientFor(env, ['hunter2-secret'])
      .request(ctx, {
        method: 'GET',
        pathTemplate: '/1.0/profiles/{name}',
        params: { name: 'x' },
        operation: 'read profile',
      })
      .catch((e: unknown) => e);
    expect(String((err as Error).message)).not.toContain('hunter2-secret');
    expect(JSON.stringify(err)).not.toContain('hunter2-secret');
  });

  it('parses LXD error bodies, retrying only 503', () => {
    expect(parseLxdError(500, { type: 'error', error: 'boom', error_code: 500 })).toMatchObject({
      detail: 'boom',
      retryable: false,
    });
    expect(parseLxdError(503, { type: 'error', error: 'later', error_code: 503 }).retryable).toBe(true);
  });
});

describe('transient failures', () => {
  it('retries 429s and dropped connections on reads, reporting each retry, and still creates exactly one instance', async () => {
    env = await simEnv({ faults: { rate: 0.3, kinds: ['429', 'drop'], methods: ['GET'] }, seed: 7 });
    const def = env.res('prova:index/instance:Instance');
    const patient = { ...env.ctx, retry: { retries: 10, minTimeoutMs: 1, maxTimeoutMs: 3 } };
    const made = await def.create(patient, def.inputs.parse({ name: 'flaky', image: 'busybox' }));
    expect(made.outputs.status).toBe('Running');
    expect(env.reports.some((r) => r.kind === 'retry')).toBe(true);
    expect(env.sim.requests.filter((r) => r.method === 'POST' && r.path === '/1.0/instances')).toHaveLength(1);
    expect(env.sim.store.instances.size).toBe(1);
  });
});
