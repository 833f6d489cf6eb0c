// The one HTTP client mechanism providers build their wire clients on (undici underneath). It sends
// JSON, maps vendor error bodies to ProviderError through the provider's parser, retries transient
// failures through the engine's retry, and never blindly re-sends a request whose outcome is unknown.
// Every attempt first takes its turn from the client's request budget (budget.ts): one per provider
// instance, so all the steps of a run share the vendor's rate limit; then from the shared budget of
// the async context when there is one (engine/provider/shared-budget.ts: a fleet account's limit
// across processes).
import type * as Undici from 'undici';
import type { Dispatcher } from 'undici';
import { ProviderError } from '../engine/errors.js';
import { withRetry, isTransient, defaultRetryPolicy } from '../engine/run/retry.js';
import type { OperationContext } from '../engine/provider/context.js';
import { redactBody, redactStrings, redactText } from '../engine/values/redact.js';
import { RequestBudget, retryAfterMs, type BudgetHold, type RequestRate } from './budget.js';
import { sharedBudget } from '../engine/provider/shared-budget.js';

/**
 * undici, loaded with the first request: its index loads every part of it (fetch, WebSocket, the
 * mock agents, caches), about 0.1 s of CPU that a process importing a provider pays whether or not
 * it ever sends anything (a test on `converge/testing`'s mocks, `converge init`, a command refused
 * for its input).
 */
let undici: Promise<typeof Undici> | undefined;
// A bundler that inlines undici (esbuild, for one) may hand its CommonJS exports over as the default export only.
const loadUndici = () =>
  (undici ??= import('undici').then((m) =>
    typeof m.request === 'function' ? m : (m as unknown as { default: typeof Undici }).default,
  ));

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export type VendorError = {
  readonly detail: string;
  readonly vendorCode?: string;
  readonly requestId?: string;
  readonly notFound?: boolean;
  readonly retryable?: boolean;
};

/** Turns a vendor's error answer into facts. `body` is the parsed JSON body, or the text when it is not JSON. */
export type VendorErrorParser = (
  status: number,
  body: unknown,
  headers: Readonly<Record<string, string>>,
) => VendorError;

export type QueryValue = string | number | boolean | undefined | null | readonly (string | number | boolean)[];

export type HttpRequest = {
  readonly method: HttpMethod;
  /** The filled path, relative to the base URL ('/instances/abc'). */
  readonly path: string;
  /** The path as a template for errors ('/instances/{id}'): never holds ids or secrets. */
  readonly pathTemplate: string;
  /** Arrays become repeated keys; undefined and null are left out. A URLSearchParams is sent as is. */
  readonly query?: Readonly<Record<string, QueryValue>> | URLSearchParams;
  readonly body?: unknown;
  /** Sent as application/x-www-form-urlencoded instead of JSON. */
  readonly form?: Readonly<Record<string, string | number | boolean | undefined>>;
  readonly headers?: Readonly<Record<string, string>>;
  /** Bytes sent as is (set the content-type in `headers`), instead of JSON. */
  readonly rawBody?: string | Uint8Array;
  /** Return a 2xx body as text, unparsed (file downloads). */
  readonly rawResponse?: boolean;
  /** What the call does, for errors: 'create instance'. */
  readonly operation: string;
  /** Whether repeating the request is harmless. Default: every method but POST. */
  readonly idempotent?: boolean;
};

export type HttpResponse<T = unknown> = {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: T;
};

export type HttpClientOptions = {
  readonly provider: string;
  /** The vendor's name for people ('Civo', 'LXD'), in wait messages; default: the provider's name. */
  readonly vendor?: string;
  readonly baseUrl: string;
  readonly dispatcher?: Dispatcher;
  /** Authentication and other fixed headers; never copied into errors or events. */
  readonly headers?: () => Readonly<Record<string, string>>;
  readonly parseError: VendorErrorParser;
  /** Secret strings to scrub from any text that leaves the client. */
  readonly secrets?: () => readonly string[];
  /** The vendor's rate limit (or a budget to share); default: no fixed rate, only what the vendor signals (headers, 429). */
  readonly rateLimit?: RequestRate | RequestBudget;
};

