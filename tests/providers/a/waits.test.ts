// Every wait of provider A ends: an operation that never finishes fails with a TimeoutError at the
// call's deadline (else the step's), asking the server for no longer than is left (the address wait's
// deadline is tested on the real daemon). A loopback LXD stub keeps its one operation Running forever.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { TimeoutError } from '../../../src/engine/errors.js';
import { standaloneContext } from '../../../src/engine/provider/context.js';
import { LxdClient } from '../../../src/providers/a/client.js';

const running = { id: 'op1', class: 'task', status: 'Running', status_code: 103 };
let server: Server | undefined;
const waits: string[] = [];
afterEach(async () => {
  await new Promise((r) => server?.close(r));
  server = undefined;
  waits.length = 0;
});

/** A stub whose POSTs answer an async operation and whose /wait answers "still running" after 50 ms. */
async function stub(): Promise<LxdClient> {
  server = createServer((req, res) => {
    res.setHeader('content-type', 'application/json');
    if (req.method === 'POST') {
      res.end(JSON.stringify({ type: 'async', status_code: 100, operation: '/1.0/operations/op1', metadata: running }));
      return;
    }
    if (req.url?.startsWith('/1.0/operations/op1/wait')) {
      waits.push(new URL(req.url, 'http://x').searchParams.get('timeout') ?? '');
      setTimeout(() => res.end(JSON.stringify({ type: 'sync', status_code: 200, metadata: running })), 50);
      return;
    }
    res.end(JSON.stringify({ type: 'sync', status_code: 200, metadata: running }));
  });
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
  return new LxdClient({
    remote: 'stub',
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    operationWaitSeconds: 30,
  });
}

const call = {
  method: 'POST',
  pathTemplate: '/1.0/instances',
  operation: 'create instance',
  body: {},
} as const;

describe('operation waits', () => {
  it("end with a TimeoutError at the call's deadline while the operation still runs", async () => {
    const client = await stub();
    const ctx = standaloneContext(undefined, { address: 'web', operation: 'create' });
    const err = await client.request(ctx, { ...call, waitMs: 300 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TimeoutError);
    expect(err).toMatchObject({ address: 'web', operation: 'create', limitMs: 300 });
    expect(waits.length).toBeGreaterThan(1);
  });

  it("take the step's limit as the deadline when the call sets none, and ask the server for at most what is left", async () => {
    const client = await stub();
    const ctx = standaloneContext(undefined, { address: 'web', operation: 'create', timeoutMs: 200 });
    const err = await client.request(ctx, call).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'CONVERGE_TIMEOUT', limitMs: 200 });
    expect(waits.every((t) => t === '1')).toBe(true);
  });
});
