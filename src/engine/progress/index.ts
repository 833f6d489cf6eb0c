// Live progress: a small reporter built on the engine's events, attached by the caller
// (`engine.apply(plan, { onEvent: progressReporter() })`), never wired into the engine. On a TTY it
// redraws one line per step in flight in place; elsewhere it writes plain timestamped lines.
// Imports only engine types and its own files.
import type { Event, EventListener } from '../events.js';
import { countFinished, emptyTally, summaryText, type Tally } from './format.js';
import { eventLine, liveLine, noteOf, stillLine, type InFlight } from './lines.js';
import { TtyView, type Line, type ProgressStream } from './tty.js';

export type { ProgressStream } from './tty.js';

/** Options of {@link progressReporter}. */
export type ProgressOptions = {
  /** Where to draw; default process.stderr. */
  readonly stream?: ProgressStream;
  /** 'auto' (default) draws in place when the stream is a TTY, plain lines otherwise. */
  readonly mode?: 'auto' | 'tty' | 'plain';
  /** Colours; default: on when drawing on a TTY. */
  readonly color?: boolean;
  /** How often the live area is redrawn to advance the elapsed times, in ms; default 100, 0 for never. */
  readonly intervalMs?: number;
  /**
   * Plain output only: a step in flight prints "web: Still creating... [10s elapsed]" this often, in
   * ms, instead of a line per poll; default 10000, 0 for never.
   */
  readonly stillEveryMs?: number;
  /** The clock, for tests; default Date.now. */
  readonly now?: () => number;
};

/** An event listener that draws progress; `redraw()` forces a redraw, `close()` stops the timer. */
export type ProgressReporter = EventListener & {
  /** Redraws the live area now. */
  redraw(): void;
  /** Stops the redraw timer and leaves the output as it is; call it when the operation is over. */
  close(): void;
};

/**
 * Makes a reporter to pass as `onEvent` (to `apply`, `destroy`, or the Engine's options).
 *
 * @example
 * ```ts
 * import { createWriteStream } from 'node:fs';
 * import { Engine, MemoryStateStore, progressReporter } from 'converge';
 *
 * const engine = new Engine({ providers: [], state: new MemoryStateStore() });
 * const plan = await engine.plan([]);
 * const progress = progressReporter();                                        // stderr, live on a TTY
 * await engine.apply(plan, { onEvent: progress }).finally(() => progress.close());
 * const logFile = createWriteStream('apply.log');
 * await engine.destroy({ onEvent: progressReporter({ stream: logFile, mode: 'plain' }) }); // timestamped lines
 * ```
 */
export function progressReporter(options: ProgressOptions = {}): ProgressReporter {
  const stream = options.stream ?? process.stderr;
  const mode = options.mode ?? 'auto';
  const tty = mode === 'tty' || (mode === 'auto' && stream.isTTY === true);
  const now = options.now ?? Date.now;
  const intervalMs = options.intervalMs ?? 100;
  if (!Number.isFinite(intervalMs) || intervalMs < 0)
    throw new TypeError('Expected `intervalMs` to be a number from 0 and up');
  const stillEveryMs = options.stillEveryMs ?? 10_000;
  if (!Number.isFinite(stillEveryMs) || stillEveryMs < 0)
    throw new TypeError('Expected `stillEveryMs` to be a number from 0 and up');
  const view = tty ? new TtyView(stream, options.color ?? true) : undefined;
  /** Plain output: when each step in flight last printed a line. */
  const lastSaid = new Map<string, number>();
  /** Plain output: when each step started, by this reporter's clock. */
  const began = new Map<string, number>();
  const inFlight = new Map<string, InFlight>();
  let tally: Tally = emptyTally();
  let total: number | undefined;
  let destroying = false;
  let timer: ReturnType<typeof setInterval> | undefined;
  /** Waits already shown (what for, and the second they end): one hold that holds many requests is one line. */
  const waitsShown = new Set<string>();
  const toldAlready = (e: Extract<Event, { type: 'wait' }>): boolean => {
    const key = `${e.reason} ${e.message.split(':')[0]} ${Math.round((e.at + e.waitMs) / 1000)}`;
    if (waitsShown.has(key)) return true;
    waitsShown.add(key);
    return false;
  };

  const live = (): Line[] => {
    const t = now();
    const lines = [...inFlight.values()].map((s) => liveLine(s, t));
    if (total !== undefined && inFlight.size) {
      const done =
        tally.added + tally.changed + tally.replaced + tally.destroyed + tally.forgotten + tally.failed + tally.skipped;
      lines.push({ text: `  ${done} of ${total} steps done, ${inFlight.size} in flight`, tone: 'dim' });
    }
    return lines;
  };
  const plain = (e: Event, line: Line) => stream.write(`${new Date(e.at).toISOString()} ${line.text}\n`);
  const stopTimer = () => {
    if (timer) {
      clearInterval(timer);
      timer = undefined;
    }
  };
  /** Plain output: "web: Still creating... [10s elapsed]" for each step silent for stillEveryMs. */
  const still = () => {
    if (view || stillEveryMs === 0) return;
    const t = now();
    for (const s of inFlight.values()) {
      const last = lastSaid.get(s.address) ?? t;
      if (t - last < stillEveryMs) continue;
      lastSaid.set(s.address, t);
      stream.write(`${new Date(t).toISOString()} ${stillLine(s, t - (began.get(s.address) ?? t))}\n`);
    }
  };
  const startTimer = () => {
    if (timer) return;
    if (view && intervalMs > 0) timer = setInterval(() => view.draw([], live()), intervalMs);
    else if (!view && stillEveryMs > 0) timer = setInterval(still, Math.min(1000, stillEveryMs));
    timer?.unref?.();
  };

  const listener = (e: Event): void => {
    const scroll: Line[] = [];
    switch (e.type) {
      case 'apply_start':
        tally = emptyTally();
        total = e.steps;
        destroying = e.destroy === true;
        break;
      case 'step_start':
        inFlight.set(e.address, {
          address: e.address,
          action: e.action,
          resourceType: e.resourceType,
          startedAt: e.at,
        });
        if (!view) {
          const t = now();
          lastSaid.set(e.address, t);
          began.set(e.address, t);
        }
        break;
      case 'step_finish':
        inFlight.delete(e.address);
        lastSaid.delete(e.address);
        began.delete(e.address);
        countFinished(tally, e.action);
        break;
      case 'step_fail':
        inFlight.delete(e.address);
        lastSaid.delete(e.address);
        began.delete(e.address);
        tally.failed++;
        break;
      case 'step_skip':
        tally.skipped++;
        break;
      case 'poll':
      case 'progress':
      case 'wait':
      case 'retry': {
        const s = e.address === undefined ? undefined : inFlight.get(e.address);
        const note = noteOf(e);
        if (s) {
          s.note = note?.text;
          s.until = note?.until;
        }
        break;
      }
      default:
        break;
    }
    const line = eventLine(e, tty);
    if (line && !(e.type === 'wait' && toldAlready(e))) scroll.push(line);
    if (e.type === 'apply_finish') {
      inFlight.clear();
      scroll.push({ text: summaryText(tally, e.elapsedMs, destroying), tone: e.failed || e.skipped ? 'fail' : 'ok' });
      total = undefined;
    }
    if (view) view.draw(scroll, live());
    else {
      for (const l of scroll) plain(e, l);
      still();
    }
    if (inFlight.size) startTimer();
    else stopTimer();
  };
  return Object.assign(listener, {
    redraw: () => {
      if (view) view.draw([], live());
      else still();
    },
    close: () => {
      stopTimer();
    },
  });
}
