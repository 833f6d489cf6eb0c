// What every batched-refresh test does: plan the same declarations on the same state twice, once
// with the provider's readMany and once with one read per resource, counting the GETs each makes.
import { expect } from 'vitest';
import {
  Engine,
  MemoryStateStore,
  defineProvider,
  type MemoryLocation,
  type Plan,
  type Provider,
  type ResourceDecl,
} from 'converge';

/** The same provider with its batched reads taken away. */
export function oneByOne(p: Provider<unknown>): Provider<unknown> {
  return defineProvider({
    name: p.name,
    config: p.config,
    resources: [...p.resources.values()].map((d) => ({ ...d, readMany: undefined })),
    lookups: [...p.lookups.values()],
  });
}

type Log = { clearLog(): void; readonly requests: readonly { readonly method: string; readonly path: string }[] };

/** The paths of the providers' plan-time credential checks (their `verify` reads). */
const PLAN_CHECKS = new Set(['/v2/regions', '/cloud/v1/tasks']);

/**
 * Plans `decls` against the state at `location` through listings and through single reads, asserts
 * both plans are the same step for step, and returns the plan with each way's GET count (`skip`:
 * paths not counted, such as a server probe).
 */
export async function planBothWays(
  provider: Provider<unknown>,
  location: MemoryLocation,
  decls: readonly ResourceDecl[],
  sim: Log,
  skip: (path: string) => boolean = () => false,
): Promise<{ plan: Plan; listRequests: number; readRequests: number; changed: Record<string, string | undefined> }> {
  // A plan with changes has each provider check its credentials once (Civo: GET /v2/regions, Gcore:
  // GET /cloud/v1/tasks); that read is not the refresh's, so it is not counted here.
  const gets = () => sim.requests.filter((r) => r.method === 'GET' && !skip(r.path) && !PLAN_CHECKS.has(r.path)).length;
  // one read at a time: every type with two objects or more is listed (a type with no more objects
  // than reads run at once is read one by one, src/engine/refresh/read-all.ts)
  const batched = new Engine({ providers: [provider], state: new MemoryStateStore(location), parallelism: 1 });
  const single = new Engine({
    providers: [oneByOne(provider)],
    state: new MemoryStateStore(location),
    parallelism: 20,
  });
  sim.clearLog();
  const viaLists = await batched.plan([...decls]);
  const listRequests = gets();
  sim.clearLog();
  const viaReads = await single.plan([...decls]);
  const readRequests = gets();
  const view = (p: Plan) =>
    p.steps.map((s) => ({ address: s.address, action: s.action, cause: s.cause, changes: s.changes }));
  expect(view(viaLists)).toEqual(view(viaReads));
  const changed = Object.fromEntries(
    viaLists.steps.filter((s) => s.action !== 'noop').map((s) => [s.address, s.cause]),
  );
  return { plan: viaLists, listRequests, readRequests, changed };
}
