// PostgresStateStore: state shared by a team or a CI fleet. A stack row holds lineage, serial and
// the encryption header; one row per resource and per pending operation. Commits queued while one
// group is being written go out together as the next group: one statement that checks and raises
// the stack's serial (postgres-batch.ts). The lock and its holder's row: postgres-lock.ts. Outputs
// have their own rows, read by other stacks through a view (postgres-schema.ts).
import pg from 'pg';
import { freeze } from 'immer';
import { STATE_VERSION, type State } from '../model.js';
import { mapValues } from '../keys.js';
import { CommitQueue, type QueuedCommit } from '../commit-queue.js';
import { migrateRaw } from '../migrate.js';
import type { StateChange } from '../patch.js';
import { emptyState } from '../ops.js';
import type { ForceUnlockOptions, Lock, LockRequest, OutputsSnapshot, StateStore } from '../store.js';
import { SecretCodec, hasSecretValues, passphraseFrom, type EncryptionHeader, type StoredItem } from '../crypto.js';
import { StateConflictError } from '../errors.js';
import {
  tablesOf,
  ensureSchema,
  ensureSchemaOnPool,
  openRows,
  readOutputs,
  readStackRows,
  prepared,
  type Tables,
} from './postgres-schema.js';
import { acquirePgLock, forcePgUnlock } from './postgres-lock.js';
import { acquireSharedPgLock } from './postgres-lock-session.js';
import { batchOf, batchParams, batchStatement, chainFrom, checkGranular, replaceRows } from './postgres-batch.js';

/** Options of {@link PostgresStateStore}. */
export type PostgresStateStoreOptions = {
  /** The database, as `pg` takes it: `postgres://user:password@host:5432/db`. Give this or `pool`. */
  readonly connectionString?: string;
  /**
   * A pool shared with other stores (a fleet worker's): queries and each lock's connection come from
   * it, and close() leaves it open (whoever made it ends it). Give this or `connectionString`.
   */
  readonly pool?: pg.Pool;
  /**
   * With `pool`: this store's locks are held on one connection of the pool shared by every store of
   * that pool that asks so (a fleet worker's runs), instead of a connection per lock, so N stacks
   * locked at once hold one connection and runs beyond the pool's size never starve it. Stacks
   * stay apart in the process as across processes. A forced unlock of such a lock ends that shared
   * connection, which frees every lock on it. Default false.
   */
  readonly shareLockSession?: boolean;
  /** The stack's name; several stacks share one database. */
  readonly stack: string;
  /** Encrypts secret values at rest; default: env CONVERGE_SECRETS_PASSPHRASE, else none (clear, with a warning). */
  readonly secretsPassphrase?: string;
  /** Schema holding converge's tables; default 'public'. */
  readonly schema?: string;
  /** How long `lock()` waits for a held lock when the request gives no timeoutMs; default 0. */
  readonly lockTimeoutMs?: number;
  /** At most this many queued commits share one statement (group commit); default 1000; 1 = one per commit. */
  readonly maxCommitGroup?: number;
  /** Called after each group of commits is durable, with how many it held (for tests and metrics). */
  readonly onFlush?: (records: number) => void;
};

type StackRow = { serial: number; lineage: string; encryption: EncryptionHeader | null };
/** The stack's serial and codec as this store last left or saw them: lets a group commit go out as one statement. */
type Known = { serial: number; codec: SecretCodec };

const CLEAR_WARNING = (where: string, paths?: readonly string[]) =>
  `${paths ? `Secret values (${paths.join(', ')}) will be` : 'Secret values are'} stored in clear in ${where}. Pass secretsPassphrase or set CONVERGE_SECRETS_PASSPHRASE to encrypt them.`;

