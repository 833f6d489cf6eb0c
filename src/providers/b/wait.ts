// Readiness and deletion waits over src/kit/poll.ts: the provider's poll interval, the step's signal
// (the engine's timeouts), poll events naming what is awaited.
import { poll, type PollOutcome } from '../../kit/poll.js';
import type { ProvbContext } from './region.js';
import { orNull } from './client.js';

/** Polls `get` until `ready(value)`; each miss reports `status(value)`. */
export function waitUntil<T>(ctx: ProvbContext, what: string, get: () => Promise<T>, ready: (value: T) => boolean, status: (value: T) => string): Promise<T> {
  return poll(ctx, {
    what,
    intervalMs: ctx.config.pollIntervalMs,
    check: async (): Promise<PollOutcome<T>> => {
      const value = await get();
      return ready(value) ? { done: true, value } : { done: false, message: status(value) };
    },
  });
}

/** Polls `get` until the API answers not-found. */
export async function waitGone(ctx: ProvbContext, what: string, get: () => Promise<unknown>): Promise<void> {
  await waitUntil(ctx, `${what} to be deleted`, () => orNull(get), (v) => v === null, () => 'still present');
}
