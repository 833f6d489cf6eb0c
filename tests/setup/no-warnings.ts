// Suite-wide guard (vitest setupFiles): a process warning during a test file fails that file.
// converge must never make Node print one (pg's "client is already executing a query", a
// FileHandle closed on garbage collection, DEP0137, a MaxListeners leak, ...). Forks run with
// --expose-gc (vitest.config.ts), so afterAll collects garbage first when the file left a file
// descriptor open that was not open when it started: a FileHandle left to the collector (which holds
// its descriptor until then) warns inside the file that leaked it. A file that left none open skips
// the collection, which took 100-200 ms of CPU with a fork's heap (most files open no file).
import { afterAll } from 'vitest';
import { openFiles } from '../helpers/open-files.js';

// One listener per process: a fork that runs several files in turn (isolate: false) loads this
// file once per test file, and a listener each time would itself trip MaxListenersExceededWarning.
const WARNINGS = Symbol.for('converge.tests.warnings');
const holder = globalThis as { [WARNINGS]?: string[] };
const seen = (holder[WARNINGS] ??= listen());

function listen(): string[] {
  const list: string[] = [];
  process.on('warning', (w) => {
    const code = (w as { code?: string }).code;
    list.push(`${w.name}${code ? ` [${code}]` : ''}: ${w.message}`);
  });
  return list;
}

// Runs as the file starts (setup files run before each test file is imported).
const before = openFiles();
/** Whether a descriptor is open that was not when the file started (always, without /proc). */
const newlyOpen = () => {
  const now = before && openFiles();
  return !now || [...now].some((d) => !before!.has(d));
};
const ticks = async (n: number) => {
  for (let i = 0; i < n; i++) await new Promise((r) => setImmediate(r));
};

afterAll(async () => {
  const gc = (globalThis as { gc?: () => void }).gc;
  // Twice when a descriptor stays open: a handle the file's last promise reactions still held
  // survives the first collection (a handle closed by the collector warns from a later tick).
  for (let round = 0; gc && round < 2 && newlyOpen(); round++) {
    if (round > 0) await new Promise((r) => setTimeout(r, 50));
    gc();
    await ticks(3);
  }
  await new Promise((r) => setTimeout(r, 10));
  if (seen.length > 0) {
    const list = seen.splice(0);
    throw new Error(`Node emitted ${list.length} process warning(s) during this file:\n  ${list.join('\n  ')}`);
  }
});
