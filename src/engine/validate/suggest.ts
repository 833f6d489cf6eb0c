// Readable messages: "did you mean" suggestions for a misspelt name, and offending values cut to a
// short prefix so a 1 MB string never makes a 1 MB message.

const MAX_PREVIEW = 60;

/** A value as a message shows it: quoted when a string, cut to a short prefix with its full length. */
export function preview(value: unknown, max = MAX_PREVIEW): string {
  let text: string;
  if (typeof value === 'string') text = JSON.stringify(value.length > max ? value.slice(0, max) : value);
  else if (typeof value === 'bigint') text = `${value}n`;
  else if (typeof value === 'symbol' || typeof value === 'function') text = typeof value;
  else {
    try {
      text = JSON.stringify(value) ?? String(value);
    } catch {
      text = String(value);
    }
  }
  const long = typeof value === 'string' ? value.length > max : text.length > max;
  if (!long) return text;
  const size = typeof value === 'string' ? value.length : text.length;
  return `${typeof value === 'string' ? text.slice(0, -1) : text.slice(0, max)}… (${size} characters)`;
}

/** Cuts a message (from a schema or a provider's check) to a readable length. */
export function cutMessage(message: string, max = 400): string {
  return message.length > max ? `${message.slice(0, max)}… (${message.length} characters)` : message;
}

/** Edit distance (insertions, deletions, substitutions, adjacent swaps), stopping early past `limit`. */
function distance(a: string, b: string, limit = Infinity): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  const rows: number[][] = [];
  for (let i = 0; i <= a.length; i++) {
    rows[i] = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      if (i === 0) {
        rows[0]![j] = j;
        continue;
      }
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, rows[i - 2]![j - 2]! + 1);
      rows[i]![j] = d;
      best = Math.min(best, d);
    }
    if (i > 0 && best > limit) return limit + 1;
  }
  return rows[a.length]![b.length]!;
}

/** The candidate closest to `word`, when one is close enough to be a likely misspelling. */
export function closest(word: string, candidates: Iterable<string>): string | undefined {
  if (word.length > 200) return undefined;
  const lower = word.toLowerCase();
  let best: string | undefined;
  let bestD = Infinity;
  for (const c of candidates) {
    if (c.toLowerCase() === lower) return c;
    const limit = Math.max(1, Math.floor(Math.max(word.length, c.length) / 3));
    const d = distance(lower, c.toLowerCase(), limit);
    if (d <= limit && d < bestD) {
      best = c;
      bestD = d;
    }
  }
  return best;
}

/** ` Did you mean 'x'?` or ''. */
export function didYouMean(word: string, candidates: Iterable<string>): string {
  const c = closest(word, candidates);
  return c ? ` Did you mean '${c}'?` : '';
}

/** A name or path as a message shows it: cut to a short prefix when long. */
export function cut(text: string, max = MAX_PREVIEW): string {
  return text.length > max ? `${text.slice(0, max)}… (${text.length} characters)` : text;
}
