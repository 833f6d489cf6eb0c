// Per-step time limits: parsing '30s' / '5m' / '1h', and a signal that fires with a TimeoutError
// naming the resource, the operation and the limit, combined with the caller's signal.
import { TimeoutError } from '../errors.js';

const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** '30s', '5m', '1h', '1h30m', '250ms' → milliseconds; undefined when it is not a duration. */
export function parseDuration(text: string): number | undefined {
  const re = /(\d+(?:\.\d+)?)(ms|s|m|h)/g;
  let total = 0;
  let consumed = 0;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text))) {
    if (m.index !== consumed) return undefined;
    total += Number(m[1]) * UNITS[m[2]!]!;
    consumed = re.lastIndex;
  }
  return consumed === text.length && consumed > 0 ? total : undefined;
}

export type StepSignal = { readonly signal: AbortSignal; dispose(): void };

/** A signal for one operation: fires on the caller's abort or, after `limitMs`, with a TimeoutError. */
export function stepSignal(parent: AbortSignal | undefined, address: string, operation: string, limitMs: number | undefined, idle?: AbortSignal): StepSignal {
  // Without a limit the caller's signal serves as it is (or an idle one): no timer, no listener.
  if (limitMs === undefined && (parent || idle)) return { signal: parent ?? idle!, dispose() {} };
  const controller = new AbortController();
  const onAbort = () => controller.abort(parent!.reason);
  if (parent?.aborted) controller.abort(parent.reason);
  else parent?.addEventListener('abort', onAbort, { once: true });
  const timer = limitMs !== undefined ? setTimeout(() => controller.abort(new TimeoutError(address, operation, limitMs)), limitMs) : undefined;
  return {
    signal: controller.signal,
    dispose() { if (timer) clearTimeout(timer); parent?.removeEventListener('abort', onAbort); },
  };
}

/** Settles with `work`, or rejects with the signal's reason as soon as it fires (for providers that ignore it). */
export function raceSignal<T>(work: Promise<T>, signal: AbortSignal, canAbort = true): Promise<T> {
  if (!canAbort) return work;
  if (signal.aborted) { work.catch(() => {}); return Promise.reject(signal.reason); }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => { work.catch(() => {}); reject(signal.reason); };
    signal.addEventListener('abort', onAbort, { once: true });
    work.then((v) => { signal.removeEventListener('abort', onAbort); resolve(v); }, (e) => { signal.removeEventListener('abort', onAbort); reject(e); });
  });
}
