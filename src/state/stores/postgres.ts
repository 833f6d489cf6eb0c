// PostgresStateStore: state shared by a team or a CI fleet. A stack row holds lineage, serial and
// the encryption header; one row per resource and per pending operation; each commit is its own
// transaction that checks and bumps the stack's serial. The lock is pg_try_advisory_lock on a key
// derived from the schema and stack name, held on a dedicated connection; a row says who holds it.
import pg from 'pg';
import { createHash } from 'node:crypto';
import { freeze } from 'immer';
import { STATE_VERSION, type DeposedObject, type PendingOperation, type ResourceState, type State } from '../model.js';
import { setOwn } from '../keys.js';
import { migrateRaw } from '../migrate.js';
import type { Patch, StateChange } from '../patch.js';
import { emptyState } from '../ops.js';
import type { Lock, LockInfo, LockRequest, StateStore } from '../store.js';
import { lockInfo, waitForLock } from '../lock.js';
import { SecretCodec, hasSecretValues, passphraseFrom, type EncryptionHeader } from '../crypto.js';
import { StateConflictError, StateLockedError } from '../errors.js';
import { tablesOf, ensureSchema, type Tables } from './postgres-schema.js';

export type PostgresStateStoreOptions = {
  readonly connectionString: string;
  /** The stack's name; several stacks share one database. */
  readonly stack: string;
  /** Encrypts secret values at rest; default: env CONVERGE_SECRETS_PASSPHRASE, else none (clear, with a warning). */
  readonly secretsPassphrase?: string;
  /** Schema holding converge's tables; default 'public'. */
  readonly schema?: string;
  /** How long `lock()` waits for a held lock when the request gives no timeoutMs; default 0. */
  readonly lockTimeoutMs?: number;
};

type StackRow = { serial: number; lineage: string; encryption: EncryptionHeader | null };

const CLEAR_WARNING = (where: string) =>
  `Secret values are stored in clear in ${where}. Pass secretsPassphrase or set CONVERGE_SECRETS_PASSPHRASE to encrypt them.`;

export class PostgresStateStore implements StateStore {
  readonly location: string;
  readonly stack: string;
  readonly #options: PostgresStateStoreOptions;
  readonly #passphrase: string | undefined;
  readonly #tables: Tables;
  readonly #pool: pg.Pool;
  readonly #lockClients = new Set<pg.Client>();
  readonly #codecs = new Map<string, Promise<SecretCodec>>();
  #schemaReady: Promise<void> | undefined;
  #chain: Promise<unknown> = Promise.resolve();
  #emptyLineage: string | undefined;
  #warnings: string[] = [];
  #warnedClear = false;

  constructor(options: PostgresStateStoreOptions) {
    if (typeof options?.connectionString !== 'string' || options.connectionString === '') {
      throw new TypeError('Expected `connectionString` to be a non-empty string');
    }
    if (typeof options.stack !== 'string' || options.stack === '') throw new TypeError('Expected `stack` to be a non-empty string');
    this.#options = options;
    this.stack = options.stack;
    this.#tables = tablesOf(options.schema ?? 'public');
    this.location = `postgres:${options.schema ? `${options.schema}.` : ''}${options.stack}`;
    this.#passphrase = passphraseFrom(options.secretsPassphrase);
    this.#pool = new pg.Pool({ connectionString: options.connectionString, max: 4, application_name: 'converge' });
    this.#pool.on('error', () => {}); // an idle connection dropped by the server; the next query reconnects
  }

  read(): Promise<State> {
    return this.#inOrder(() => this.#read());
  }

  commit(change: StateChange): Promise<void> {
    return this.#inOrder(() => this.#commit(change));
  }

  write(state: State, baseSerial: number): Promise<void> {
    return this.#inOrder(() => this.#write(state, baseSerial));
  }

  /** Nothing to fold: every commit already is a row change. Waits for queued commits. */
  compact(): Promise<void> {
    return this.#inOrder(async () => {});
  }

