// Events → the lines a person reads: one per finished, failed or skipped step, retry, warning and
// drift, and the live line of a step in flight (its action, address, elapsed time, last poll).
import type { Event } from '../events.js';
import type { Action } from '../action.js';
import { actionVerbs, formatElapsed } from './format.js';
import type { Line } from './tty.js';

export type InFlight = {
  readonly address: string;
  readonly action: Action;
  readonly resourceType: string;
  readonly startedAt: number;
  note?: string;
};

const SPINNER = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

/** The frame of the spinner at a given time (one frame per 100 ms). */
function spinnerAt(now: number): string {
  return SPINNER[Math.floor(now / 100) % SPINNER.length]!;
}

/** The permanent line an event leaves, if any (step starts, polls and progress live in the live area on a TTY). */
export function eventLine(e: Event, tty: boolean): Line | undefined {
  switch (e.type) {
    case 'step_start':
      return tty
        ? undefined
        : { text: `${actionVerbs[e.action].doing} ${e.address} (${e.resourceType})`, tone: 'plain' };
    case 'step_finish':
      return {
        text: `✓ ${e.address}: ${actionVerbs[e.action].done} in ${formatElapsed(e.elapsedMs)}${e.id && e.action !== 'delete' && e.action !== 'forget' ? ` [id=${e.id}]` : ''}`,
        tone: 'ok',
      };
    case 'step_fail':
      return {
        text: `✗ ${e.address}: ${e.action} failed after ${formatElapsed(e.elapsedMs)}: ${e.error}${e.code ? ` (${e.code})` : ''}`,
        tone: 'fail',
      };
    case 'step_skip':
      return { text: `- ${e.address}: ${e.action} skipped (${e.because})`, tone: 'warn' };
    case 'retry':
      return {
        text: `↻ ${e.address}: ${e.operation} attempt ${e.attempt} failed (${e.error}); retrying in ${formatElapsed(e.delayMs)}, ${e.retriesLeft} ${e.retriesLeft === 1 ? 'retry' : 'retries'} left`,
        tone: 'warn',
      };
    case 'poll':
    case 'progress':
      // Plain output says "Still creating..." every so often instead (stillLine); a TTY shows the last poll live.
      return undefined;
    case 'warning':
      return { text: `! ${e.address}: ${e.message}`, tone: 'warn' };
    case 'refresh':
      if (tty && e.outcome === 'unchanged') return undefined;
      return {
        text: `${e.outcome === 'unchanged' ? '=' : e.outcome === 'drifted' ? '~' : '?'} ${e.address}: ${e.outcome === 'gone' ? 'gone (deleted outside converge)' : e.outcome} on refresh`,
        tone: e.outcome === 'unchanged' ? 'dim' : 'warn',
      };
    case 'apply_start':
      return tty ? undefined : { text: `apply: ${e.steps} step${e.steps === 1 ? '' : 's'} to run`, tone: 'plain' };
    case 'apply_finish':
      return undefined;
  }
}

/** The live line of one step in flight: "⠋ creating web (provb:…) 3.2s · poll 3: BUILDING". */
export function liveLine(s: InFlight, now: number): Line {
  const note = s.note ? ` · ${s.note}` : '';
  return {
    text: `${spinnerAt(now)} ${actionVerbs[s.action].doing} ${s.address} (${s.resourceType}) ${formatElapsed(now - s.startedAt)}${note}`,
    tone: 'plain',
  };
}

/** The note a poll or progress event leaves on its step's live line. */
export function noteOf(e: Event): string | undefined {
  if (e.type === 'poll') return `${e.operation} poll ${e.attempt}: ${e.message}`;
  if (e.type === 'progress') return `${e.operation}: ${e.message}`;
  if (e.type === 'retry') return `retry ${e.attempt} in ${formatElapsed(e.delayMs)}`;
  return undefined;
}

/** Terraform's plain-output heartbeat: "web: Still creating... [10s elapsed]". */
export function stillLine(s: InFlight, elapsedMs: number): string {
  return `${s.address}: Still ${actionVerbs[s.action].doing}... [${Math.floor(elapsedMs / 1000)}s elapsed]`;
}
