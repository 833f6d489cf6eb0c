// File primitives of the file store: atomic whole-file writes (temp file in the same directory,
// fsync, rename, fsync the directory; mode 0600), a cheap identity stamp of a file, and the
// journal's handle, open only while one operation runs.
import { mkdir, open, rename, stat, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import { randomBytes } from 'node:crypto';

export async function stampOf(path: string): Promise<string> {
  try {
    const s = await stat(path, { bigint: true });
    return `${s.ino}:${s.mtimeNs}:${s.size}`;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return '';
    throw e;
  }
}

/** Temp file in the same directory, fsync, rename over the target, fsync the directory. */
export async function writeAtomic(path: string, text: string): Promise<void> {
  const dir = dirname(path);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const tmp = `${path}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`;
  const fh = await open(tmp, 'wx', 0o600);
  try {
    await fh.writeFile(text, 'utf8');
    await fh.sync();
  } finally {
    await fh.close();
  }
  await rename(tmp, path);
  const d = await open(dir, 'r');
  try {
    await d.sync();
  } finally {
    await d.close();
  }
}

/**
 * The journal's handle, opened (append, mode 0600) on first use inside `during()` and closed when
 * the operation ends, so no descriptor outlives it: a store that is never closed (one per run in a
 * long-lived process) holds none, and none is left to the garbage collector. An open and a close
 * per fsynced group cost little beside the fsync.
 */
export class JournalFile {
  #handle: FileHandle | undefined;
  constructor(readonly path: string) {}

  /** Runs `fn` (which may call `open()`), then closes the handle if it opened one. */
  async during<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } finally {
      await this.#handle?.close().finally(() => (this.#handle = undefined));
    }
  }

  /** The open handle, opening it (and creating its directory) on first use. */
  async open(): Promise<FileHandle> {
    if (!this.#handle) {
      await mkdir(dirname(this.path), { recursive: true, mode: 0o700 });
      this.#handle = await open(this.path, 'a', 0o600);
    }
    return this.#handle;
  }
}
