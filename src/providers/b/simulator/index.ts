// The Civo API v2 simulator: serves the vendor's wire API on loopback with in-memory per-region
// objects, bearer-token auth, vendor error bodies and codes, delayed status transitions and seeded
// fault injection. Built on src/kit/sim; imports nothing of the provider's handlers.
import { startRouter, type SimServer } from '../../../kit/sim/router.js';
import type { FaultOptions } from '../../../kit/sim/faults.js';
import type { RateLimitOptions } from '../../../kit/sim/rate-limit.js';
import { civoRoutes } from './routes.js';
import { SimStore, type SimTimings } from './store.js';
import { withRateLimit } from './answers.js';
import type { Clock } from '../../../kit/sim/clock.js';
import type { QuotaLimits } from './quota-limits.js';

export type { SimTimings } from './store.js';
export { SimStore } from './store.js';

export type SimulatorOptions = {
  /** Delay before every answer, in ms. */
  readonly latencyMs?: number;
  /** Injected 429 / 500 / dropped connections, drawn from `seed`. */
  readonly faults?: FaultOptions;
  readonly seed?: number;
  /**
   * Limits the account to this rate: answers carry x-ratelimit-limit / -remaining / -reset (seconds
   * until the allowance is whole again), and a request over it is answered 429 with Retry-After.
   */
  readonly rateLimit?: RateLimitOptions;
  /** The API key requests must carry as `Authorization: bearer <token>`; default 'sim-token'. */
  readonly token?: string;
  /** The store's time (status transitions, timestamps, rate windows); a test passes manualClock() to move it without sleeping. */
  readonly clock?: Clock;
  /** How long asynchronous transitions take (instance BUILDING → ACTIVE, ...), in ms. */
  readonly transitions?: Partial<SimTimings>;
  /** The account's quota limits over Civo's defaults for a new account (16 instances, 32 cores, 10 networks, ...); creates over them are refused. */
  readonly quota?: Partial<QuotaLimits>;
  readonly port?: number;
};

export type CivoSimulator = SimServer & {
  /** The in-memory account: change objects here to make drift. */
  readonly store: SimStore;
  readonly token: string;
};

// The API documents no code for a 429 (civogo knows none), so the body names none.
const TOO_MANY = { status: 429, body: { reason: 'Too many requests, slow down', result: 'Too many requests' } };

export async function startSimulator(options: SimulatorOptions = {}): Promise<CivoSimulator> {
  const token = options.token ?? 'sim-token';
  const store = new SimStore(options.transitions, options.clock);
  store.quotaLimits = { ...store.quotaLimits, ...options.quota };
  const server = await startRouter<SimStore>({
    routes: civoRoutes(),
    state: store,
    latencyMs: options.latencyMs,
    rateLimit: options.rateLimit,
    rateLimitHeaders: (f) => ({
      'x-ratelimit-limit': String(f.limit),
      'x-ratelimit-remaining': String(f.remaining),
      'x-ratelimit-reset': String(f.resetSeconds),
    }),
    rateLimited: () => TOO_MANY,
    faults: options.faults,
    seed: options.seed,
    listen: { host: '127.0.0.1', port: options.port ?? 0 },
    auth: (req) => {
      const header = String(req.headers.authorization ?? '');
      const m = /^bearer\s+(.+)$/i.exec(header);
      if (m && m[1] === token) return null;
      // The real API's answer to an unknown key: civogo raises DatabaseAccountNotFoundError, which the
      // Terraform provider reports as "the Civo token ... is invalid" (no `requires_authentication`).
      return withRateLimit(store, {
        status: 401,
        body: {
          code: 'database_account_not_found',
          reason: 'Failed to find the account within the internal database',
          result: 'Unauthorized',
        },
      });
    },
    // Unknown routes answer a plain-text 404 page, as the real API does (no code: never "not found").
    notFound: () =>
      withRateLimit(store, { status: 404, raw: '404 page not found', headers: { 'content-type': 'text/plain' } }),
    invalid: (_req, issues) =>
      withRateLimit(store, {
        status: 400,
        body: {
          code: 'parameter_value_missing',
          reason: issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '),
          result: 'Invalid request',
        },
      }),
    // 429: the API documents no code for it (civogo knows none), so the body names none.
    faultResponse: (kind) =>
      withRateLimit(
        store,
        kind === '429'
          ? { status: 429, body: { reason: 'Too many requests, slow down', result: 'Too many requests' } }
          : {
              status: 500,
              body: {
                code: 'openstack_connection_failed',
                reason: 'An internal error occurred',
                result: 'Internal server error',
                status: 500,
              },
            },
      ),
  });
  return Object.assign(server, { store, token });
}
