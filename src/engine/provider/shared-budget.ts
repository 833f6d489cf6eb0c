// A request budget shared beyond one process: a gate that every HTTP request of the code running
// inside `withSharedBudget()` passes through after its provider instance's own budget (kit/budget.ts).
// The fleet runs a stack whose account has a limit inside one (a token bucket in PostgreSQL that
// every worker draws from), so N workers applying stacks of one account stay inside its limit
// together. The gate travels with the async context, so the engine and providers need no option
// for it; outside such a context (every plain engine) there is none and nothing changes.
import { AsyncLocalStorage } from 'node:async_hooks';

/** A wait the gate imposed on one request: how long, and for people what on. */
type SharedWait = { readonly waitMs: number; readonly message: string };

export type SharedBudget = {
  /**
   * Resolves when a request of `provider` may go (at once when the gate does not cover that
   * provider); rejects with the signal's reason if it fires first. `onWait` hears of every wait.
   */
  take(provider: string, signal: AbortSignal | undefined, onWait: (wait: SharedWait) => void): Promise<void>;
  /** Whether the gate paces requests of `provider`. */
  covers(provider: string): boolean;
  /**
   * The vendor refused a request of `provider` the gate let through (a 429): the account is over its
   * limit, so every request of it waits, in every process: `retryAfterMs` (what the answer asked;
   * 1 s when it named no wait) from now. Never rejects.
   */
  refused(provider: string, retryAfterMs: number | undefined): Promise<void>;
};

const current = new AsyncLocalStorage<SharedBudget>();

/** Runs `fn` with every HTTP request inside it (however deep, however late) passing `budget` too. */
export function withSharedBudget<T>(budget: SharedBudget, fn: () => Promise<T>): Promise<T> {
  return current.run(budget, fn);
}

/** The shared budget of the running code, if any. */
export function sharedBudget(): SharedBudget | undefined {
  return current.getStore();
}
