// LXD's operation lock ("Instance is busy running a stop operation") is a transient provider A waits
// out, in both shapes the daemon uses: an error answer to the request, and a background operation
// that fails at once. Each wait is reported as a retry; any other failure is not retried. A loopback
// stub answers "busy" a set number of times, then succeeds.
import { afterEach, describe, expect, it } from 'vitest';
import { ProviderError } from '../../../src/engine/errors.js';
import type { LxdClient } from '../../../src/providers/a/client.js';
import { isBusy } from '../../../src/providers/a/errors.js';
import { closeStub, lxdStub, retryContext } from './lxd-stub.js';

const BUSY = 'Failed creating instance update operation: Instance is busy running a "stop" operation';
let posts = 0;
afterEach(async () => {
  await closeStub();
  posts = 0;
});

/** A stub whose first `busyTimes` changing requests fail in the given shape, later ones succeed. */
function stub(shape: 'answer' | 'operation' | 'other', busyTimes: number): Promise<LxdClient> {
  return lxdStub((req, res) => {
    res.setHeader('content-type', 'application/json');
    if (req.method !== 'GET') {
      posts++;
      const fail = posts <= busyTimes;
      if (fail && shape === 'answer') {
        res.statusCode = 500;
        res.end(JSON.stringify({ type: 'error', error: BUSY, error_code: 500 }));
        return;
      }
      const op = fail
        ? { id: `op${posts}`, status: 'Failure', status_code: 400, err: shape === 'other' ? 'Invalid config' : BUSY }
        : { id: `op${posts}`, status: 'Success', status_code: 200, metadata: {} };
      res.end(
        JSON.stringify({ type: 'async', status_code: 100, operation: `/1.0/operations/op${posts}`, metadata: op }),
      );
      return;
    }
    const id = /operations\/(op\d+)/.exec(req.url ?? '')?.[1] ?? 'op0';
    const n = Number(id.slice(2));
    const fail = n <= busyTimes;
    res.end(
      JSON.stringify({
        type: 'sync',
        status_code: 200,
        metadata: fail
          ? { id, status: 'Failure', status_code: 400, err: shape === 'other' ? 'Invalid config' : BUSY }
          : { id, status: 'Success', status_code: 200, metadata: {} },
      }),
    );
  });
}

const call = { method: 'PUT', pathTemplate: '/1.0/instances/web', operation: 'update instance', body: {} } as const;
const post = { ...call, method: 'POST' } as const;

const context = () => retryContext('web', 'update', 4);

describe('an instance busy with another operation', () => {
  it.each([
    ['Instance is busy running a "stop" operation', true],
    ['Failed deleting instance "c": Instance is busy running a create operation', true],
    ['Instance is busy running an "exec" operation', true],
    ['Instance is running', false],
    ['Invalid config', false],
    [undefined, false],
  ])('isBusy(%j) is %s', (detail, busy) => {
    expect(isBusy(detail)).toBe(busy);
  });

  it('as a background operation that failed at once: the call is sent again until it succeeds, each wait a retry event', async () => {
    const client = await stub('operation', 2);
    const { ctx, reports } = context();
    await expect(client.request(ctx, post)).resolves.toMatchObject({ metadata: {} });
    expect(posts).toBe(3);
    const retries = reports.filter((r) => r.kind === 'retry');
    expect(retries).toHaveLength(2);
    expect(retries[0]).toMatchObject({ kind: 'retry', attempt: 1 });
    expect(String((retries[0] as { error: string }).error)).toContain('is busy running a "stop" operation');
  });

  it('as an error answer: retried by the HTTP client, then it succeeds', async () => {
    const client = await stub('answer', 2);
    const { ctx, reports } = context();
    await expect(client.request(ctx, call)).resolves.toBeDefined();
    expect(posts).toBe(3);
    expect(reports.filter((r) => r.kind === 'retry')).toHaveLength(2);
  });

  it('gives up after the policy’s retries with the busy error', async () => {
    const client = await stub('operation', 99);
    const { ctx } = context();
    const err = await client.request(ctx, post).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProviderError);
    expect((err as ProviderError).detail).toContain('is busy running');
    expect(posts).toBe(5); // the first attempt and 4 retries
  });

  it('any other failed operation is not retried', async () => {
    const client = await stub('other', 1);
    const { ctx, reports } = context();
    const err = await client.request(ctx, post).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProviderError);
    expect((err as ProviderError).detail).toBe('Invalid config');
    expect(posts).toBe(1);
    expect(reports.filter((r) => r.kind === 'retry')).toHaveLength(0);
  });
});