type CallContext = Pick<OperationContext, 'signal' | 'retry' | 'report'> & Partial<Pick<OperationContext, 'secrets'>>;

export class HttpClient {
  readonly #opts: HttpClientOptions;
  readonly #base: URL;
  /** Every request of this client waits its turn here. */
  readonly budget: RequestBudget;

  constructor(options: HttpClientOptions) {
    this.#opts = options;
    this.budget = options.rateLimit instanceof RequestBudget ? options.rateLimit : new RequestBudget(options.rateLimit);
    const base = options.baseUrl.endsWith('/') ? options.baseUrl : `${options.baseUrl}/`;
    this.#base = new URL(base);
  }

  get baseUrl(): string {
    return this.#base.href;
  }

  /** Sends one request, retried while transient and safe to repeat. 2xx answers resolve; others throw ProviderError. */
  async request<T = unknown>(ctx: CallContext, req: HttpRequest): Promise<HttpResponse<T>> {
    const idempotent = req.idempotent ?? req.method !== 'POST';
    return withRetry((attempt) => this.#once<T>(ctx, req, attempt), {
      policy: ctx.retry ?? defaultRetryPolicy,
      signal: ctx.signal,
      // A request that may have taken effect is repeated only when repeating it is harmless.
      shouldRetry: (error) => idempotent || !(error instanceof ProviderError && error.outcomeUnknown),
      onRetry: (info) =>
        ctx.report({
          kind: 'retry',
          attempt: info.attempt,
          retriesLeft: info.retriesLeft,
          delayMs: info.delayMs,
          error: this.#scrub(info.error.message.split('\n')[0] ?? '', ctx),
          ...(info.error instanceof ProviderError && info.error.status !== undefined
            ? { status: info.error.status }
            : {}),
        }),
    });
  }

  async #once<T>(ctx: CallContext, req: HttpRequest, _attempt: number): Promise<HttpResponse<T>> {
    const url = this.#url(req);
    const headers: Record<string, string> = {
      accept: 'application/json',
      ...(this.#opts.headers?.() ?? {}),
      ...(req.headers ?? {}),
    };
    let body: string | Uint8Array | undefined;
    if (req.rawBody !== undefined) {
      body = req.rawBody;
      headers['content-type'] ??= 'application/octet-stream';
    } else if (req.form) {
      const f = new URLSearchParams();
      for (const [k, v] of Object.entries(req.form)) if (v !== undefined) f.set(k, String(v));
      body = f.toString();
      headers['content-type'] = 'application/x-www-form-urlencoded';
    } else if (req.body !== undefined) {
      body = JSON.stringify(req.body);
      headers['content-type'] = 'application/json';
    }
    let res: Dispatcher.ResponseData;
    await this.budget.take(ctx.signal, (hold) =>
      ctx.report({ kind: 'wait', reason: 'rate_limit', waitMs: hold.waitMs, message: this.#holdText(hold) }),
    );
    const sharedGate = sharedBudget();
    const shared = sharedGate?.covers(this.#opts.provider) ? sharedGate : undefined;
    if (shared) {
      try {
        await shared.take(this.#opts.provider, ctx.signal, (wait) =>
          ctx.report({ kind: 'wait', reason: 'rate_limit', waitMs: wait.waitMs, message: wait.message }),
        );
      } catch (error) {
        this.budget.observe(0, {}); // let through by this client's budget, never sent
        throw error;
      }
    }
    const { request: undiciRequest } = await loadUndici();
    try {
      res = await undiciRequest(url, {
        method: req.method,
        headers,
        body,
        signal: ctx.signal,
        dispatcher: this.#opts.dispatcher,
      });
    } catch (error) {
      this.budget.observe(0, {});
      if (ctx.signal?.aborted) throw ctx.signal.reason ?? error;
      const code = (error as { code?: string }).code ?? (error as { cause?: { code?: string } }).cause?.code;
      // Refused connections never reached the server: safe to repeat whatever the method.
      const notSent = code === 'ECONNREFUSED' || code === 'ENOENT' || code === 'UND_ERR_CONNECT_TIMEOUT';
      throw new ProviderError(
        {
          provider: this.#opts.provider,
          operation: req.operation,
          method: req.method,
          pathTemplate: req.pathTemplate,
          retryable: isTransient(error) || notSent,
          outcomeUnknown: !notSent,
          detail: this.#scrub(`connection failed: ${code ?? (error as Error).message}`, ctx),
        },
        { cause: error },
      );
    }
    const resHeaders = flattenHeaders(res.headers);
    this.budget.observe(res.statusCode, resHeaders, shared !== undefined);
    if (shared && res.statusCode === 429) await shared.refused(this.#opts.provider, retryAfterMs(resHeaders));
    const text = await res.body.text();
    if (req.rawResponse && res.statusCode >= 200 && res.statusCode < 300)
      return { status: res.statusCode, headers: resHeaders, body: text as T };
    let parsed: unknown;
    if (text && (resHeaders['content-type'] ?? '').includes('json')) {
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = text;
      }
    } else if (text) {
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = text;
      }
    } else parsed = undefined;
    if (res.statusCode >= 200 && res.statusCode < 300)
      return { status: res.statusCode, headers: resHeaders, body: parsed as T };
    // A vendor body may echo the request (Gcore quotes a rejected sslPrivateKey): the step's secret
    // values are scrubbed out of it before the parser sees it, and out of what the parser makes.
    const vendor = this.#opts.parseError(res.statusCode, redactStrings(parsed, this.#secrets(ctx)), resHeaders);
    const wait = retryAfterMs(resHeaders);
    const retryAfter = wait === undefined ? undefined : wait / 1000;
    const transient = res.statusCode === 429 || res.statusCode >= 500;
    throw new ProviderError({
      provider: this.#opts.provider,
      operation: req.operation,
      method: req.method,
      pathTemplate: req.pathTemplate,
      status: res.statusCode,
      requestId: vendor.requestId,
      retryable: vendor.retryable ?? transient,
      // A 429 was refused before any work; a 5xx after a POST may have done the work.
      outcomeUnknown: res.statusCode >= 500,
      retryAfterSeconds: retryAfter,
      notFound: vendor.notFound ?? res.statusCode === 404,
      vendorCode: vendor.vendorCode === undefined ? undefined : this.#scrub(vendor.vendorCode, ctx),
      detail: this.#scrub(vendor.detail, ctx),
    });
  }

  /** "waiting for Civo's rate limit: 38s until the window resets". */
  #holdText(hold: BudgetHold): string {
    const seconds = `${Math.max(1, Math.round(hold.waitMs / 1000))}s`;
    const why =
      hold.why === 'window'
        ? `${seconds} until the window resets`
        : hold.why === 'retry_after'
          ? `${seconds}, as its 429 answer asked`
          : `${seconds}, requests paced at ${hold.rate.toFixed(1)}/s after a 429`;
    return `waiting for ${this.#opts.vendor ?? this.#opts.provider}'s rate limit: ${why}`;
  }

  #url(req: HttpRequest): string {
    const rel = req.path.startsWith('/') ? req.path.slice(1) : req.path;
    const url = new URL(rel, this.#base);
    if (req.query instanceof URLSearchParams) {
      for (const [k, v] of req.query) url.searchParams.append(k, v);
    } else if (req.query) {
      for (const [k, v] of Object.entries(req.query)) {
        if (v === undefined || v === null) continue;
        if (Array.isArray(v)) for (const item of v) url.searchParams.append(k, String(item));
        else url.searchParams.append(k, String(v));
      }
    }
    return url.href;
  }

  /** The client's own secrets (credentials) and the operation's (the step's secret values). */
  #secrets(ctx: CallContext): string[] {
    return [...(this.#opts.secrets?.() ?? []), ...(ctx.secrets ?? [])];
  }

  #scrub(text: string, ctx: CallContext): string {
    return redactText(text, this.#secrets(ctx));
  }
}

/** A short, secret-free rendering of a vendor error body for ProviderError.detail. */
export function describeBody(body: unknown): string {
  if (body === undefined || body === null || body === '') return 'no details';
  if (typeof body === 'string') return body.slice(0, 500);
  return JSON.stringify(redactBody(body)).slice(0, 500);
}

function flattenHeaders(h: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h))
    if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}
