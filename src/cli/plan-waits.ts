// What the command shows while it plans: each retry and wait (a dead endpoint's retries, a
// rate-limit hold, the state lock) as a progress line on stderr, so a plan never looks hung. During
// an apply the apply's own progress display shows them, so this listener stays quiet then.
import type { Event, EventListener } from '../engine/events.js';
import { progressReporter } from '../engine/progress/index.js';

/** A listener for the Engine's `onEvent` that draws retries and waits outside an apply. */
export function planWaits(stream: NodeJS.WriteStream): EventListener {
  const draw = progressReporter({ stream, mode: stream.isTTY ? 'tty' : 'plain', color: stream.isTTY === true });
  let applying = false;
  return (e: Event) => {
    if (e.type === 'apply_start') applying = true;
    else if (e.type === 'apply_finish') applying = false;
    else if (!applying && (e.type === 'retry' || e.type === 'wait')) draw(e);
  };
}

/** Both listeners, in order; either may be absent. */
export function bothListeners(a: EventListener | undefined, b: EventListener): EventListener {
  return a
    ? (e) => {
        a(e);
        b(e);
      }
    : b;
}
