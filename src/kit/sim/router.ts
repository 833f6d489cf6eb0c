// The simulators' one HTTP mechanism: a route table (method, path pattern, handler) served on
// loopback or a unix socket, with JSON parsing, request-body validation, vendor-shaped errors,
// latency, a rate limit, injected faults, a request log, and a record of every unmatched request.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createTlsServer, type ServerOptions as TlsOptions } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { rmSync } from 'node:fs';
import type { z } from 'zod';
import { FaultPlan, type FaultKind, type FaultOptions } from './faults.js';
import { RateLimiter, type RateLimitFacts, type RateLimitOptions } from './rate-limit.js';
import { compile, matchRoute, parseBody, requestOf, type Compiled, type RequestParts } from './request.js';

/** A request as a handler gets it: method, path, query, headers, the TLS peer's certificate (when served over TLS with client certificates), and: */
export type SimRequest = RequestParts & {
  readonly params: Readonly<Record<string, string>>;
  /** Parsed JSON (or form fields as an object); undefined when there is no body. */
  readonly body: unknown;
  readonly rawBody: Buffer;
};

export type SimResponse = {
  readonly status: number;
  readonly body?: unknown;
  readonly headers?: Readonly<Record<string, string>>;
  /** Raw bytes instead of JSON. */
  readonly raw?: Buffer | string;
};

export type Route<S> = {
  readonly method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** '/v2/instances/:id'; a trailing '/*' matches the rest of the path into params['*']. */
  readonly path: string;
  /** Validates the JSON body; a failure is answered by the router's `invalid` hook. */
  readonly body?: z.ZodType;
  readonly handler: (req: SimRequest, state: S) => SimResponse | Promise<SimResponse>;
  /** A GET route that also takes websocket upgrades: after auth, it owns the connection. */
  readonly upgrade?: (
    req: SimRequest,
    state: S,
    upgrade: { readonly raw: IncomingMessage; readonly socket: Duplex; readonly head: Buffer },
  ) => void;
};

export type RequestLogEntry = {
  readonly method: string;
  readonly path: string;
  readonly query: string;
  readonly route: string | null;
  readonly status: number;
  readonly fault?: FaultKind;
  /** Refused by the rate limit. */
  readonly throttled?: boolean;
  readonly body: unknown;
  readonly response: unknown;
  readonly at: number;
};

export type RouterOptions<S> = {
  readonly routes: readonly Route<S>[];
  readonly state: S;
  /** Returns an error answer when the request is not authenticated, else null. */
  readonly auth?: (req: SimRequest) => SimResponse | null;
  /** The vendor's answer for an unknown path. */
  readonly notFound: (req: SimRequest) => SimResponse;
  /** The vendor's answer for a known path with a method it does not take; default `notFound`'s body with status 405. */
  readonly methodNotAllowed?: (req: SimRequest) => SimResponse;
  /** The vendor's answer for a body that fails a route's schema. */
  readonly invalid: (
    req: SimRequest,
    issues: readonly { path: readonly PropertyKey[]; message: string }[],
  ) => SimResponse;
  /**
   * Checks a matched request against the vendor's published contract before the route's body
   * schema and handler; an answer refuses it (the Gcore simulator checks Gcore's OpenAPI specs). Default: none.
   */
  readonly check?: (req: SimRequest, route: Route<S>) => SimResponse | undefined;
  /** The vendor's 429 / 500 answers for injected faults (and handler crashes); `req` tells API families apart. */
  readonly faultResponse?: (kind: '429' | '500', retryAfterSeconds: number, req: SimRequest) => SimResponse;
  readonly latencyMs?: number;
  /** Refuses requests beyond this rate with the vendor's answer (`rateLimited`). */
  readonly rateLimit?: RateLimitOptions;
  /** The vendor's answer to a request over the rate limit (its 429 body and headers). */
  readonly rateLimited?: (facts: RateLimitFacts, req: SimRequest) => SimResponse;
  /** Headers the vendor adds to every answer while a rate limit is on (x-ratelimit-*). */
  readonly rateLimitHeaders?: (facts: RateLimitFacts) => Readonly<Record<string, string>>;
  readonly faults?: FaultOptions;
  readonly seed?: number;
  /** Where to listen: loopback on an ephemeral port (default), or a unix socket path. */
  readonly listen?: { readonly host?: string; readonly port?: number } | { readonly socketPath: string };
  readonly tls?: TlsOptions;
};

