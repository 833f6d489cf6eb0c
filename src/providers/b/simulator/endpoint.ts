// One simulator route: the kit's Route with the request's region resolved and due transitions applied
// before the handler runs, and the `x-ratelimit-*` headers the real API sends added to its answer.
// Every route family builds its table with `route()`.
import type { Route, SimRequest, SimResponse } from '../../../kit/sim/router.js';
import type { SimStore } from './store.js';
import { badRegion, regionOf, withRateLimit } from './answers.js';

export type Handler = (req: SimRequest, store: SimStore, region: string) => SimResponse | Promise<SimResponse>;

export function route(method: Route<SimStore>['method'], path: string, handler: Handler): Route<SimStore> {
  return {
    method,
    path,
    handler: async (req, store) => {
      store.tick();
      const region = regionOf(req);
      return withRateLimit(store, region ? await handler(req, store, region) : badRegion());
    },
  };
}

/** The same handler under the classic path and its `/v2/vpc` alias (wire notes §2.13). */
export function aliased(method: Route<SimStore>['method'], classic: string, handler: Handler): Route<SimStore>[] {
  return [route(method, classic, handler), route(method, classic.replace('/v2/', '/v2/vpc/'), handler)];
}