  async lock(request: LockRequest): Promise<Lock> {
    await this.#ready();
    const info = lockInfo(request.operation);
    const key = advisoryKey(this.#tables.schema, this.stack);
    const client = new pg.Client({
      connectionString: this.#options.connectionString,
      application_name: `converge:${info.operation}:${info.pid}@${info.host}`.slice(0, 63),
    });
    client.on('error', () => {});
    await client.connect();
    let holder: LockInfo | undefined;
    try {
      const got = await waitForLock({ ...request, timeoutMs: request.timeoutMs ?? this.#options.lockTimeoutMs }, async () => {
        const r = await client.query<{ ok: boolean }>('SELECT pg_try_advisory_lock($1::bigint) AS ok', [key]);
        if (r.rows[0].ok) return true;
        holder = await this.#holder(client, key);
        return undefined;
      }, 20);
      if (!got) throw new StateLockedError(holder ?? { id: 'unknown', pid: 0, host: 'unknown', operation: 'unknown', since: 'unknown' }, this.location);
      await client.query(
        `INSERT INTO ${this.#tables.locks} (stack, info) VALUES ($1, $2) ON CONFLICT (stack) DO UPDATE SET info = excluded.info`,
        [this.stack, JSON.stringify(info)],
      );
    } catch (e) {
      await client.end().catch(() => {});
      throw e;
    }
    this.#lockClients.add(client);
    let released = false;
    return {
      info,
      warnings: [],
      release: async () => {
        if (released) return;
        released = true;
        this.#lockClients.delete(client);
        try {
          await client.query(`DELETE FROM ${this.#tables.locks} WHERE stack = $1 AND info->>'id' = $2`, [this.stack, info.id]);
          await client.query('SELECT pg_advisory_unlock($1::bigint)', [key]);
        } finally {
          await client.end().catch(() => {});
        }
      },
    };
  }

  secretsWarning(): string | undefined {
    return this.#passphrase === undefined ? CLEAR_WARNING(this.location) : undefined;
  }

  takeWarnings(): readonly string[] {
    const w = this.#warnings;
    this.#warnings = [];
    return w;
  }

  async close(): Promise<void> {
    await this.#chain.catch(() => {});
    for (const c of this.#lockClients) await c.end().catch(() => {});
    this.#lockClients.clear();
    await this.#pool.end();
  }

  /** Runs store operations one after another in call order (commits are issued without awaiting). */
  #inOrder<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.#chain.then(fn, fn);
    this.#chain = run.catch(() => {});
    return run;
  }

  #ready(): Promise<void> {
    this.#schemaReady ??= ensureSchema(this.#pool, this.#tables).catch((e) => {
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

  async #holder(client: pg.Client, key: string): Promise<LockInfo | undefined> {
    const row = await client.query<{ info: LockInfo }>(`SELECT info FROM ${this.#tables.locks} WHERE stack = $1`, [this.stack]);
    if (row.rows[0]) return row.rows[0].info;
    const k = BigInt.asUintN(64, BigInt(key));
    const act = await client.query<{ application_name: string; pid: number; backend_start: Date }>(
      `SELECT a.application_name, a.pid, a.backend_start FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
        WHERE l.locktype = 'advisory' AND l.granted AND l.classid = $1 AND l.objid = $2 AND l.objsubid = 1`,
      [String(k >> 32n), String(k & 0xffffffffn)],
    );
    const a = act.rows[0];
    if (!a) return undefined;
    const m = /^converge:([^:]*):(\d+)@(.*)$/.exec(a.application_name ?? '');
    return {
      id: `backend-${a.pid}`, pid: m ? Number(m[2]) : 0, host: m ? m[3] : 'unknown',
      operation: m ? m[1] : 'unknown', since: a.backend_start.toISOString(),
    };
  }

