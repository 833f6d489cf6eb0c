// The shapes of one LXD exchange: the call the client makes (a path template filled by name), the
// envelope every answer comes in, and the background operation an async answer names.
import type { HttpMethod } from '../../../kit/http.js';
import type { PathParams } from '../../../kit/wire.js';

export type Call = {
  readonly method: HttpMethod;
  /** The path with placeholders ('/1.0/instances/{name}'), filled from `params`; errors show it as is. */
  readonly pathTemplate: string;
  /** The template's placeholders by name, each URL-escaped when filled. */
  readonly params?: PathParams;
  /** A path the server gave (an exec's output log), requested as is instead of the filled template. */
  readonly serverPath?: string;
  readonly operation: string;
  readonly project?: string;
  /** Cluster member; sent only to clustered servers. */
  readonly target?: string;
  readonly query?: Readonly<Record<string, string | undefined>>;
  readonly body?: unknown;
  /** The ETag to send as If-Match. */
  readonly etag?: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly rawBody?: string | Uint8Array;
  /** Return an async answer's operation at once instead of waiting (token operations never finish). */
  readonly noWait?: boolean;
  /** How long an async answer's operation may take (default: the step's limit, else 5 minutes). */
  readonly waitMs?: number;
};

export type Envelope = {
  readonly type?: 'sync' | 'async' | 'error';
  readonly status_code?: number;
  readonly error_code?: number;
  readonly error?: string;
  readonly operation?: string;
  readonly metadata?: unknown;
};

export type Operation = {
  readonly id: string;
  readonly class?: string;
  readonly status: string;
  readonly status_code: number;
  readonly err?: string;
  readonly metadata?: Record<string, unknown> | null;
  readonly resources?: Record<string, string[]> | null;
};
