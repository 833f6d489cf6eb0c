// The file store's lock: `<state>.lock`, created atomically (temp file + link) and holding the
// holder's LockInfo as JSON. A lock whose holder is a dead process on this host is taken over (under a short-lived
// `<state>.lock.takeover` guard, so two processes never both take it) with a warning.
import { link, open, readFile, unlink, stat } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Lock, LockInfo, LockRequest } from '../store.js';
import { lockInfo, waitForLock } from '../lock.js';
import { LockHolderAliveError, StateLockedError } from '../errors.js';

const GUARD_STALE_MS = 10_000;

export async function acquireFileLock(lockPath: string, where: string, request: LockRequest): Promise<Lock> {
  const info = lockInfo(request.operation);
  const warnings: string[] = [];
  let holder: LockInfo | undefined;
  const got = await waitForLock(
    request,
    async () => {
      if (await tryCreate(lockPath, info)) return info;
      holder = await readHolder(lockPath);
      if (holder === undefined) return tryCreate(lockPath, info).then((ok) => (ok ? info : undefined));
      if (isDeadLocalHolder(holder)) {
        const dead = holder;
        if (await takeOver(lockPath, dead, info)) {
          warnings.push(
            `The lock on ${where} held by pid ${dead.pid} on ${dead.host} for ${dead.operation} since ${dead.since} ` +
              'was left by a process that no longer runs; it was taken over. Check that its operation left nothing half done.',
          );
          return info;
        }
      }
      return undefined;
    },
    20,
    () => holder,
  );
  if (!got) {
    throw new StateLockedError(
      holder ?? { id: 'unknown', pid: 0, host: 'unknown', operation: 'unknown', since: 'unknown' },
      where,
    );
  }
  let released = false;
  return {
    info,
    warnings,
    release: async () => {
      if (released) return;
      released = true;
      const now = await readHolder(lockPath);
      if (now?.id === info.id) await unlink(lockPath).catch(ignoreMissing);
    },
  };
}

/**
 * Creates the lock file with its content in one step: the holder is written to a private temp file
 * first and hard-linked into place (link fails if the lock exists), so a process killed at any
 * point never leaves an empty or half-written lock that no one could read or take over.
 */
async function tryCreate(lockPath: string, info: LockInfo): Promise<boolean> {
  const tmp = `${lockPath}.${process.pid}.${randomBytes(4).toString('hex')}`;
  try {
    const fh = await open(tmp, 'wx', 0o600);
    try {
      await fh.writeFile(JSON.stringify(info));
      await fh.sync();
    } finally {
      await fh.close();
    }
    await link(tmp, lockPath);
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw e;
  } finally {
    await unlink(tmp).catch(() => {});
  }
}

/** The holder, or undefined when the lock file is gone (or still being written: then retried). */
async function readHolder(lockPath: string): Promise<LockInfo | undefined> {
  for (let i = 0; i < 5; i++) {
    let text: string;
    try {
      text = await readFile(lockPath, 'utf8');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw e;
    }
    try {
      return JSON.parse(text) as LockInfo;
    } catch {
      // written between open and write by its creator: look again in a moment
      await new Promise((r) => setTimeout(r, 2));
    }
  }
  return { id: 'unreadable', pid: 0, host: 'unknown', operation: 'unknown', since: 'unknown' };
}

function isDeadLocalHolder(h: LockInfo): boolean {
  return liveness(h) === 'dead';
}

/** A holder on this host is alive while a process with its pid runs; one on another host cannot be checked. */
function liveness(h: LockInfo): 'alive' | 'dead' | 'unknown' {
  if (h.host !== hostname() || !Number.isInteger(h.pid) || h.pid <= 0) return 'unknown';
  try {
    process.kill(h.pid, 0);
    return 'alive';
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'ESRCH' ? 'dead' : 'alive'; // EPERM: runs as another user
  }
}

async function takeOver(lockPath: string, dead: LockInfo, info: LockInfo): Promise<boolean> {
  const guard = `${lockPath}.takeover`;
  if (!(await tryCreate(guard, info))) {
    const s = await stat(guard).catch(() => undefined);
    if (s && Date.now() - s.mtimeMs > GUARD_STALE_MS) await unlink(guard).catch(ignoreMissing);
    return false;
  }
  try {
    const now = await readHolder(lockPath);
    if (now !== undefined && now.id !== dead.id) return false;
    if (now !== undefined) await unlink(lockPath).catch(ignoreMissing);
    return await tryCreate(lockPath, info);
  } finally {
    await unlink(guard).catch(ignoreMissing);
  }
}

function ignoreMissing(e: unknown): void {
  if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
}

/**
 * Removes the lock file when it holds lock `lockId` (force-unlock); false when it does not. Its
 * holder must be gone (a dead process on this host) unless `force`: else LockHolderAliveError.
 */
export async function forceUnlockFile(
  lockPath: string,
  where: string,
  lockId: string,
  force = false,
): Promise<boolean> {
  const holder = await readHolder(lockPath);
  if (holder?.id !== lockId) return false;
  const live = force ? 'dead' : liveness(holder);
  if (live !== 'dead') {
    const evidence =
      live === 'alive'
        ? `a process with pid ${holder.pid} runs on this host (${hostname()})`
        : holder.host !== hostname()
          ? `it runs on another host (${holder.host}), where this process (on ${hostname()}) cannot check whether it still runs`
          : 'the lock file names no process this host can check';
    throw new LockHolderAliveError(holder, where, live, evidence);
  }
  // the lock may have changed hands since it was read: remove only the one asked for
  if ((await readHolder(lockPath))?.id !== lockId) return false;
  await unlink(lockPath).catch(ignoreMissing);
  return true;
}