/**
 * State shared by a team or a CI fleet in PostgreSQL: one row per resource and per pending
 * operation, a stack row with lineage and serial, and a session advisory lock per stack, so two
 * runners never apply at once. Several stacks share one database; the tables are made on first
 * use. Secret values are encrypted at rest when a passphrase is given. Call `close()` at the end.
 *
 * @example
 * ```ts
 * import { Engine, PostgresStateStore, StateLockedError } from 'converge';
 *
 * const state = new PostgresStateStore({
 *   connectionString: process.env.DATABASE_URL ?? 'postgres://localhost/converge',
 *   stack: 'production',
 *   lockTimeoutMs: 60_000,
 * });
 * const engine = new Engine({ providers: [], state });
 * export const problems: unknown[][] = []; // what went wrong, to show or act on
 * try {
 *   await engine.apply(await engine.plan([]));
 * } catch (e) {
 *   if (e instanceof StateLockedError) problems.push([`another runner (${e.holder}) is applying`]);
 *   else throw e;
 * } finally {
 *   await state.close();
 * }
 * ```
 */
export class PostgresStateStore implements StateStore {
  readonly location: string;
  /** The stack's name: its rows in the shared tables. */
  readonly stack: string;
  readonly #options: PostgresStateStoreOptions;
  readonly #passphrase: string | undefined;
  readonly #tables: Tables;
  readonly #pool: pg.Pool;
  /** The locks this store holds, each on its own connection. */
  readonly #locks = new Set<Lock>();
  readonly #codecs = new Map<string, Promise<SecretCodec>>();
  readonly #queue: CommitQueue;
  #known: Known | undefined;
  #schemaReady: Promise<void> | undefined;
  #emptyLineage: string | undefined;
  #warnings: string[] = [];
  #warnedClear = false;

