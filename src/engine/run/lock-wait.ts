// A wait for the state lock another run holds, as an event: who holds it, how long until the next
// try and how long the run will still wait, so a lock wait never looks like a hang.
import type { LockWait } from '../../state/store.js';
import type { Event } from '../events.js';

/** The `onWait` of a lock request made for `operation`: each wait becomes a `wait` event of the run as a whole (no address). */
export function lockWaitReporter(
  emit: (e: Event) => void,
  now: () => number,
  operation: string,
): (wait: LockWait) => void {
  const started = now();
  return (wait) => {
    const h = wait.holder;
    const who = h ? ` held by pid ${h.pid} on ${h.host} for ${h.operation} since ${h.since}` : ' held by another run';
    emit({
      type: 'wait',
      at: now(),
      operation,
      reason: 'lock',
      waitMs: wait.delayMs,
      message: `waiting for the state lock${who}: next try in ${seconds(wait.delayMs)}, giving up in ${seconds(wait.leftMs)}`,
      elapsedMs: now() - started,
    });
  };
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)}s`;
}
