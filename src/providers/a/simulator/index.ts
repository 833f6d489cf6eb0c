// The in-process fake LXD (provider A's simulator): the LXD wire API on a unix socket or loopback,
// with sync/async answers, operations, ETags, instance state transitions and fake addresses on
// 198.18.0.0/24, and the auth groups and identities LXD 5.0 lacks. Imports src/kit only.
import { startRouter, type SimServer } from '../../../kit/sim/router.js';
import type { FaultOptions } from '../../../kit/sim/faults.js';
import { routes } from './routes.js';
import { LxdStore, type SimOptions } from './store.js';
import { error } from './wire.js';

export type LxdSimulatorOptions = SimOptions & {
  /** Serve on this unix socket instead of loopback. */
  readonly socketPath?: string;
  readonly latencyMs?: number;
  readonly faults?: FaultOptions;
  readonly seed?: number;
};

export type LxdSimulator = SimServer & {
  readonly store: LxdStore;
  /** The address a `prova` remote uses: `unix:///path` or `http://127.0.0.1:port`. */
  readonly address: string;
};

export async function startSimulator(options: LxdSimulatorOptions = {}): Promise<LxdSimulator> {
  const store = new LxdStore(options);
  const server = await startRouter<LxdStore>({
    routes,
    state: store,
    notFound: () => error(404, 'not found'),
    invalid: (_req, issues) => error(400, issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')),
    faultResponse: (kind) => (kind === '429' ? error(429, 'Too many requests') : error(500, 'Internal server error')),
    latencyMs: options.latencyMs,
    faults: options.faults,
    seed: options.seed,
    listen: options.socketPath ? { socketPath: options.socketPath } : undefined,
  });
  return Object.assign(server, { store, address: server.socketPath ? `unix://${server.socketPath}` : server.url });
}

export { LxdStore } from './store.js';
export type { SimOptions } from './store.js';
