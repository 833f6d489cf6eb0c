// src/kit/http.ts against a loopback server: answers, error mapping through the vendor's parser,
// idempotent retries vs a POST never re-sent on an unknown outcome, secret scrubbing, the budget.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { HttpClient, describeBody, type HttpClientOptions, type VendorErrorParser } from '../../src/kit/http.js';
import { RequestBudget, type BudgetClock } from '../../src/kit/budget.js';
import { ProviderError } from '../../src/engine/errors.js';
import type { Report } from '../../src/engine/provider/context.js';
import { withSharedBudget, type SharedBudget } from '../../src/engine/provider/shared-budget.js';

type Seen = { method: string; url: string; headers: IncomingMessage['headers']; body: string };
type Handler = (req: Seen, res: ServerResponse) => void;

let server: Server;
let url: string;
let seen: Seen[];
let handlers: Handler[];

beforeEach(async () => {
  seen = [];
  handlers = [];
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => {
      body += c.toString();
    });
    req.on('end', () => {
      const s = { method: req.method!, url: req.url!, headers: req.headers, body };
      seen.push(s);
      (handlers.shift() ?? ok({}))(s, res);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/`;
});
afterEach(async () => {
  server.closeAllConnections();
  await new Promise<void>((r) => server.close(() => r()));
});

const ok =
  (body: unknown, headers: Record<string, string> = {}): Handler =>
  (_q, res) => {
    res.writeHead(200, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
  };
const fail =
  (status: number, body: unknown, headers: Record<string, string> = {}): Handler =>
  (_q, res) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(typeof body === 'string' ? body : JSON.stringify(body));
  };
const reset: Handler = (_q, res) => {
  res.socket?.destroy();
};

const parseError: VendorErrorParser = (status, body, headers) => {
  const b = body as { code?: string; message?: string } | string | undefined;
  return typeof b === 'object' && b
    ? {
        detail: b.message ?? 'error',
        vendorCode: b.code,
        requestId: headers['x-request-id'],
        notFound: b.code === 'gone' ? true : undefined,
      }
    : { detail: String(b ?? 'no body') };
};

function client(options: Partial<HttpClientOptions> = {}) {
  return new HttpClient({
    provider: 'v',
    baseUrl: url,
    parseError,
    headers: () => ({ authorization: 'Bearer tok-SECRET-1' }),
    secrets: () => ['tok-SECRET-1'],
    ...options,
  });
}

function ctx(overrides: { signal?: AbortSignal; secrets?: string[]; retries?: number } = {}) {
  const reports: Report[] = [];
  return {
    reports,
    ctx: {
      signal: overrides.signal ?? new AbortController().signal,
      retry: { retries: overrides.retries ?? 2, minTimeoutMs: 0, maxTimeoutMs: 0 },
      report: (r: Report) => reports.push(r),
      ...(overrides.secrets ? { secrets: overrides.secrets } : {}),
    },
  };
}

const get = { method: 'GET' as const, path: '/things/a%2Fb', pathTemplate: '/things/{id}', operation: 'read thing' };
const post = {
  method: 'POST' as const,
  path: '/things',
  pathTemplate: '/things',
  operation: 'create thing',
  body: { name: 'x' },
};

describe('HttpClient answers', () => {
  it('resolves a 2xx with its status, headers and parsed JSON body', async () => {
    handlers.push(ok({ id: 'a' }, { 'x-thing': '1' }));
    const res = await client().request(ctx().ctx, get);
    expect(res).toMatchObject({ status: 200, body: { id: 'a' } });
    expect(res.headers['x-thing']).toBe('1');
  });

  it('sends the path under the base URL, query arrays as repeated keys, without null or undefined', async () => {
    await client().request(ctx().ctx, { ...get, query: { tag: ['a', 'b'], n: 1, skip: undefined, none: null } });
    expect(seen[0]!.url).toBe('/api/things/a%2Fb?tag=a&tag=b&n=1');
  });

  it("sends a JSON body with its content type, and the client's fixed headers", async () => {
    await client().request(ctx().ctx, post);
    expect(JSON.parse(seen[0]!.body)).toEqual({ name: 'x' });
    expect(seen[0]!.headers['content-type']).toBe('application/json');
    expect(seen[0]!.headers.authorization).toBe('Bearer tok-SECRET-1');
  });

  it('sends a form as application/x-www-form-urlencoded, leaving undefined fields out', async () => {
    await client().request(ctx().ctx, { ...post, body: undefined, form: { a: 'x y', b: 2, c: undefined } });
    expect(seen[0]!.body).toBe('a=x+y&b=2');
    expect(seen[0]!.headers['content-type']).toBe('application/x-www-form-urlencoded');
  });

  it('answers a raw 2xx body as text when asked', async () => {
    handlers.push((_q, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"not":"parsed"}');
    });
    expect((await client().request(ctx().ctx, { ...get, rawResponse: true })).body).toBe('{"not":"parsed"}');
  });

  it('answers an empty 2xx body as undefined', async () => {
    handlers.push((_q, res) => {
      res.writeHead(204);
      res.end();
    });
    expect((await client().request(ctx().ctx, { ...get, method: 'DELETE' })).body).toBeUndefined();
  });
});

describe('HttpClient errors', () => {
  it('maps a vendor error through the parser into a ProviderError with its facts', async () => {
    handlers.push(fail(404, { code: 'gone', message: 'no such thing' }, { 'x-request-id': 'req-9' }));
    const error = await client()
      .request(ctx().ctx, get)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({
      code: 'CONVERGE_PROVIDER',
      provider: 'v',
      operation: 'read thing',
      method: 'GET',
      pathTemplate: '/things/{id}',
      status: 404,
      vendorCode: 'gone',
      requestId: 'req-9',
      notFound: true,
      retryable: false,
      outcomeUnknown: false,
      detail: 'no such thing',
    });
    expect(seen).toHaveLength(1);
  });

  it('hands the parser a text body that is not JSON as text', async () => {
    handlers.push((_q, res) => {
      res.writeHead(400, { 'content-type': 'text/plain' });
      res.end('plain refusal');
    });
    expect(
      await client()
        .request(ctx().ctx, get)
        .catch((e: unknown) => e),
    ).toMatchObject({ status: 400, detail: 'plain refusal' });
  });

  it('counts a bare 404 as not found when the parser does not say', async () => {
    handlers.push(fail(404, 'nope'));
    expect(
      await client()
        .request(ctx().ctx, get)
        .catch((e: unknown) => e),
    ).toMatchObject({ notFound: true });
  });

  it('lets the parser overrule retryable', async () => {
    const c = client({ parseError: () => ({ detail: 'busy', retryable: true }) });
    handlers.push(fail(409, {}), ok({ id: 'a' }));
    expect((await c.request(ctx().ctx, get)).body).toEqual({ id: 'a' });
    expect(seen).toHaveLength(2);
  });

  it("keeps the vendor's Retry-After as a fact", async () => {
    handlers.push(
      fail(429, {}, { 'retry-after': '0' }),
      fail(429, {}, { 'retry-after': '0' }),
      fail(429, {}, { 'retry-after': '0' }),
    );
    const error = await client()
      .request(ctx().ctx, get)
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'CONVERGE_PROVIDER', status: 429, retryAfterSeconds: 0, retryable: true });
  });

  it("rejects with the signal's reason when it has fired, sending nothing", async () => {
    const reason = new Error('stopped');
    await expect(client().request(ctx({ signal: AbortSignal.abort(reason) }).ctx, get)).rejects.toBe(reason);
    expect(seen).toHaveLength(0);
  });
});

describe('HttpClient retries', () => {
  it('retries an idempotent request after a 5xx until it passes, reporting each retry', async () => {
    handlers.push(fail(503, {}), fail(502, {}), ok({ id: 'a' }));
    const { ctx: c, reports } = ctx();
    expect((await client().request(c, get)).body).toEqual({ id: 'a' });
    expect(seen).toHaveLength(3);
    expect(reports.map((r) => r.kind)).toEqual(['retry', 'retry']);
  });

  it('never re-sends a POST after a 5xx (its outcome is unknown)', async () => {
    handlers.push(fail(500, {}), ok({}));
    const error = await client()
      .request(ctx().ctx, post)
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'CONVERGE_PROVIDER', status: 500, outcomeUnknown: true });
    expect(seen).toHaveLength(1);
  });

  it('never re-sends a POST whose connection was reset after sending', async () => {
    handlers.push(reset, ok({}));
    const error = await client()
      .request(ctx().ctx, post)
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'CONVERGE_PROVIDER', method: 'POST', outcomeUnknown: true });
    expect(seen).toHaveLength(1);
  });

  it('retries a GET whose connection was reset', async () => {
    handlers.push(reset, ok({ id: 'a' }));
    expect((await client().request(ctx().ctx, get)).body).toEqual({ id: 'a' });
    expect(seen).toHaveLength(2);
  });

  it('re-sends a POST the caller marks idempotent', async () => {
    handlers.push(fail(500, {}), ok({ id: 'a' }));
    expect((await client().request(ctx().ctx, { ...post, idempotent: true })).body).toEqual({ id: 'a' });
    expect(seen).toHaveLength(2);
  });

  it('re-sends a POST refused with a 429 (refused before any work)', async () => {
    handlers.push(fail(429, {}, { 'retry-after': '0' }), ok({ id: 'a' }));
    expect((await client().request(ctx().ctx, post)).body).toEqual({ id: 'a' });
    expect(seen).toHaveLength(2);
  });

  it('re-sends a POST whose connection was refused (never sent)', async () => {
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', () => r()));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    const { ctx: c, reports } = ctx({ retries: 1 });
    const error = await client({ baseUrl: `http://127.0.0.1:${port}/` })
      .request(c, post)
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'CONVERGE_PROVIDER', retryable: true, outcomeUnknown: false });
    expect(reports.map((r) => r.kind)).toEqual(['retry']);
  });

  it('does not retry a 4xx', async () => {
    handlers.push(fail(422, { code: 'invalid' }), ok({}));
    expect(
      await client()
        .request(ctx().ctx, get)
        .catch((e: unknown) => e),
    ).toMatchObject({ status: 422, vendorCode: 'invalid', retryable: false });
    expect(seen).toHaveLength(1);
  });
});

