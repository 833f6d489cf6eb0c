// Lock facts shared by the stores: who holds a lock, and waiting for one with back-off: doubling
// from the store's first delay (5 ms in memory, 20 ms for a file or PostgreSQL) up to 16 s, or until
// the caller's limit. Terraform's LockWithContext doubles from 1 s; a store's try here is cheap and a
// lock held by a run that is finishing is often free within milliseconds, so the first waits are short.
import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import type { LockInfo, LockRequest } from './store.js';

export function lockInfo(operation: string): LockInfo {
  return { id: randomUUID(), pid: process.pid, host: hostname(), operation, since: new Date().toISOString() };
}

/**
 * Calls `attempt` until it returns a value, waiting with back-off while it returns undefined, until
 * `request.timeoutMs` passes or the signal fires; then returns undefined.
 */
export async function waitForLock<T>(
  request: LockRequest,
  attempt: () => Promise<T | undefined>,
  firstDelayMs: number,
  holder: () => LockInfo | undefined = () => undefined,
): Promise<T | undefined> {
  const started = Date.now();
  const deadline = started + (request.timeoutMs ?? 0);
  let delay = firstDelayMs;
  for (;;) {
    const got = await attempt();
    if (got !== undefined) return got;
    const left = deadline - Date.now();
    if (left <= 0 || request.signal?.aborted) return undefined;
    // told on the first wait, then on each wait of a second or more (the short first ones are not worth a line)
    if (delay === firstDelayMs || delay >= 1000)
      request.onWait?.({
        delayMs: Math.min(delay, left),
        waitedMs: Date.now() - started,
        leftMs: left,
        holder: holder(),
      });
    await new Promise<void>((resolve) => {
      const t = setTimeout(done, Math.min(delay, left));
      function done() {
        request.signal?.removeEventListener('abort', done);
        clearTimeout(t);
        resolve();
      }
      request.signal?.addEventListener('abort', done, { once: true });
    });
    delay = Math.min(delay * 2, 16_000);
  }
}