  /** Connects lazily: nothing is sent until the first operation. @throws TypeError for an empty `connectionString` or `stack`, or a bad `maxCommitGroup`. */
  constructor(options: PostgresStateStoreOptions) {
    if (!options?.pool && (typeof options?.connectionString !== 'string' || !options.connectionString))
      throw new TypeError('Expected `connectionString` to be a non-empty string, or a `pool`');
    if (typeof options.stack !== 'string' || options.stack === '')
      throw new TypeError('Expected `stack` to be a non-empty string');
    this.#options = options;
    this.stack = options.stack;
    this.#tables = tablesOf(options.schema ?? 'public');
    this.location = `postgres:${options.schema ? `${options.schema}.` : ''}${options.stack}`;
    this.#passphrase = passphraseFrom(options.secretsPassphrase);
    const maxGroup = options.maxCommitGroup ?? 1000;
    if (!Number.isInteger(maxGroup) || maxGroup < 1)
      throw new TypeError('Expected `maxCommitGroup` to be an integer from 1 and up');
    this.#queue = new CommitQueue({
      commitGroup: (group) => this.#commitGroup(group),
      onError: () => (this.#known = undefined),
      maxGroup,
    });
    const own = () => new pg.Pool({ connectionString: options.connectionString, max: 4, application_name: 'converge' });
    this.#pool = options.pool ?? own();
    if (!options.pool) this.#pool.on('error', () => {}); // an idle connection dropped by the server; the next query reconnects
  }

  read(): Promise<State> {
    return this.#queue.run(() => this.#read());
  }

  /**
   * The stack's outputs through the outputs view, in one statement (one snapshot): no lock, no
   * transaction, nothing created, so a role with SELECT on `converge_stack_outputs` alone can read
   * them. Secret values open with this store's passphrase.
   */
  async readOutputs(): Promise<OutputsSnapshot> {
    return readOutputs(
      this.#pool,
      this.#tables,
      this.stack,
      (h) => this.#codec(h),
      () => (this.#emptyLineage ??= emptyState().lineage),
    );
  }

  /** Queued commits go out together: those arriving while a group is being written form the next group. */
  commit(change: StateChange): Promise<void> {
    return this.#queue.commit(change);
  }

  write(state: State, baseSerial: number): Promise<void> {
    return this.#queue.run(() => this.#write(state, baseSerial));
  }

  /** Nothing to fold: every commit already is a row change. Waits for queued commits. */
  compact(): Promise<void> {
    return this.#queue.run(async () => {});
  }

  async lock(request: LockRequest): Promise<Lock> {
    await this.#ready();
    const target = {
      connectionString: this.#options.connectionString,
      pool: this.#options.pool,
      tables: this.#tables,
      stack: this.stack,
      location: this.location,
    };
    const req = { ...request, timeoutMs: request.timeoutMs ?? this.#options.lockTimeoutMs };
    return this.#options.pool && this.#options.shareLockSession
      ? acquireSharedPgLock(this.#options.pool, target, req, this.#locks)
      : acquirePgLock(target, req, this.#locks);
  }

  /**
   * Drops the row of lock `lockId` when its holder's session is gone; while that session still holds
   * the advisory lock, only with `force` (it is then ended, which frees the lock). False when `lockId` holds nothing.
   */
  async forceUnlock(lockId: string, options?: ForceUnlockOptions): Promise<boolean> {
    await this.#ready();
    return forcePgUnlock(
      {
        connectionString: this.#options.connectionString,
        pool: this.#options.pool,
        tables: this.#tables,
        stack: this.stack,
        location: this.location,
      },
      lockId,
      options?.force === true,
    );
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
   * Waits for queued operations, releases the locks this store holds (each on its own connection,
   * one query at a time: a connection is never handed a query while one runs, nor ended under one)
   * and ends the pool, unless it was given one.
   */
  async close(): Promise<void> {
    await this.#queue.drained();
    for (const l of [...this.#locks]) await l.release().catch(() => {});
    if (!this.#options.pool) await this.#pool.end();
  }

  /**
   * Writes a group of consecutive commits as one statement when this store knows the stack's serial
   * (one round trip), else in a transaction holding the stack row. Each commit resolves only once
   * the group is durable; a commit whose base serial is stale is refused alone.
   */
  async #commitGroup(group: QueuedCommit[]): Promise<void> {
    const valid: QueuedCommit[] = [];
    for (const t of group) {
      try {
        checkGranular(t.change);
        valid.push(t);
      } catch (e) {
        t.done.reject(e);
      }
    }
    if (valid.length === 0) return;
    let outcome: { from: number; accepted: QueuedCommit[] } | undefined;
    try {
      await this.#ready();
      const k = this.#known;
      if (k && valid[0].change.baseSerial === k.serial) {
        const chain = chainFrom(k.serial, valid);
        if (await this.#writeBatch(this.#pool, k, chain.accepted)) outcome = chain;
        else this.#known = undefined;
      }
      if (!outcome) {
        outcome = await this.#withStack(undefined, async (c, row, codec) => {
          const chain = chainFrom(row.serial, valid);
          await this.#writeBatch(c, { serial: row.serial, codec }, chain.accepted); // the row is ours: it cannot miss
          return chain;
        });
      }
    } catch (e) {
      this.#known = undefined;
      for (const t of valid) t.done.reject(e);
      return;
    }
    let serial = outcome.from;
    const accepted = new Set(outcome.accepted);
    for (const t of valid) {
      if (accepted.has(t)) {
        serial = t.change.serial;
        t.done.resolve();
      } else t.done.reject(new StateConflictError(this.location, t.change.baseSerial, serial));
    }
    if (outcome.accepted.length > 0) this.#options.onFlush?.(outcome.accepted.length);
  }

  /** One statement writing `tasks` on top of `from.serial`; false when the stored serial is not that. */
  async #writeBatch(c: pg.Pool | pg.PoolClient, from: Known, tasks: readonly QueuedCommit[]): Promise<boolean> {
    if (tasks.length === 0) {
      this.#known = from;
      return true;
    }
    const batch = batchOf(
      tasks.map((t) => t.change),
      (item) => {
        if (!from.codec.encrypts && !this.#warnedClear) this.#noteSecrets(from.codec, hasSecretValues(item));
        return from.codec.sealResource(item);
      },
    );
    const to = tasks[tasks.length - 1].change.serial;
    const values = batchParams(this.stack, from.serial, to, batch);
    const r = await c.query(prepared(batchStatement(this.#tables), values));
    if (r.rowCount === 0) return false;
    this.#known = { serial: to, codec: from.codec };
    return true;
  }

  #ready(): Promise<void> {
    this.#schemaReady ??= (
      this.#options.pool ? ensureSchemaOnPool(this.#pool, this.#tables) : ensureSchema(this.#pool, this.#tables)
    ).catch((e) => {
      this.#schemaReady = undefined;
      throw e;
    });
    return this.#schemaReady;
  }

  #codec(header: EncryptionHeader | null): Promise<SecretCodec> {
    const k = header ? header.salt : '';
    let c = this.#codecs.get(k);
    if (!c) {
      c = SecretCodec.create(this.location, this.#passphrase, header ?? undefined);
      c.catch(() => this.#codecs.delete(k));
      this.#codecs.set(k, c);
    }
    return c;
  }

  async #read(): Promise<State> {
    await this.#ready();
    const rows = await readStackRows(this.#pool, this.#tables, this.stack);
    if (!rows) {
      this.#emptyLineage ??= emptyState().lineage;
      return emptyState(this.#emptyLineage);
    }
    const row = rows.stack;
    const codec = await this.#codec(row.encryption);
    // a clear stack read with a passphrase is sealed by the next commit's transaction: no shortcut until then
    if (row.encryption || this.#passphrase === undefined) this.#known = { serial: Number(row.serial), codec };
    const raw = openRows(rows, codec);
    if (migrateRaw(raw)) await this.#write(raw, raw.serial); // an older format is rewritten once, in place
    return freeze(raw, true);
  }

  /** Runs `fn` in a transaction holding the stack row (created at serial 0 if missing) FOR UPDATE. */
  async #withStack<T>(
    lineage: string | undefined,
    fn: (c: pg.PoolClient, row: StackRow, codec: SecretCodec) => Promise<T>,
  ): Promise<T> {
    await this.#ready();
    const t = this.#tables;
    const c = await this.#pool.connect();
    try {
      await c.query('BEGIN');
      const select = () =>
        c.query<{ serial: string; lineage: string; encryption: EncryptionHeader | null }>(
          `SELECT serial, lineage, encryption FROM ${t.stacks} WHERE stack = $1 FOR UPDATE`,
          [this.stack],
        );
      let s = await select();
      if (!s.rows[0]) {
        await c.query(
          `INSERT INTO ${t.stacks} (stack, lineage, serial, version) VALUES ($1, $2, 0, $3) ON CONFLICT (stack) DO NOTHING`,
          [this.stack, lineage ?? (this.#emptyLineage ??= emptyState().lineage), STATE_VERSION],
        );
        s = await select();
      }
      const row: StackRow = {
        serial: Number(s.rows[0].serial),
        lineage: s.rows[0].lineage,
        encryption: s.rows[0].encryption,
      };
      const codec = await this.#codec(row.encryption);
      if (this.#passphrase !== undefined && !row.encryption) {
        await c.query(`UPDATE ${t.stacks} SET encryption = $2 WHERE stack = $1`, [
          this.stack,
          JSON.stringify(codec.header),
        ]);
      }
      const out = await fn(c, row, codec);
      await c.query('COMMIT');
      return out;
    } catch (e) {
      await c.query('ROLLBACK').catch(() => {});
      throw e;
    } finally {
      c.release();
    }
  }

  async #write(state: State, baseSerial: number): Promise<void> {
    await this.#withStack(state.lineage, async (c, row, codec) => {
      if (row.serial !== baseSerial) throw new StateConflictError(this.location, baseSerial, row.serial);
      const seal = <T extends StoredItem>(i: T): T => {
        this.#noteSecrets(codec, hasSecretValues(i));
        return codec.sealResource(i);
      };
      await replaceRows(c, this.#tables, this.stack, state, {
        resources: mapValues(state.resources, seal),
        pending: mapValues(state.pending, seal),
        deposed: mapValues(state.deposed, seal),
        outputs: mapValues(state.outputs ?? {}, seal),
      });
      this.#known = { serial: state.serial, codec };
    });
  }

  #noteSecrets(codec: SecretCodec, any: boolean): void {
    if (any && !codec.encrypts && !this.#warnedClear) {
      this.#warnedClear = true;
      this.#warnings.push(CLEAR_WARNING(this.location));
    }
  }
}