describe('HttpClient secrets', () => {
  it("scrubs the client's and the step's secrets out of an echoed vendor body before the parser sees it", async () => {
    const bodies: unknown[] = [];
    const c = client({
      parseError: (s, body, h) => {
        bodies.push(body);
        return parseError(s, body, h);
      },
    });
    handlers.push(
      fail(400, { code: 'bad key pk-STEP-2', message: 'rejected sslPrivateKey pk-STEP-2 for tok-SECRET-1' }),
    );
    const error = await c.request(ctx({ secrets: ['pk-STEP-2'] }).ctx, post).catch((e: unknown) => e);
    const everything = JSON.stringify([
      bodies,
      error,
      (error as Error).message,
      (error as ProviderError).detail,
      (error as ProviderError).vendorCode,
    ]);
    expect(everything).not.toContain('pk-STEP-2');
    expect(everything).not.toContain('tok-SECRET-1');
    expect(error).toMatchObject({ code: 'CONVERGE_PROVIDER', status: 400 });
  });

  it('scrubs secrets out of what the parser makes itself', async () => {
    const c = client({ parseError: () => ({ detail: 'auth tok-SECRET-1 refused', vendorCode: 'tok-SECRET-1' }) });
    handlers.push(fail(401, {}));
    const error = (await c.request(ctx().ctx, get).catch((e: unknown) => e)) as ProviderError;
    expect(`${error.message} ${error.detail} ${error.vendorCode}`).not.toContain('tok-SECRET-1');
  });

  it('scrubs secrets out of retry events', async () => {
    const c = client({ parseError: () => ({ detail: 'busy with pk-STEP-2' }) });
    handlers.push(fail(503, {}), ok({}));
    const { ctx: cx, reports } = ctx({ secrets: ['pk-STEP-2'] });
    await c.request(cx, get);
    expect(reports).toHaveLength(1);
    expect(JSON.stringify(reports)).not.toContain('pk-STEP-2');
  });

  it('keeps headers (credentials) and request bodies out of errors', async () => {
    handlers.push(fail(400, { message: 'no' }));
    const error = (await client()
      .request(ctx().ctx, { ...post, body: { password: 'hunter2' } })
      .catch((e: unknown) => e)) as ProviderError;
    const text = JSON.stringify({ ...error, message: error.message });
    expect(text).not.toContain('hunter2');
    expect(text).not.toContain('Bearer');
  });
});

