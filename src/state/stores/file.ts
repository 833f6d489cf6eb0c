// FileStateStore: the default store. The state is one JSON file written atomically (temp file,
// fsync, rename, fsync the directory, mode 0600); each commit is appended to `<path>.journal` as a
// checksummed record and fsynced, records arriving while an fsync is in flight sharing the next one
// (group commit); `compact()` folds the journal into the file. `<path>.lock` is the lock.
// `<path>.outputs` (a sidecar, written after the state file whenever the state has outputs) holds
// the stack's outputs alone, with the state file's stamp: another stack reads it without parsing
// any resource, and falls back to the whole state when the files moved on since it was written.
import { mkdir, readFile, stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import type { State } from '../model.js';
import { type StateChange } from '../patch.js';
import { emptyState } from '../ops.js';
import type { ForceUnlockOptions, Lock, LockRequest, OutputsSnapshot, StateStore } from '../store.js';
import { SecretCodec, hasSecretValues, passphraseFrom, stateHasSecrets, type EncryptionHeader } from '../crypto.js';
import { decodeJournal, encodeRecord, mapWrittenItems, recordOf, tornTailWarning, type RawState } from '../journal.js';
import { acquireFileLock, forceUnlockFile } from './file-lock.js';
import { CommitQueue, type QueuedCommit } from '../commit-queue.js';
import { JournalFile, stampOf, writeAtomic } from './file-io.js';
import { StateCache } from './file-cache.js';
import { parseStateFile, replayJournal, sealedStateFile } from './file-format.js';
import { outputsOf, readSidecar, writeSidecar } from './file-outputs.js';
import { StateConflictError, StateCorruptError } from '../errors.js';

/** Options of {@link FileStateStore}. */
export type FileStateStoreOptions = {
  /** Encrypts secret values at rest; default: env CONVERGE_SECRETS_PASSPHRASE, else none (clear, with a warning). */
  readonly secretsPassphrase?: string;
  /** How long `lock()` waits for a held lock when the request gives no timeoutMs; default 0. */
  readonly lockTimeoutMs?: number;
  /** Called after each journal write is fsynced, with how many records it held (group commit; for tests and metrics). */
  readonly onFlush?: (records: number) => void;
};

/** What this store knows the files hold: valid while the state file and journal are as it left them. */
type Known = { stamp: string; offset: number; serial: number; lineage: string; codec: SecretCodec; torn: number };

const CLEAR_WARNING = (where: string, paths?: readonly string[]) =>
  `${paths ? `Secret values (${paths.join(', ')}) will be` : 'Secret values are'} stored in clear in ${where}. Pass secretsPassphrase or set CONVERGE_SECRETS_PASSPHRASE to encrypt them.`;

/**
 * The default store: the state is one JSON file (mode 0600) written atomically, each committed
 * step appended to `<path>.journal` and fsynced (so every step is durable without rewriting the
 * file), folded into the file at the end of an apply; `<path>.lock` is the lock. Secret values are
 * encrypted at rest when a passphrase is given.
 *
 * @example
 * ```ts
 * import { Engine, FileStateStore } from 'converge';
 *
 * const state = new FileStateStore('.converge/state.json', {
 *   secretsPassphrase: process.env.CONVERGE_SECRETS_PASSPHRASE, // encrypts secret values at rest
 *   lockTimeoutMs: 30_000,                                      // wait for another process's apply
 * });
 * const engine = new Engine({ providers: [], state });
 * export const serial = (await engine.state()).serial;
 * ```
 */
export class FileStateStore implements StateStore {
  readonly location: string;
  /** The state file's absolute path. */
  readonly path: string;
  /** The journal's path: `<path>.journal`. */
  readonly journalPath: string;
  /** The lock file's path: `<path>.lock`. */
  readonly lockPath: string;
  /** The outputs sidecar's path: `<path>.outputs` (present once the state has outputs). */
  readonly outputsPath: string;
  readonly #passphrase: string | undefined;
  readonly #lockTimeoutMs: number | undefined;
  readonly #onFlush: ((records: number) => void) | undefined;
  readonly #queue = new CommitQueue({
    // Settled once the journal is closed again: a commit that has resolved leaves no descriptor open.
    commitGroup: async (group) => {
      const settle = await this.#journal
        .during(() => this.#commitGroup(group))
        .catch((e: unknown) => {
          this.#known = undefined; // the close failed (#commitGroup catches the rest)
          return () => group.forEach((t) => t.done.reject(e));
        });
      settle();
    },
    onError: () => (this.#known = undefined),
  });
  readonly #locks = new Set<Lock>();
  /** Open only while one operation (a commit group, a write, a compaction) runs. */
  readonly #journal: JournalFile;
  #known: Known | undefined;
  readonly #cache = new StateCache();
  #emptyLineage: string | undefined;
  #warnings: string[] = [];
  #warnedClear = false;
  #tornSeen: string | undefined;
  readonly #codecs = new Map<string, Promise<SecretCodec>>();

  /** `path`: the state file (made, with its directory, on the first write); default `.converge/state.json`. */
  constructor(path = '.converge/state.json', options: FileStateStoreOptions = {}) {
    this.path = resolve(path);
    this.journalPath = `${this.path}.journal`;
    this.#journal = new JournalFile(this.journalPath);
    this.lockPath = `${this.path}.lock`;
    this.outputsPath = `${this.path}.outputs`;
    this.location = `file:${this.path}`;
    this.#passphrase = passphraseFrom(options.secretsPassphrase);
    this.#lockTimeoutMs = options.lockTimeoutMs;
    this.#onFlush = options.onFlush;
  }

  read(): Promise<State> {
    return this.#queue.run(() => this.#read());
  }

  commit(change: StateChange): Promise<void> {
    return this.#queue.commit(change);
  }

  /**
   * The stack's outputs without the lock: from the sidecar when it still describes the files (the
   * state file it was written with, an empty journal), which parses no resource; else from the
   * whole state (a journal not yet folded, or a sidecar a crash left behind).
   */
  async readOutputs(): Promise<OutputsSnapshot> {
    const files = { sidecar: this.outputsPath, state: this.path, journal: this.journalPath };
    return (await readSidecar(files, (h) => this.#codec(h))) ?? outputsOf(await this.read());
  }

  write(state: State, baseSerial: number): Promise<void> {
    return this.#queue.run(() => this.#journal.during(() => this.#write(state, baseSerial)));
  }

  compact(): Promise<void> {
    return this.#queue.run(() => this.#journal.during(() => this.#compact()));
  }

  /** Removes the lock file of lock `lockId` when its holder is gone; a live one (or one on another host) only with `force`. */
  async forceUnlock(lockId: string, options?: ForceUnlockOptions): Promise<boolean> {
    return forceUnlockFile(this.lockPath, this.location, lockId, options?.force === true);
  }

  async lock(request: LockRequest): Promise<Lock> {
    await mkdir(dirname(this.path), { recursive: true, mode: 0o700 });
    const timeoutMs = request.timeoutMs ?? this.#lockTimeoutMs;
    const lock = await acquireFileLock(this.lockPath, this.location, { ...request, timeoutMs });
    this.#locks.add(lock);
    return {
      info: lock.info,
      warnings: lock.warnings,
      release: async () => {
        this.#locks.delete(lock);
        await lock.release();
      },
    };
  }

  secretsWarning(paths?: readonly string[]): string | undefined {
    return this.#passphrase === undefined ? CLEAR_WARNING(this.location, paths) : undefined;
  }

  takeWarnings(): readonly string[] {
    const w = this.#warnings;
    this.#warnings = [];
    return w;
  }

  /**
   * Waits for queued operations and releases the locks this store took. The journal is open only
   * while an operation writes it, so a store that is never closed holds no file descriptor.
   */
  async close(): Promise<void> {
    await this.#queue.drained();
    for (const l of [...this.#locks]) await l.release();
    this.#locks.clear();
    this.#known = undefined;
  }

  /**
   * Consecutive commits: one journal write and one fsync for all of them (group commit). Returns
   * what settles each commit, for the caller to run once the journal is closed.
   */
  async #commitGroup(group: QueuedCommit[]): Promise<() => void> {
    const accepted: typeof group = [];
    const refused: [QueuedCommit, StateConflictError][] = [];
    const chunks: Buffer[] = [];
    try {
      const known = await this.#prepare(true);
      let serial = known.serial;
      for (const t of group) {
        if (t.change.baseSerial !== serial) {
          refused.push([t, new StateConflictError(this.location, t.change.baseSerial, serial)]);
          continue;
        }
        if (!known.codec.encrypts && !this.#warnedClear) {
          let any = false;
          mapWrittenItems(t.change.patches, (i) => (any ||= hasSecretValues(i)));
          this.#noteSecrets(known.codec, any);
        }
        chunks.push(encodeRecord(recordOf(t.change, known.codec)));
        serial = t.change.serial;
        accepted.push(t);
      }
      if (chunks.length > 0) {
        const buf = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks);
        const j = await this.#journal.open();
        await j.write(buf);
        await j.datasync();
        known.offset += buf.length;
        known.serial = serial;
        for (const t of accepted) this.#cache.append(t.change);
        this.#onFlush?.(accepted.length);
      }
      return () => {
        for (const [t, e] of refused) t.done.reject(e);
        for (const t of accepted) t.done.resolve();
      };
    } catch (e) {
      this.#known = undefined;
      this.#cache.clear();
      return () => group.forEach((t) => t.done.reject(e));
    }
  }

  /** The codec for a stored header, derived once per salt (scrypt is deliberately slow). */
  #codec(header: EncryptionHeader | undefined): Promise<SecretCodec> {
    if (!header) return SecretCodec.create(this.location, this.#passphrase, undefined);
    let c = this.#codecs.get(header.salt);
    if (!c) {
      c = SecretCodec.create(this.location, this.#passphrase, header);
      c.catch(() => this.#codecs.delete(header.salt));
      this.#codecs.set(header.salt, c);
    }
    return c;
  }

  #noteSecrets(codec: SecretCodec, any: boolean): void {
    if (any && !codec.encrypts && !this.#warnedClear) {
      this.#warnedClear = true;
      this.#warnings.push(CLEAR_WARNING(this.location));
    }
  }

  /** Warns, once per tail, that the journal ends in bytes no record holds whole: they are dropped. */
  #noteTornTail(at: number, tail: Buffer): void {
    const key = `${at}:${tail.length}`;
    if (this.#tornSeen === key) return;
    this.#tornSeen = key;
    this.#warnings.push(tornTailWarning(this.journalPath, at, tail));
  }

  async #read(): Promise<State> {
    const k = this.#known;
    if (k && this.#cache.holds && (await this.#isFresh(k))) {
      const cached = this.#cache.current(k.serial, k.lineage);
      if (cached) return cached;
    }
    const loaded = await this.#load();
    if (!loaded) {
      this.#emptyLineage ??= emptyState().lineage;
      return emptyState(this.#emptyLineage);
    }
    const state = this.#cache.adopt(loaded.raw);
    if (loaded.torn === 0 && (loaded.headerOnDisk || this.#passphrase === undefined)) {
      this.#known = {
        stamp: loaded.stamp,
        offset: loaded.offset,
        serial: state.serial,
        lineage: state.lineage,
        codec: loaded.codec,
        torn: 0,
      };
    }
    return state;
  }

  async #write(state: State, baseSerial: number): Promise<void> {
    const known = await this.#prepare(false);
    if (known.serial !== baseSerial) throw new StateConflictError(this.location, baseSerial, known.serial);
    await this.#replaceFile(state, known.codec);
  }

  async #compact(): Promise<void> {
    const known = await this.#prepare(false);
    if (known.offset === 0) return;
    const state = this.#cache.current(known.serial, known.lineage) ?? this.#cache.adopt((await this.#load())!.raw);
    await this.#replaceFile(state, known.codec);
  }

  async #isFresh(k: Known): Promise<boolean> {
    if (k.torn !== 0 || (await stampOf(this.path)) !== k.stamp) return false;
    try {
      return (await stat(this.journalPath)).size === k.offset;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return k.offset === 0;
      throw e;
    }
  }

  /** Writes the whole state atomically, then empties the journal (a crash between is harmless: replay skips old records). */
  async #replaceFile(state: State, codec: SecretCodec): Promise<void> {
    this.#noteSecrets(codec, stateHasSecrets(state));
    const raw = sealedStateFile(state, codec);
    await writeAtomic(this.path, JSON.stringify(raw));
    const j = await this.#journal.open();
    await j.truncate(0);
    await j.datasync();
    this.#known = {
      stamp: await stampOf(this.path),
      offset: 0,
      serial: state.serial,
      lineage: state.lineage,
      codec,
      torn: 0,
    };
    await writeSidecar(this.outputsPath, state, codec, this.#known.stamp);
    this.#cache.adopt(state);
  }

  /**
   * Makes sure what this store knows matches the files (two stats when nothing else wrote; a full
   * load otherwise), repairs a torn journal tail, and with `createBase` creates the state file
   * for a first commit (so the lineage and the encryption salt are on disk before any record).
   */
  async #prepare(createBase: boolean): Promise<Known> {
    const j = await this.#journal.open();
    const k = this.#known;
    if (k && (await this.#isFresh(k))) return k;
    const loaded = await this.#load();
    if (!loaded) {
      const codec = await SecretCodec.create(this.location, this.#passphrase, undefined);
      const base = emptyState((this.#emptyLineage ??= emptyState().lineage));
      if (createBase) await this.#replaceFile(base, codec);
      else this.#known = { stamp: '', offset: 0, serial: 0, lineage: base.lineage, codec, torn: 0 };
      return this.#known!;
    }
    if (loaded.torn > 0) {
      await j.truncate(loaded.offset);
      await j.datasync();
    }
    this.#known = {
      stamp: loaded.stamp,
      offset: loaded.offset,
      serial: loaded.raw.serial,
      lineage: loaded.raw.lineage,
      codec: loaded.codec,
      torn: 0,
    };
    const state = this.#cache.adopt(loaded.raw);
    if (this.#passphrase !== undefined && !loaded.headerOnDisk) {
      // first passphrase on a clear state: rewrite it once, sealing what is there, with the new salt on disk
      await this.#replaceFile(state, loaded.codec);
    }
    return this.#known;
  }

  /** Reads the state file and replays the journal on it; undefined when there is no state yet. */
  async #load(): Promise<
    | { raw: RawState; codec: SecretCodec; headerOnDisk: boolean; stamp: string; offset: number; torn: number }
    | undefined
  > {
    const stamp = await stampOf(this.path);
    let text: string;
    try {
      text = await readFile(this.path, 'utf8');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
      const j = await readFile(this.journalPath).catch(() => Buffer.alloc(0));
      const d = decodeJournal(j);
      if ('corruptAt' in d || d.records.length > 0) {
        // Another process may have created the state file (always before its first record) between
        // our two reads: look once more before calling it corrupt.
        if (await stampOf(this.path)) return this.#load();
        throw new StateCorruptError(
          this.location,
          `the journal ${this.journalPath} has records but the state file is missing`,
        );
      }
      return undefined;
    }
    const { encryption, raw } = parseStateFile(text, this.location);
    const buf = await readFile(this.journalPath).catch((e) => {
      if (e.code === 'ENOENT') return Buffer.alloc(0);
      throw e;
    });
    const d = replayJournal(raw, buf, this.location, this.journalPath);
    if (d.tornBytes > 0) this.#noteTornTail(d.validLength, buf.subarray(d.validLength));
    const codec = await this.#codec(encryption);
    codec.openStateInPlace(raw);
    return { raw, codec, headerOnDisk: encryption !== undefined, stamp, offset: d.validLength, torn: d.tornBytes };
  }
}