export type SimServer = {
  /** Base URL ('http://127.0.0.1:PORT'); for a unix socket, 'http://localhost'. */
  readonly url: string;
  readonly socketPath?: string;
  readonly port?: number;
  readonly requests: readonly RequestLogEntry[];
  readonly unmatched: readonly RequestLogEntry[];
  /** Prepends routes that win over the table until resetHandlers(). */
  use(...routes: Route<unknown>[]): void;
  /**
   * Runs `hook` before each routed request is handled, until resetHandlers(): a test changes the
   * simulator's state between two requests (an object deleted between two page requests).
   */
  before(hook: (req: SimRequest) => void): void;
  resetHandlers(): void;
  setFaults(faults: FaultOptions | undefined): void;
  setLatency(ms: number): void;
  /** Turns the rate limit on (a fresh, full bucket), changes it, or turns it off. */
  setRateLimit(limit: RateLimitOptions | undefined): void;
  clearLog(): void;
  close(): Promise<void>;
};

export async function startRouter<S>(options: RouterOptions<S>): Promise<SimServer> {
  const table = options.routes.map(compile);
  let overrides: Compiled<Route<unknown>>[] = [];
  let hooks: ((req: SimRequest) => void)[] = [];
  const faults = new FaultPlan(options.faults, options.seed ?? 1);
  let latencyMs = options.latencyMs ?? 0;
  let limiter = options.rateLimit ? new RateLimiter(options.rateLimit) : undefined;
  const requests: RequestLogEntry[] = [];
  const unmatched: RequestLogEntry[] = [];
  const sockets = new Set<Socket>();

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const rawBody = Buffer.concat(chunks);
    const url = new URL(req.url ?? '/', 'http://sim');
    const method = (req.method ?? 'GET').toUpperCase();
    const body = parseBody(rawBody, String(req.headers['content-type'] ?? ''));
    const base: Omit<SimRequest, 'params'> = { ...requestOf(req, url, method), body, rawBody };
    const log = (entry: Omit<RequestLogEntry, 'method' | 'path' | 'query' | 'body' | 'at'>) => {
      const e: RequestLogEntry = { method, path: base.path, query: url.search, body, at: Date.now(), ...entry };
      requests.push(e);
      return e;
    };
    let limitHeaders: Readonly<Record<string, string>> | undefined;
    const send = (r: SimResponse) => {
      // A configured limit's headers are the truth: they win over any a handler set (the Civo routes send their account's own).
      const headers: Record<string, string> = { ...(r.headers ?? {}), ...(limitHeaders ?? {}) };
      let payload: Buffer | string = '';
      if (r.raw !== undefined) payload = r.raw;
      else if (r.body !== undefined) {
        payload = JSON.stringify(r.body);
        headers['content-type'] ??= 'application/json';
      }
      res.writeHead(r.status, headers);
      res.end(payload);
    };
    if (latencyMs > 0) await new Promise((r) => setTimeout(r, latencyMs));
    const limit = limiter?.take();
    if (limit) limitHeaders = options.rateLimitHeaders?.(limit);
    if (limit && !limit.allowed) {
      const r = options.rateLimited?.(limit, { ...base, params: {} }) ?? {
        status: 429,
        body: { error: 'rate limited' },
      };
      const refused = { ...r, headers: { 'retry-after': String(limit.retryAfterSeconds), ...(r.headers ?? {}) } };
      log({ route: null, status: refused.status, throttled: true, response: refused.body });
      return send(refused);
    }

    const fault = faults.draw(method);
    if (fault === '429' || fault === '500') {
      const retryAfter = faults.options?.retryAfterSeconds ?? 0;
      const r = options.faultResponse?.(fault, retryAfter, { ...base, params: {} }) ?? {
        status: Number(fault),
        body: { error: fault === '429' ? 'rate limited' : 'internal error' },
      };
      const withHeader =
        fault === '429' ? { ...r, headers: { ...(r.headers ?? {}), 'retry-after': String(retryAfter) } } : r;
      log({ route: null, status: withHeader.status, fault, response: withHeader.body });
      return send(withHeader);
    }
    if (fault === 'drop') {
      log({ route: null, status: 0, fault, response: undefined });
      req.socket.destroy();
      return;
    }

    const { match, pathMatched } = findRoute(base.path, method);
    const sreq: SimRequest = { ...base, params: match?.params ?? {} };
    const denied = options.auth?.(sreq);
    if (denied) {
      log({ route: match?.c.route.path ?? null, status: denied.status, response: denied.body });
      return send(denied);
    }
    if (!match) {
      const r = !pathMatched
        ? options.notFound(sreq)
        : (options.methodNotAllowed?.(sreq) ?? { ...options.notFound(sreq), status: 405 });
      const entry = log({ route: null, status: r.status, response: r.body });
      unmatched.push(entry);
      return send(r);
    }
    for (const hook of hooks) hook(sreq);
    let response: SimResponse;
    const refused = options.check?.(sreq, match.c.route);
    const schema = match.c.route.body;
    const parsed = schema && !refused ? schema.safeParse(body ?? {}) : undefined;
    if (refused) response = refused;
    else if (parsed && !parsed.success) {
      response = options.invalid(sreq, parsed.error.issues);
    } else {
      try {
        response = await match.c.route.handler(parsed?.success ? { ...sreq, body: parsed.data } : sreq, options.state);
      } catch (error) {
        response = options.faultResponse?.('500', 0, sreq) ?? {
          status: 500,
          body: { error: String((error as Error).message) },
        };
      }
    }
    log({ route: match.c.route.path, status: response.status, response: response.body, fault });
    if (fault === 'drop_after') {
      req.socket.destroy();
      return;
    }
    send(response);
  };

  const findRoute = (path: string, method: string, upgrade = false) =>
    matchRoute([...overrides, ...table] as Compiled<Route<S>>[], path, method, upgrade);

  /** A websocket upgrade: matched against routes that have `upgrade`, authenticated, then handed over. */
  const onUpgrade = (raw: IncomingMessage, socket: Duplex, head: Buffer) => {
    const url = new URL(raw.url ?? '/', 'http://sim');
    const base = { ...requestOf(raw, url, 'GET'), body: undefined, rawBody: Buffer.alloc(0) };
    const { match } = findRoute(base.path, 'GET', true);
    const sreq: SimRequest = { ...base, params: match?.params ?? {} };
    const entry = (status: number, response: unknown): RequestLogEntry => ({
      method: 'GET',
      path: base.path,
      query: url.search,
      route: match?.c.route.path ?? null,
      status,
      body: undefined,
      response,
      at: Date.now(),
    });
    const refuse = (r: SimResponse) => {
      const e = entry(r.status, r.body);
      requests.push(e);
      if (!match) unmatched.push(e);
      const payload = JSON.stringify(r.body ?? {});
      socket.end(
        `HTTP/1.1 ${r.status} Refused\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(payload)}\r\nconnection: close\r\n\r\n${payload}`,
      );
    };
    const denied = options.auth?.(sreq);
    if (denied) return refuse(denied);
    if (!match) return refuse(options.notFound(sreq));
    requests.push(entry(101, undefined));
    match.c.route.upgrade!(sreq, options.state, { raw, socket, head });
  };

  const listener = (req: IncomingMessage, res: ServerResponse) => {
    handle(req, res).catch((error) => {
      if (!res.headersSent) {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: String(error) }));
      }
    });
  };
  const server: Server = options.tls ? createTlsServer(options.tls, listener) : createServer(listener);
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  server.on('upgrade', onUpgrade);
  server.on('secureConnection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });

  const listen = options.listen ?? {};
  let url: string;
  let port: number | undefined;
  let socketPath: string | undefined;
  if ('socketPath' in listen) {
    socketPath = listen.socketPath;
    rmSync(socketPath, { force: true });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(socketPath, () => resolve());
    });
    url = 'http://localhost';
  } else {
    const host = listen.host ?? '127.0.0.1';
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(listen.port ?? 0, host, () => resolve());
    });
    port = (server.address() as AddressInfo).port;
    url = `${options.tls ? 'https' : 'http'}://${host}:${port}`;
  }

  return {
    url,
    port,
    socketPath,
    requests,
    unmatched,
    use: (...routes) => {
      overrides = [...routes.map((r) => compile(r)), ...overrides];
    },
    before: (hook) => {
      hooks = [...hooks, hook];
    },
    resetHandlers: () => {
      overrides = [];
      hooks = [];
    },
    setFaults: (f) => faults.set(f),
    setLatency: (ms) => {
      latencyMs = ms;
    },
    setRateLimit: (l) => {
      limiter = l ? new RateLimiter(l) : undefined;
    },
    clearLog: () => {
      requests.length = 0;
      unmatched.length = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => {
          if (socketPath) rmSync(socketPath, { force: true });
          resolve();
        });
      }),
  };
}
