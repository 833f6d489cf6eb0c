// The in-place drawing on a terminal: finished lines scroll up above a live area that is redrawn
// with ANSI cursor movement (up N lines, clear to end of line, clear below). Live lines are cut to
// the terminal's width so that none wraps and the cursor arithmetic stays right.
import { fit } from './format.js';

/** What the reporter writes to: process.stderr, or anything with write() (tests pass a fake TTY). */
export type ProgressStream = {
  /** Writes text. */
  write(chunk: string): unknown;
  /** True on a terminal: the reporter then redraws in place. */
  readonly isTTY?: boolean;
  /** The terminal's width; live lines are cut to it. */
  readonly columns?: number;
};

type Tone = 'plain' | 'ok' | 'fail' | 'warn' | 'dim';

export type Line = { readonly text: string; readonly tone: Tone };

const TONES: Record<Tone, string> = { plain: '', ok: '\x1b[32m', fail: '\x1b[31m', warn: '\x1b[33m', dim: '\x1b[2m' };
const RESET = '\x1b[0m';

const CURSOR_UP = (n: number): string => `\x1b[${n}A`;
const CLEAR_LINE_END = '\x1b[K';
const CLEAR_BELOW = '\x1b[J';

export class TtyView {
  #drawn = 0;
  readonly #stream: ProgressStream;
  readonly #color: boolean;

  constructor(stream: ProgressStream, color: boolean) {
    this.#stream = stream;
    this.#color = color;
  }

  /** Writes `scroll` above the live area, then redraws the live area as `live`, in one write. */
  draw(scroll: readonly Line[], live: readonly Line[]): void {
    // A stream without a size (columns 0 or missing, as under `script`) is taken as 80 wide.
    const columns = this.#stream.columns;
    const width = columns && columns > 0 ? Math.max(10, columns - 1) : 79;
    let out = this.#drawn ? `${CURSOR_UP(this.#drawn)}\r` : '\r';
    for (const l of scroll) out += `${this.#paint(l, Infinity)}${CLEAR_LINE_END}\n`;
    for (const l of live) out += `${this.#paint(l, width)}${CLEAR_LINE_END}\n`;
    out += CLEAR_BELOW;
    this.#drawn = live.length;
    this.#stream.write(out);
  }

  #paint(line: Line, width: number): string {
    const text = fit(line.text, width);
    return this.#color && line.tone !== 'plain' ? `${TONES[line.tone]}${text}${RESET}` : text;
  }
}
