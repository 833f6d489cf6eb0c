// Suite-wide guard (vitest setupFiles): a process warning during a test file fails that file.
// converge must never make Node print one (pg's "client is already executing a query", a
// FileHandle closed on garbage collection, DEP0137, a MaxListeners leak, ...). Forks run with
// --expose-gc (vitest.config.ts), so afterAll collects garbage first: a FileHandle or socket left
// to the collector warns inside the file that leaked it.
import { afterAll } from 'vitest';

const seen: string[] = [];
process.on('warning', (w) => {
  seen.push(`${w.name}${(w as { code?: string }).code ? ` [${(w as { code?: string }).code}]` : ''}: ${w.message}`);
});

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
