// The LXD wire client of one remote: one HttpClient over an undici dispatcher (unix socket or
// pinned HTTPS), one request() that branches on the envelope's `type`, operation waits with the
// failure rules of the wire notes, and the server's api_extensions read once.
import type { Dispatcher } from 'undici';
import { HttpClient } from '../../kit/http.js';
import { fillPath } from '../../kit/wire.js';
import type { Call, Envelope, Operation } from './wire/envelope.js';

const PROVIDER = 'prova';
import {
  envelopeError,
  failedOperation,
  isBusy,
  notClustered,
  operationError,
  parseLxdError,
  projectRace,
} from './errors.js';
import { defaultRetryPolicy, withRetry } from '../../engine/run/retry.js';
import { ProviderError, TimeoutError } from '../../engine/errors.js';
import type { OperationContext } from '../../engine/provider/context.js';

export type Ctx = Pick<OperationContext, 'signal' | 'retry' | 'report'> &
  Partial<Pick<OperationContext, 'address' | 'operation' | 'timeoutMs'>>;

/** Default deadline of one operation wait when neither the call nor the step sets one. */
export const OPERATION_DEADLINE_MS = 300_000;

export type ServerInfo = {
  readonly api_extensions: string[];
  readonly auth: 'trusted' | 'untrusted';
  readonly auth_methods?: string[];
  readonly environment?: {
    readonly server_version?: string;
    readonly server_clustered?: boolean;
    readonly certificate_fingerprint?: string;
    readonly architectures?: string[];
    readonly driver?: string;
    readonly instance_types?: string[];
    readonly [key: string]: unknown;
  };
  readonly [key: string]: unknown;
};

export type CallResult<T> = {
  readonly metadata: T;
  readonly etag?: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly operation?: Operation;
};

/** The path a call requests: the server's own, else the template filled from the params. */
const pathOf = (call: Call): string => call.serverPath ?? fillPath(call.pathTemplate, call.params);

export class LxdClient {
  readonly remote: string;
  readonly #http: HttpClient;
  readonly #waitSeconds: number;
  #server: Promise<ServerInfo> | undefined;
  #known: ServerInfo | undefined;

