// Words and numbers the progress reporter shows: action verbs, elapsed times, the closing summary,
// and fitting a line to the terminal's width.
import type { Action } from '../action.js';

/** What a step in flight is doing ('creating'), and what a finished one did ('created'). */
export const actionVerbs: Readonly<Record<Action, { readonly doing: string; readonly done: string }>> = Object.freeze({
  create: { doing: 'creating', done: 'created' },
  update: { doing: 'updating', done: 'updated' },
  replace: { doing: 'replacing', done: 'replaced' },
  delete: { doing: 'destroying', done: 'destroyed' },
  forget: { doing: 'forgetting', done: 'forgotten' },
  noop: { doing: 'checking', done: 'unchanged' },
});

/** 0.4s, 12.0s, 2m05s. */
export function formatElapsed(ms: number): string {
  const s = Math.max(0, ms) / 1000;
  if (s < 60) return `${s.toFixed(1)}s`;
  const m = Math.floor(s / 60);
  return `${m}m${String(Math.floor(s - m * 60)).padStart(2, '0')}s`;
}

/** Cuts a line to `width` characters, ending in an ellipsis when it was longer. */
export function fit(line: string, width: number): string {
  if (width <= 0 || line.length <= width) return line;
  return width <= 1 ? line.slice(0, width) : `${line.slice(0, width - 1)}…`;
}

/** Counts of finished steps per action, and of failed and skipped ones. */
export type Tally = {
  added: number;
  changed: number;
  replaced: number;
  destroyed: number;
  forgotten: number;
  failed: number;
  skipped: number;
};

export function emptyTally(): Tally {
  return { added: 0, changed: 0, replaced: 0, destroyed: 0, forgotten: 0, failed: 0, skipped: 0 };
}

export function countFinished(tally: Tally, action: Action): void {
  if (action === 'create') tally.added++;
  else if (action === 'update') tally.changed++;
  else if (action === 'replace') tally.replaced++;
  else if (action === 'delete') tally.destroyed++;
  else if (action === 'forget') tally.forgotten++;
}

/** "Apply complete! Resources: 3 added, 1 changed, 0 replaced, 1 destroyed. (2.4s)"; a destroy says "Destroy". */
export function summaryText(t: Tally, elapsedMs: number, destroy = false): string {
  const verb = destroy ? 'Destroy' : 'Apply';
  const counts = `${t.added} added, ${t.changed} changed, ${t.replaced} replaced, ${t.destroyed} destroyed${t.forgotten ? `, ${t.forgotten} forgotten` : ''}`;
  if (t.failed || t.skipped)
    return `${verb} failed: ${t.failed} failed, ${t.skipped} skipped. Resources: ${counts}. (${formatElapsed(elapsedMs)})`;
  return `${verb} complete! Resources: ${counts}. (${formatElapsed(elapsedMs)})`;
}
