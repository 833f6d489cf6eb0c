// This process's descriptors open on paths, from /proc/self/fd, read synchronously: in the same turn
// as the await that called it, so a close still under way when an operation resolved is seen open.
// The suite's warning guard (tests/setup/no-warnings.ts) and the file store's descriptor test use it.
import { readdirSync, readlinkSync } from 'node:fs';

/** "fd:path" of every descriptor open on a path; undefined where there is no /proc. */
export function openFiles(): Set<string> | undefined {
  let fds: string[];
  try {
    fds = readdirSync('/proc/self/fd');
  } catch {
    return undefined;
  }
  const out = new Set<string>();
  for (const fd of fds) {
    try {
      const target = readlinkSync(`/proc/self/fd/${fd}`);
      if (target.startsWith('/')) out.add(`${fd}:${target}`);
    } catch {
      // closed since the listing (readdirSync's own descriptor among them)
    }
  }
  return out;
}