  constructor(options: {
    remote: string;
    baseUrl: string;
    dispatcher?: Dispatcher;
    secrets?: () => readonly string[];
    operationWaitSeconds?: number;
  }) {
    this.remote = options.remote;
    this.#waitSeconds = options.operationWaitSeconds ?? 30;
    this.#http = new HttpClient({
      provider: PROVIDER,
      vendor: 'LXD',
      baseUrl: options.baseUrl,
      dispatcher: options.dispatcher,
      parseError: parseLxdError,
      secrets: options.secrets,
    });
  }

  /** GET /1.0, read once per client (extensions change only on a daemon upgrade). */
  server(ctx: Ctx, fresh = false): Promise<ServerInfo> {
    if (fresh || !this.#server) {
      this.#server = this.request<ServerInfo>(ctx, {
        method: 'GET',
        pathTemplate: '/1.0',
        operation: 'read server',
      }).then((r) => (this.#known = r.metadata));
      this.#server.catch(() => {
        this.#server = undefined;
      });
    }
    return this.#server;
  }

  /** The server's facts when a request has read them already (plan-time checks are synchronous). */
  get serverKnown(): ServerInfo | undefined {
    return this.#known;
  }

  /** Fails with a clear error naming the extension and the server version when it is missing. */
  async requireExtension(ctx: Ctx, extension: string, feature: string): Promise<void> {
    const s = await this.server(ctx);
    if (s.api_extensions.includes(extension)) return;
    const version = s.environment?.server_version ?? 'unknown';
    throw new ProviderError({
      provider: PROVIDER,
      operation: feature,
      retryable: false,
      vendorCode: 'missing_extension',
      detail: `LXD server ${this.remote} (version ${version}) lacks API extension "${extension}" required for ${feature}`,
    });
  }

  async isClustered(ctx: Ctx): Promise<boolean> {
    return (await this.server(ctx)).environment?.server_clustered === true;
  }

  /**
   * One call: sync → metadata; async → waits on the operation; error → ProviderError with LXD's
   * message. An operation refused at once because the instance is busy with another one ("Instance
   * is busy running a stop operation") did nothing: the call is sent again after a back-off, each
   * wait reported as a retry (an error answer saying so is retried by the HTTP client itself). So is
   * a call that failed because another project vanished while LXD counted users (`projectRace`).
   */
  request<T>(ctx: Ctx, call: Call): Promise<CallResult<T>> {
    return withRetry(() => this.#request<T>(ctx, call), {
      policy: ctx.retry ?? defaultRetryPolicy,
      signal: ctx.signal,
      shouldRetry: (error) => {
        const op = failedOperation(error);
        return op ? isBusy(op.err) : error instanceof ProviderError && error.vendorCode === 'project_vanished';
      },
      onRetry: (info) =>
        ctx.report({
          kind: 'retry',
          attempt: info.attempt,
          retriesLeft: info.retriesLeft,
          delayMs: info.delayMs,
          error: info.error.message.split('\n')[0] ?? '',
        }),
    });
  }

  async #request<T>(ctx: Ctx, call: Call): Promise<CallResult<T>> {
    try {
      return await this.#send<T>(ctx, call);
    } catch (error) {
      throw projectRace(error, call) ?? error;
    }
  }

  async #send<T>(ctx: Ctx, call: Call): Promise<CallResult<T>> {
    const query: Record<string, string | undefined> = { ...(call.query ?? {}) };
    if (call.project && call.project !== 'default') query.project = call.project;
    if (call.target && call.pathTemplate !== '/1.0') {
      // A standalone server answers 400 "Target only allowed when clustered" for instances but
      // 404 "Cluster member not found" for networks and pools: say the first, for every object.
      if (!(await this.isClustered(ctx))) throw notClustered(this.remote, call);
      query.target = call.target;
    }
    const headers: Record<string, string> = { ...(call.headers ?? {}) };
    if (call.etag) headers['if-match'] = call.etag;
    const res = await this.#http.request<Envelope>(ctx, {
      method: call.method,
      path: pathOf(call),
      pathTemplate: call.pathTemplate,
      operation: call.operation,
      query,
      body: call.body,
      headers,
      rawBody: call.rawBody,
    });
    const env = res.body ?? {};
    if (env.type === 'error') throw envelopeError(call, res.status, env);
    if (env.type === 'async' && call.noWait) {
      const op = env.metadata as Operation;
      return { metadata: (op?.metadata ?? {}) as T, headers: res.headers, operation: op };
    }
    if (env.type === 'async' && env.operation) {
      const op = await this.waitOperation(ctx, env.operation, call.operation, call.waitMs);
      return { metadata: (op?.metadata ?? {}) as T, headers: res.headers, operation: op, etag: res.headers.etag };
    }
    return { metadata: env.metadata as T, etag: res.headers.etag, headers: res.headers };
  }

  /** A raw download (file contents); directories come back as the sync envelope's entry list. */
  async download(
    ctx: Ctx,
    call: Call,
  ): Promise<{
    readonly body: string;
    readonly headers: Readonly<Record<string, string>>;
    readonly entries?: string[];
  }> {
    const query: Record<string, string | undefined> = { ...(call.query ?? {}) };
    if (call.project && call.project !== 'default') query.project = call.project;
    const res = await this.#http.request<string>(ctx, {
      method: 'GET',
      path: pathOf(call),
      pathTemplate: call.pathTemplate,
      operation: call.operation,
      query,
      rawResponse: true,
    });
    if ((res.headers['x-lxd-type'] ?? '') === 'directory' || (res.headers['content-type'] ?? '').includes('json')) {
      try {
        const env = JSON.parse(res.body) as Envelope;
        if (env.type === 'sync' && Array.isArray(env.metadata))
          return { body: '', headers: res.headers, entries: env.metadata as string[] };
      } catch {
        /* a file that happens to be JSON */
      }
    }
    return { body: res.body, headers: res.headers };
  }

  /**
   * Waits on an operation until it is final, as lxc does: long-polls `/wait` (the server answers the
   * moment it ends), within a deadline (`waitMs`, else the step's limit, else 5 minutes). A 200 can
   * carry a failed operation (5.0.x), an error envelope can mean "still running" (5.20+ timeouts); a
   * vanished operation (404) resolves to undefined, and the caller re-reads the object.
   */
  async waitOperation(ctx: Ctx, opPath: string, operation: string, waitMs?: number): Promise<Operation | undefined> {
    const id = opPath.split('/').pop()!;
    const limitMs = waitMs ?? ctx.timeoutMs ?? OPERATION_DEADLINE_MS;
    const until = Date.now() + limitMs;
    for (;;) {
      ctx.signal.throwIfAborted();
      const leftMs = until - Date.now();
      if (leftMs <= 0)
        throw new TimeoutError(
          ctx.address ?? this.remote,
          ctx.operation ?? operation,
          limitMs,
          `LXD operation ${id} (${operation}) still running`,
        );
      let env: Envelope | undefined;
      try {
        const res = await this.#http.request<Envelope>(ctx, {
          method: 'GET',
          path: fillPath('/1.0/operations/{id}/wait', { id }),
          pathTemplate: '/1.0/operations/{id}/wait',
          operation: `wait for ${operation}`,
          query: { timeout: String(Math.max(1, Math.min(this.#waitSeconds, Math.ceil(leftMs / 1000)))) },
        });
        env = res.body;
      } catch (error) {
        if (!(error instanceof ProviderError) || error.status === undefined) throw error;
        env = { type: 'error', error: error.detail, error_code: error.status };
      }
      if (env?.type === 'sync') {
        const op = env.metadata as Operation;
        if (op.status_code >= 200) return this.#finish(op, operation);
        continue;
      }
      // An error envelope: ask the operation itself whether it failed, still runs, or is gone.
      let op: Operation;
      try {
        op = (
          await this.request<Operation>(ctx, {
            method: 'GET',
            pathTemplate: '/1.0/operations/{id}',
            params: { id },
            operation: `read ${operation}`,
          })
        ).metadata;
      } catch (error) {
        if (error instanceof ProviderError && error.notFound) return undefined;
        throw error;
      }
      if (op.status_code >= 200) return this.#finish(op, operation);
    }
  }

  #finish(op: Operation, operation: string): Operation {
    if (op.status_code === 200) return op;
    throw operationError(op, operation);
  }
}
