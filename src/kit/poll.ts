// The one polling loop: waits for an asynchronous object (an instance building, a task running) to
// settle, reporting each poll as an event, honouring the step's signal and its own time limit.
import { TimeoutError } from '../engine/errors.js';
import { sleep } from '../engine/run/retry.js';
import type { OperationContext } from '../engine/provider/context.js';

export type PollOutcome<T> =
  { readonly done: true; readonly value: T } | { readonly done: false; readonly message: string };

export type PollOptions<T> = {
  /** What is awaited, for events and TimeoutError ('instance web to be ACTIVE', 'task 3f2a…'). */
  readonly what: string;
  readonly intervalMs: number;
  /** When set, the interval grows by half each poll from `intervalMs` up to this (fast first looks, gentle later). */
  readonly maxIntervalMs?: number;
  /** A limit of the poll's own (besides the step's timeout); exceeded → TimeoutError naming `what`. */
  readonly timeoutMs?: number;
  /** One look: done with a value, or not yet with a status message. Throw to fail. */
  readonly check: (attempt: number) => Promise<PollOutcome<T>>;
};

export async function poll<T>(
  ctx: Pick<OperationContext, 'signal' | 'report' | 'address' | 'operation'>,
  options: PollOptions<T>,
): Promise<T> {
  const started = Date.now();
  let interval = options.intervalMs;
  for (let attempt = 1; ; attempt++) {
    ctx.signal.throwIfAborted();
    const outcome = await options.check(attempt);
    if (outcome.done) return outcome.value;
    ctx.report({
      kind: 'poll',
      attempt,
      delayMs: interval,
      message: `waiting for ${options.what}: ${outcome.message}`,
    });
    if (options.timeoutMs !== undefined && Date.now() - started + interval > options.timeoutMs) {
      throw new TimeoutError(ctx.address, ctx.operation, options.timeoutMs, options.what);
    }
    await sleep(interval, ctx.signal);
    if (options.maxIntervalMs !== undefined) interval = Math.min(options.maxIntervalMs, Math.ceil(interval * 1.5));
  }
}
