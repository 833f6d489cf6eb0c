// Per-step time limits: a signal that fires with a TimeoutError naming the resource, the operation
// and the limit, combined with the caller's signal (durations are parsed in values/duration.ts).
import { TimeoutError } from '../errors.js';
import { abortReason } from '../abort.js';

type StepSignal = { readonly signal: AbortSignal; dispose(): void };

/**
 * A signal for one operation: `parent` (the engine's own signal, see signal.ts) or, with a limit,
 * one that also fires after `limitMs` with a TimeoutError. AbortSignal.any adds no listener to
 * `parent`, so any number of steps can share it.
 */
export function stepSignal(
  parent: AbortSignal,
  address: string,
  operation: string,
  limitMs: number | undefined,
): StepSignal {
  if (limitMs === undefined) return { signal: parent, dispose() {} };
  const timer = new AbortController();
  const handle = setTimeout(() => timer.abort(new TimeoutError(address, operation, limitMs)), limitMs);
  return { signal: AbortSignal.any([parent, timer.signal]), dispose: () => clearTimeout(handle) };
}

/** Settles with `work`, or rejects with the signal's reason as soon as it fires (for providers that ignore it). */
export function raceSignal<T>(work: Promise<T>, signal: AbortSignal, canAbort = true): Promise<T> {
  if (!canAbort) return work;
  if (signal.aborted) {
    work.catch(() => {});
    return Promise.reject(abortReason(signal));
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => {
      work.catch(() => {});
      reject(abortReason(signal));
    };
    signal.addEventListener('abort', onAbort, { once: true });
    work.finally(() => signal.removeEventListener('abort', onAbort)).then(resolve, reject);
  });
}