  async #read(): Promise<State> {
    await this.#ready();
    const c = await this.#pool.connect();
    try {
      await c.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
      const t = this.#tables;
      const s = await c.query<{ lineage: string; serial: string; version: number; encryption: EncryptionHeader | null }>(
        `SELECT lineage, serial, version, encryption FROM ${t.stacks} WHERE stack = $1`, [this.stack]);
      if (!s.rows[0]) {
        await c.query('COMMIT');
        this.#emptyLineage ??= emptyState().lineage;
        return emptyState(this.#emptyLineage);
      }
      const res = await c.query<{ name: string; data: ResourceState }>(`SELECT name, data FROM ${t.resources} WHERE stack = $1`, [this.stack]);
      const pen = await c.query<{ id: string; data: PendingOperation }>(`SELECT id, data FROM ${t.pending} WHERE stack = $1`, [this.stack]);
      const dep = await c.query<{ id: string; data: DeposedObject }>(`SELECT id, data FROM ${t.deposed} WHERE stack = $1`, [this.stack]);
      await c.query('COMMIT');
      const codec = await this.#codec(s.rows[0].encryption);
      const resources: Record<string, ResourceState> = {};
      for (const r of res.rows) setOwn(resources, r.name, codec.openResource(r.data));
      const pending: Record<string, PendingOperation> = {};
      for (const p of pen.rows) setOwn(pending, p.id, codec.openResource(p.data));
      const deposed: Record<string, DeposedObject> = {};
      for (const d of dep.rows) setOwn(deposed, d.id, codec.openResource(d.data));
      const row = s.rows[0];
      const raw = { version: row.version, lineage: row.lineage, serial: Number(row.serial), resources, pending, deposed };
      if (migrateRaw(raw)) await this.#write(raw, raw.serial); // an older format is rewritten once, in place
      return freeze(raw, true);
    } catch (e) {
      await c.query('ROLLBACK').catch(() => {});
      throw e;
    } finally {
      c.release();
    }
  }

