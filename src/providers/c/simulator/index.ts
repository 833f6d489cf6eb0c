// The Gcore API simulator (CDN and Cloud): serves the vendor's wire API on loopback with in-memory
// objects, API-key auth, both list envelopes, Cloud tasks that finish over taskDurationMs (or fail
// on request), read-only fixtures and seeded fault injection. A request that Gcore's OpenAPI specs
// refuse is refused 400 (request-check.ts). Built on src/kit/sim only.
import { startRouter, type SimServer, type SimRequest } from '../../../kit/sim/router.js';
import type { FaultOptions } from '../../../kit/sim/faults.js';
import type { RateLimitOptions } from '../../../kit/sim/rate-limit.js';
import { cloudError, cdnFieldError, cdnServerError, cdnThrottled } from './answers.js';
import { gcoreRoutes } from './routes.js';
import { checkRequest } from './request-check.js';
import { SimStore } from './store.js';
import type { Fixtures } from './fixtures.js';
import type { Clock } from '../../../kit/sim/clock.js';

export { SimStore, type SimTask, type TaskState } from './store.js';
export {
  baremetalServer,
  defaultFixtures,
  gpuCluster,
  gpuImage,
  inferenceFlavor,
  SIM_PROJECT_ID,
  SIM_REGION_ID,
  type Fixtures,
} from './fixtures.js';

export const DEFAULT_SIM_API_KEY = '123$sim0123456789abcdef';

export type SimulatorOptions = {
  /** The store's time (tasks' progress, the activity log); a test passes manualClock() to move it without sleeping. */
  readonly clock?: Clock;
  /** Delay before every answer, in ms. */
  readonly latencyMs?: number;
  /** Injected 429 / 500 / dropped connections, drawn from `seed`. */
  readonly faults?: FaultOptions;
  readonly seed?: number;
  /**
   * Limits the account to this rate: a request over it is answered 429 with Retry-After, in the
   * Cloud API's error body or, on CDN paths, Django REST framework's throttling body.
   */
  readonly rateLimit?: RateLimitOptions;
  /** How long a Cloud task takes from NEW to FINISHED, in ms; default 30. */
  readonly taskDurationMs?: number;
  /** The key requests must carry as `Authorization: APIKey <key>`; default DEFAULT_SIM_API_KEY. */
  readonly apiKey?: string;
  /** Read-only objects to serve instead of the default set. */
  readonly fixtures?: Fixtures;
  /** Mounts the API under a path prefix ('/prefix'), as a proxy in front of it would. */
  readonly basePath?: string;
  readonly port?: number;
};

export type GcoreSimulator = SimServer & {
  /** The in-memory account: change objects here to make drift, or fail the next task. */
  readonly store: SimStore;
  readonly apiKey: string;
  /** The base URL to give provc (with the path prefix, when mounted under one). */
  readonly baseUrl: string;
};

export async function startSimulator(options: SimulatorOptions = {}): Promise<GcoreSimulator> {
  const prefix = (options.basePath ?? '').replace(/\/+$/, '');
  const isCloud = (req: SimRequest) => req.path.slice(prefix.length).startsWith('/cloud/');
  const apiKey = options.apiKey ?? DEFAULT_SIM_API_KEY;
  const store = new SimStore({
    taskDurationMs: options.taskDurationMs,
    fixtures: options.fixtures,
    clock: options.clock,
  });
  const server = await startRouter<SimStore>({
    routes: gcoreRoutes(options.basePath),
    state: store,
    latencyMs: options.latencyMs,
    rateLimit: options.rateLimit,
    rateLimited: (f, req) =>
      isCloud(req)
        ? cloudError(429, 'HTTPError', 'Too many requests')
        : {
            status: 429,
            body: {
              detail: `Request was throttled. Expected available in ${f.retryAfterSeconds} second${f.retryAfterSeconds === 1 ? '' : 's'}.`,
            },
          },
    faults: options.faults,
    seed: options.seed,
    listen: { host: '127.0.0.1', port: options.port ?? 0 },
    auth: (req) => {
      const header = String(req.headers.authorization ?? '');
      // The scheme word is matched case-insensitively: the spec writes `apikey`, the SDKs send `APIKey`.
      const m = /^apikey\s+(.+)$/i.exec(header);
      if (m && m[1] === apiKey) return null;
      const message = !header
        ? 'Authentication credentials were not provided.'
        : m
          ? 'Token is invalid or expired'
          : 'Given token not valid for any token type';
      return isCloud(req)
        ? cloudError(401, header ? 'token_not_valid' : 'not_authenticated', message)
        : { status: 401, body: { detail: message } };
    },
    // Gcore's OpenAPI specs (request-schemas.ts): what they refuse is refused 400 before any handler.
    check: (req, route) => checkRequest(req, route.method, route.path.slice(prefix.length)),
    notFound: (req) =>
      isCloud(req)
        ? cloudError(404, 'NotFoundError', `Path ${req.path} could not be found`)
        : { status: 404, body: { detail: 'Not found.' } },
    invalid: (req, issues) => {
      const first = issues[0];
      const field = first?.path.map(String).join('.') || 'non_field_errors';
      if (isCloud(req))
        return cloudError(
          400,
          'ValidationError',
          issues.map((i) => `${i.path.map(String).join('.')}: ${i.message}`).join('; '),
          { invalid_fields: { [field]: [first?.message ?? 'invalid'] } },
        );
      return cdnFieldError(field, first?.message ?? 'invalid');
    },
    // Each API family answers in its own error shape: Cloud {exception_class, message, request_id}, CDN {detail}.
    faultResponse: (kind, retryAfterSeconds, req) => {
      if (!isCloud(req)) return kind === '429' ? cdnThrottled(retryAfterSeconds) : cdnServerError();
      return kind === '429'
        ? cloudError(429, 'HTTPError', 'Too many requests')
        : cloudError(500, 'HTTPError', 'Internal server error');
    },
  });
  const baseUrl = `${server.url}${(options.basePath ?? '').replace(/\/+$/, '')}`;
  return Object.assign(server, { store, apiKey, baseUrl });
}
