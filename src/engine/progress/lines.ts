// Events → the lines a person reads: one per finished, failed or skipped step, retry, wait, warning
// and drift, and the live line of a step in flight (its action, address, elapsed time, last poll or
// wait, counting down to its end).
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
  /** When the wait the note tells of ends (a retry's back-off, a rate-limit hold, the next poll). */
  until?: number;
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
      return {
        text: `- ${e.address}: ${e.action} skipped (${e.because.kind === 'stopped' ? 'the apply stopped before it started' : `${e.because.address} failed`})`,
        tone: 'warn',
      };
    case 'retry':
      return {
        text: `↻ ${retryText(e)} of ${e.operation}${e.address ? ` ${e.address}` : ''} in ${formatElapsed(e.delayMs)} after ${e.status ?? 'no answer'}: ${e.error}`,
        tone: 'warn',
      };
    case 'wait':
      return { text: `⏸ ${e.address ? `${e.address}: ` : ''}${e.message}`, tone: 'warn' };
    case 'poll':
    case 'progress':
      // Plain output says "Still creating..." every so often instead (stillLine); a TTY shows the last poll live.
      return undefined;
    case 'warning':
      return { text: `! ${e.address ? `${e.address}: ` : ''}${e.message}`, tone: 'warn' };
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
  const left = s.until !== undefined && s.until > now ? ` · ${formatElapsed(s.until - now)} left` : '';
  const note = s.note ? ` · ${s.note}${left}` : '';
  return {
    text: `${spinnerAt(now)} ${actionVerbs[s.action].doing} ${s.address} (${s.resourceType}) ${formatElapsed(now - s.startedAt)}${note}`,
    tone: 'plain',
  };
}

/** "retry 2/5": the retry's number and how many the policy allows in all. */
function retryText(e: Extract<Event, { type: 'retry' }>): string {
  return `retry ${e.attempt}/${e.attempt - 1 + e.retriesLeft}`;
}

/** The note a poll, wait, retry or progress event leaves on its step's live line, and when its wait ends. */
export function noteOf(e: Event): { text: string; until?: number } | undefined {
  if (e.type === 'poll')
    return { text: `${e.operation} poll ${e.attempt}: ${e.message}`, until: untilOf(e.at, e.delayMs) };
  if (e.type === 'progress') return { text: `${e.operation}: ${e.message}` };
  if (e.type === 'retry')
    return { text: `${retryText(e)} after ${e.status ?? 'no answer'}`, until: untilOf(e.at, e.delayMs) };
  if (e.type === 'wait') return { text: e.message, until: untilOf(e.at, e.waitMs) };
  return undefined;
}

function untilOf(at: number, ms: number | undefined): number | undefined {
  return ms === undefined ? undefined : at + ms;
}

/** Terraform's plain-output heartbeat: "web: Still creating... [10s elapsed]", with what it waits for. */
export function stillLine(s: InFlight, elapsedMs: number): string {
  const note = s.note ? ` (${s.note})` : '';
  return `${s.address}: Still ${actionVerbs[s.action].doing}... [${Math.floor(elapsedMs / 1000)}s elapsed]${note}`;
}