  /** Runs `fn` in a transaction holding the stack row (created at serial 0 if missing) FOR UPDATE. */
  async #withStack<T>(lineage: string | undefined, fn: (c: pg.PoolClient, row: StackRow, codec: SecretCodec) => Promise<T>): Promise<T> {
    await this.#ready();
    const t = this.#tables;
    const c = await this.#pool.connect();
    try {
      await c.query('BEGIN');
      const select = () => c.query<{ serial: string; lineage: string; encryption: EncryptionHeader | null }>(
        `SELECT serial, lineage, encryption FROM ${t.stacks} WHERE stack = $1 FOR UPDATE`, [this.stack]);
      let s = await select();
      if (!s.rows[0]) {
        await c.query(`INSERT INTO ${t.stacks} (stack, lineage, serial, version) VALUES ($1, $2, 0, $3) ON CONFLICT (stack) DO NOTHING`,
          [this.stack, lineage ?? (this.#emptyLineage ??= emptyState().lineage), STATE_VERSION]);
        s = await select();
      }
      const row: StackRow = { serial: Number(s.rows[0].serial), lineage: s.rows[0].lineage, encryption: s.rows[0].encryption };
      const codec = await this.#codec(row.encryption);
      if (this.#passphrase !== undefined && !row.encryption) {
        await c.query(`UPDATE ${t.stacks} SET encryption = $2 WHERE stack = $1`, [this.stack, JSON.stringify(codec.header)]);
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

  async #commit(change: StateChange): Promise<void> {
    await this.#withStack(undefined, async (c, row, codec) => {
      if (row.serial !== change.baseSerial) throw new StateConflictError(this.location, change.baseSerial, row.serial);
      const t = this.#tables;
      for (const p of change.patches) await this.#applyPatch(c, p, codec);
      await c.query(`UPDATE ${t.stacks} SET serial = $2, updated_at = now() WHERE stack = $1`, [this.stack, change.serial]);
    });
  }

  async #applyPatch(c: pg.PoolClient, p: Patch, codec: SecretCodec): Promise<void> {
    const t = this.#tables;
    const [head, key] = p.path;
    if (p.path.length === 1 && head === 'serial') return;
    if (p.path.length === 1 && (head === 'lineage' || head === 'version') && p.op !== 'remove') {
      await c.query(`UPDATE ${t.stacks} SET ${head} = $2 WHERE stack = $1`, [this.stack, p.value]);
      return;
    }
    if (p.path.length !== 2 || (head !== 'resources' && head !== 'pending' && head !== 'deposed')) {
      throw new TypeError(`Expected resource-granular patches (['resources', name], ['pending', id], ['deposed', key], ['serial']), got path [${p.path.join(', ')}]`);
    }
    const table = t[head];
    const col = head === 'resources' ? 'name' : 'id';
    if (p.op === 'remove') {
      await c.query(`DELETE FROM ${table} WHERE stack = $1 AND ${col} = $2`, [this.stack, String(key)]);
      return;
    }
    const item = p.value as ResourceState | PendingOperation;
    this.#noteSecrets(codec, hasSecretValues(item));
    await c.query(
      `INSERT INTO ${table} (stack, ${col}, data) VALUES ($1, $2, $3) ON CONFLICT (stack, ${col}) DO UPDATE SET data = excluded.data`,
      [this.stack, String(key), JSON.stringify(codec.sealResource(item))],
    );
  }

  async #write(state: State, baseSerial: number): Promise<void> {
    await this.#withStack(state.lineage, async (c, row, codec) => {
      if (row.serial !== baseSerial) throw new StateConflictError(this.location, baseSerial, row.serial);
      const t = this.#tables;
      const seal = <T extends ResourceState | PendingOperation>(i: T): T => {
        this.#noteSecrets(codec, hasSecretValues(i));
        return codec.sealResource(i);
      };
      const sealed = { resources: mapValues(state.resources, seal), pending: mapValues(state.pending, seal), deposed: mapValues(state.deposed, seal) };
      await c.query(`DELETE FROM ${t.resources} WHERE stack = $1`, [this.stack]);
      await c.query(`DELETE FROM ${t.pending} WHERE stack = $1`, [this.stack]);
      await c.query(`DELETE FROM ${t.deposed} WHERE stack = $1`, [this.stack]);
      await c.query(`INSERT INTO ${t.deposed} (stack, id, data) SELECT $1, key, value FROM jsonb_each($2::jsonb)`, [this.stack, JSON.stringify(sealed.deposed)]);
      await c.query(`INSERT INTO ${t.resources} (stack, name, data) SELECT $1, key, value FROM jsonb_each($2::jsonb)`, [this.stack, JSON.stringify(sealed.resources)]);
      await c.query(`INSERT INTO ${t.pending} (stack, id, data) SELECT $1, key, value FROM jsonb_each($2::jsonb)`, [this.stack, JSON.stringify(sealed.pending)]);
      await c.query(`UPDATE ${t.stacks} SET serial = $2, lineage = $3, version = $4, updated_at = now() WHERE stack = $1`,
        [this.stack, state.serial, state.lineage, state.version]);
    });
  }

  #noteSecrets(codec: SecretCodec, any: boolean): void {
    if (any && !codec.encrypts && !this.#warnedClear) {
      this.#warnedClear = true;
      this.#warnings.push(CLEAR_WARNING(this.location));
    }
  }
}

/** A signed 64-bit advisory lock key (as a decimal string) derived from schema and stack name. */
export function advisoryKey(schema: string, stack: string): string {
  const h = createHash('sha256').update(`converge\0${schema}\0${stack}`).digest();
  return BigInt.asIntN(64, h.readBigUInt64BE(0)).toString();
}

function mapValues<T, U>(o: Readonly<Record<string, T>>, fn: (v: T) => U): Record<string, U> {
  const out: Record<string, U> = {};
  for (const k of Object.keys(o)) out[k] = fn(o[k]);
  return out;
}
