// Test support: a fake TTY stream that records every write and interprets the ANSI sequences the
// reporter uses (cursor up, carriage return, clear to end of line, clear below), so a test can
// check what the screen shows, not just the bytes.
export class FakeTty {
  readonly isTTY = true;
  readonly writes: string[] = [];
  #lines: string[] = [''];
  #row = 0;
  #col = 0;

  constructor(readonly columns = 80) {}

  write(chunk: string): boolean {
    this.writes.push(chunk);
    // eslint-disable-next-line no-control-regex -- ANSI escape sequences (ESC) are what the fake terminal reads
    const re = /\x1b\[(\d*)([A-Za-z])|\r|\n|[^\x1b\r\n]+/g;
    for (const m of chunk.matchAll(re)) {
      const t = m[0];
      if (t === '\r') this.#col = 0;
      else if (t === '\n') {
        this.#row++;
        this.#col = 0;
        while (this.#lines.length <= this.#row) this.#lines.push('');
      } else if (m[2] === 'A') this.#row = Math.max(0, this.#row - Number(m[1] || 1));
      else if (m[2] === 'K') this.#lines[this.#row] = this.#lines[this.#row]!.slice(0, this.#col);
      else if (m[2] === 'J') {
        this.#lines[this.#row] = this.#lines[this.#row]!.slice(0, this.#col);
        this.#lines.length = this.#row + 1;
      } else if (m[2] === 'm') {
        /* colour: not part of the text */
      } else if (!t.startsWith('\x1b')) {
        const line = this.#lines[this.#row]!.padEnd(this.#col);
        this.#lines[this.#row] = line.slice(0, this.#col) + t + line.slice(this.#col + t.length);
        this.#col += t.length;
      }
    }
    return true;
  }

  /** The screen's text, trailing empty lines dropped. */
  screen(): string[] {
    const out = [...this.#lines];
    while (out.length && out[out.length - 1] === '') out.pop();
    return out;
  }
}
