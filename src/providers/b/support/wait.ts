// Readiness and deletion waits over src/kit/poll.ts: the provider's poll interval, the step's signal
// (the engine's timeouts), poll events naming what is awaited — and a deadline of their own, so that
// no wait runs forever when the step has no timeout. Default limits per kind of wait (documented):
//   instance ACTIVE / carrying an IP 20 min · cluster ACTIVE 30 min · node pool ready 30 min ·
//   database Ready 30 min · volume available/attached 10 min · reserved IP allocated/unassigned 5 min ·
//   load balancer available 15 min · object store ready 10 min · credential ready 5 min · deletion 15 min.
// A step timeout shorter than these wins (the step's signal aborts the poll).
import { poll, type PollOutcome } from '../../../kit/poll.js';
import type { ProvbContext } from '../config.js';
import { WAIT_LIMITS_MS, type WaitKind } from '../config.js';
import { orNull } from '../../../kit/gone.js';
import { PartialCreateError } from '../../../engine/errors.js';

/**
 * Polls `get` until `ready(value)`; each miss reports `status(value)`. Fails with the engine's
 * TimeoutError after the kind's limit (or the config's `waitLimitsMs` override), or when the step's
 * signal aborts; `get` may throw to fail at once (the awaited object or what it needs is gone).
 */
export function waitUntil<T>(
  ctx: ProvbContext,
  kind: WaitKind,
  what: string,
  get: () => Promise<T>,
  ready: (value: T) => boolean,
  status: (value: T) => string,
): Promise<T> {
  return poll(ctx, {
    what,
    intervalMs: ctx.config.pollIntervalMs,
    timeoutMs: ctx.config.waitLimitsMs?.[kind] ?? WAIT_LIMITS_MS[kind],
    check: async (): Promise<PollOutcome<T>> => {
      const value = await get();
      return ready(value) ? { done: true, value } : { done: false, message: status(value) };
    },
  });
}

/** Polls `get` until the API answers not-found. */
export async function waitGone(ctx: ProvbContext, what: string, get: () => Promise<unknown>): Promise<void> {
  await waitUntil(
    ctx,
    'delete',
    `${what} to be deleted`,
    () => orNull(get),
    (v) => v === null,
    () => 'still present',
  );
}

/**
 * The stages of a create after its object exists (waiting until it is ready, follow-up calls): a failure
 * there, a wait's own deadline included, is a PartialCreateError naming the object, so the engine records
 * it as tainted (the next plan replaces it) instead of leaving a pending record.
 */
export async function afterCreated<T>(ctx: ProvbContext, id: string, stages: () => Promise<T>): Promise<T> {
  try {
    return await stages();
  } catch (error) {
    // The step's own timeout or an abort is the engine's to handle (it keeps the pending record and looks later).
    if (ctx.signal.aborted) throw error;
    throw new PartialCreateError(ctx.address, id, {}, { cause: error });
  }
}
