// A loopback stand-in for LXD for the client's transient tests (busy.test.ts, project-race.test.ts):
// an HTTP server answering with the test's handler, an LxdClient on it, and an operation context
// with fast retries whose reports the test reads. closeStub() in afterEach.
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { standaloneContext, type OperationKind, type Report } from '../../../src/engine/provider/context.js';
import { LxdClient } from '../../../src/providers/a/client.js';

let server: Server | undefined;

/** Starts the stub with `handler` and returns a client of it. */
export async function lxdStub(handler: RequestListener): Promise<LxdClient> {
  server = createServer(handler);
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
  return new LxdClient({ remote: 'stub', baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
}

/** Closes the stub, if one runs. */
export async function closeStub(): Promise<void> {
  server?.closeAllConnections();
  if (server) await new Promise((r) => server!.close(r));
  server = undefined;
}

/** A context whose retries wait 5-20 ms, `retries` times, and whose reports are kept. */
export function retryContext(address: string, operation: OperationKind, retries: number) {
  const reports: Report[] = [];
  const ctx = standaloneContext(undefined, {
    address,
    operation,
    retry: { retries, minTimeoutMs: 5, maxTimeoutMs: 20 },
    report: (r) => reports.push(r),
  });
  return { ctx, reports };
}