describe('HttpClient budget', () => {
  class FakeClock implements BudgetClock {
    t = 0;
    timers: { at: number; fn: () => void }[] = [];
    now = () => this.t;
    setTimeout = (fn: () => void, ms: number) => {
      const timer = { at: this.t + ms, fn };
      this.timers.push(timer);
      return timer;
    };
    clearTimeout = (h: unknown) => {
      this.timers = this.timers.filter((x) => x !== h);
    };
    advance(ms: number) {
      this.t += ms;
      const due = this.timers.filter((x) => x.at <= this.t);
      this.timers = this.timers.filter((x) => x.at > this.t);
      for (const d of due) d.fn();
    }
  }

  it('uses a budget it is given, so clients can share one', () => {
    const budget = new RequestBudget({ requestsPerSecond: 5 });
    expect(client({ rateLimit: budget }).budget).toBe(budget);
  });

  it('holds a request until the budget lets it through', async () => {
    const clock = new FakeClock();
    const c = client({ rateLimit: new RequestBudget({ requestsPerSecond: 1, burst: 1, clock }) });
    await c.request(ctx().ctx, get);
    let second = false;
    const p = c.request(ctx().ctx, get).then(() => {
      second = true;
    });
    await new Promise((r) => setImmediate(r));
    expect(seen).toHaveLength(1);
    expect(second).toBe(false);
    clock.advance(2000);
    await p;
    expect(seen).toHaveLength(2);
  });

  it("hands a 429 of a request a shared budget paced to that budget, and keeps this client's rate", async () => {
    const calls: string[] = [];
    const gate = (covered: string): SharedBudget => ({
      covers: (p) => p === covered,
      take: async (p) => void calls.push(`take ${p}`),
      refused: async (p, ms) => void calls.push(`refused ${p} ${ms}`),
    });
    handlers.push(fail(429, {}, { 'retry-after': '0' }), ok({ id: 'a' }));
    const c = client();
    const res = await withSharedBudget(gate('v'), () => c.request(ctx().ctx, get));
    expect(res.body).toEqual({ id: 'a' });
    expect(calls).toEqual(['take v', 'refused v 0', 'take v']);
    expect(c.budget.rate).toBe(Infinity);
    // a gate that covers another provider is not this client's: it is neither asked nor told
    calls.length = 0;
    handlers.push(fail(429, {}, { 'retry-after': '0' }), ok({ id: 'b' }));
    await withSharedBudget(gate('other'), () => c.request(ctx().ctx, get));
    expect(calls).toEqual([]);
  });
});

describe('describeBody', () => {
  it('says "no details" for an empty body', () => {
    expect(describeBody(undefined)).toBe('no details');
    expect(describeBody('')).toBe('no details');
  });

  it('cuts a long body to 500 characters', () => {
    expect(describeBody('x'.repeat(10_000))).toHaveLength(500);
    expect(describeBody({ a: 'y'.repeat(10_000) }).length).toBeLessThanOrEqual(500);
  });
});
