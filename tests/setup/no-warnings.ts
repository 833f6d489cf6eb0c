// Suite-wide guard (vitest setupFiles): a process warning during a test file fails that file.
// converge must never make Node print one (pg's "client is already executing a query", a
// FileHandle closed on garbage collection, DEP0137, a MaxListeners leak, ...). Forks run with
// --expose-gc (vitest.config.ts), so afterAll collects garbage first: a FileHandle or socket left
// to the collector warns inside the file that leaked it.
import { afterAll } from 'vitest';

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

afterAll(async () => {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc) {
    gc();
    // a handle closed by the collector warns from a later tick
    for (let i = 0; i < 3; i++) await new Promise((r) => setImmediate(r));
  }
  await new Promise((r) => setTimeout(r, 10));
  if (seen.length > 0) {
    const list = seen.splice(0);
    throw new Error(`Node emitted ${list.length} process warning(s) during this file:\n  ${list.join('\n  ')}`);
  }
});
