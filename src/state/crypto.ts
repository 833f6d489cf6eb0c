// Secrets at rest: the values at each resource's (and pending operation's) `secrets` paths are
// sealed with AES-256-GCM under a key derived by scrypt from the user's passphrase and a per-state
// salt, a fresh 12-byte nonce per value. A sealed value is the tagged object
// {"@converge":"encrypted","v":1,"n":…,"c":…,"t":…}. Without a passphrase values stay in clear.
// A stack output marked secret is sealed whole (its `value`).
import { parsePath } from './path.js';
import { createCipheriv, createDecipheriv, randomBytes, scrypt } from 'node:crypto';
import type { PendingOperation, ResourceState, StackOutput, State } from './model.js';
import { SecretsPassphraseError } from './errors.js';

/** A sealed value as stored. */
export type SealedValue = {
  readonly '@converge': 'encrypted';
  readonly v: 1;
  readonly n: string;
  readonly c: string;
  readonly t: string;
};

/** What a store keeps beside the state (file header, stack row) to derive and check the key. */
export type EncryptionHeader = { readonly kdf: 'scrypt'; readonly salt: string; readonly check: SealedValue };

/** The passphrase given to a store: the option, else CONVERGE_SECRETS_PASSPHRASE, else none. */
export function passphraseFrom(option: string | undefined): string | undefined {
  const p = option ?? process.env.CONVERGE_SECRETS_PASSPHRASE;
  return p === undefined || p === '' ? undefined : p;
}

const CHECK_TEXT = 'converge-secrets-check';
const SCRYPT = { N: 16384, r: 8, p: 1, maxmem: 64 * 1024 * 1024 } as const;

export function isSealed(value: unknown): value is SealedValue {
  return (
    typeof value === 'object' && value !== null && (value as { '@converge'?: unknown })['@converge'] === 'encrypted'
  );
}

function deriveKey(passphrase: string, salt: Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(passphrase, salt, 32, SCRYPT, (err, key) => (err ? reject(err) : resolve(key))),
  );
}

/**
 * Seals and opens secret values for one stored state. `where` names the state in errors.
 * Without a key (no passphrase) `seal` leaves values in clear and `open` refuses sealed ones.
 */
export class SecretCodec {
  readonly #key: Buffer | undefined;
  readonly #where: string;
  readonly header: EncryptionHeader | undefined;

  private constructor(where: string, key: Buffer | undefined, header: EncryptionHeader | undefined) {
    this.#where = where;
    this.#key = key;
    this.header = header;
  }

  /** A codec for a state whose stored header is `header` (undefined: none yet; one is made when a passphrase is given). */
  static async create(
    where: string,
    passphrase: string | undefined,
    header: EncryptionHeader | undefined,
  ): Promise<SecretCodec> {
    if (passphrase === undefined) return new SecretCodec(where, undefined, header);
    if (header) {
      const key = await deriveKey(passphrase, Buffer.from(header.salt, 'base64'));
      const codec = new SecretCodec(where, key, header);
      if (codec.#tryOpen(header.check) !== CHECK_TEXT) throw new SecretsPassphraseError(where, 'wrong');
      return codec;
    }
    const salt = randomBytes(16);
    const key = await deriveKey(passphrase, salt);
    const check = sealWith(key, CHECK_TEXT);
    return new SecretCodec(where, key, { kdf: 'scrypt', salt: salt.toString('base64'), check });
  }

  get encrypts(): boolean {
    return this.#key !== undefined;
  }

  sealValue(value: unknown): unknown {
    if (!this.#key || isSealed(value) || value === undefined) return value;
    return sealWith(this.#key, value);
  }

  openValue(value: unknown): unknown {
    if (!isSealed(value)) return value;
    if (!this.#key) throw new SecretsPassphraseError(this.#where, 'missing');
    const out = this.#tryOpen(value);
    if (out === undefined) throw new SecretsPassphraseError(this.#where, 'wrong');
    return out;
  }

  #tryOpen(value: SealedValue): unknown {
    try {
      const d = createDecipheriv('aes-256-gcm', this.#key!, Buffer.from(value.n, 'base64'));
      d.setAuthTag(Buffer.from(value.t, 'base64'));
      const text = Buffer.concat([d.update(Buffer.from(value.c, 'base64')), d.final()]).toString('utf8');
      return JSON.parse(text);
    } catch {
      return undefined;
    }
  }

  /** A copy of the resource (or secret output) with its secret paths sealed (the same object when nothing changes). */
  sealResource<T extends StoredItem>(item: T): T {
    return mapSecrets(item, (v) => this.sealValue(v));
  }

  openResource<T extends StoredItem>(item: T): T {
    return mapSecrets(item, (v) => this.openValue(v));
  }

  /** Opens every sealed value in a (mutable, freshly parsed) state in place. */
  openStateInPlace(state: {
    resources: Record<string, ResourceState>;
    pending: Record<string, PendingOperation>;
    deposed?: Record<string, ResourceState>;
    outputs?: Record<string, StackOutput>;
  }): void {
    for (const name of Object.keys(state.resources)) state.resources[name] = this.openResource(state.resources[name]);
    for (const id of Object.keys(state.pending)) state.pending[id] = this.openResource(state.pending[id]);
    for (const key of Object.keys(state.deposed ?? {})) state.deposed![key] = this.openResource(state.deposed![key]!);
    for (const key of Object.keys(state.outputs ?? {})) state.outputs![key] = this.openResource(state.outputs![key]!);
  }
}

function sealWith(key: Buffer, value: unknown): SealedValue {
  const nonce = randomBytes(12);
  const c = createCipheriv('aes-256-gcm', key, nonce);
  const body = Buffer.concat([c.update(JSON.stringify(value), 'utf8'), c.final()]);
  return {
    '@converge': 'encrypted',
    v: 1,
    n: nonce.toString('base64'),
    c: body.toString('base64'),
    t: c.getAuthTag().toString('base64'),
  };
}

/** What a store seals: a resource, a pending operation, or a stack output. */
export type StoredItem = ResourceState | PendingOperation | StackOutput;

/** A stack output record (it has `secret` and `value`, not a resource's `secrets` list). */
function isOutputRecord(item: StoredItem): item is StackOutput {
  return typeof (item as StackOutput).secret === 'boolean' && !('secrets' in item);
}

/** True when any resource or pending operation has a secret path holding a value. */
export function hasSecretValues(item: StoredItem): boolean {
  if (isOutputRecord(item)) return item.secret && item.value !== undefined && !isSealed(item.value);
  for (const path of item.secrets ?? []) {
    const v = getPath(item, secretPath(item, path));
    if (v !== undefined && !isSealed(v)) return true;
  }
  return false;
}

export function stateHasSecrets(state: State): boolean {
  for (const r of Object.values(state.resources)) if (hasSecretValues(r)) return true;
  for (const p of Object.values(state.pending)) if (hasSecretValues(p)) return true;
  for (const d of Object.values(state.deposed ?? {})) if (hasSecretValues(d)) return true;
  for (const o of Object.values(state.outputs ?? {})) if (hasSecretValues(o)) return true;
  return false;
}

/**
 * 'outputs.kubeconfig' → ['outputs','kubeconfig']; a pending operation's bare 'password' means
 * inputs.password. The engine's path grammar: 'a.b', 'rules[0].value', 'pools.*.size' ('*' is any
 * key or index) and quoted keys 'config["user.token"]' (a secret that followed a reference may land
 * in a list or under a key with a dot).
 */
function secretPath(item: StoredItem, path: string): string[] {
  const parts = splitPath(path);
  if (parts[0] === 'inputs' || parts[0] === 'outputs') return parts;
  return ['inputs', ...parts];
}

/** A secret path's segments as property keys ('rules[0].x' → ['rules', '0', 'x']). */
function splitPath(path: string): string[] {
  return parsePath(path).map(String);
}

/** The value at `parts`; with a '*' segment, any value the wildcard reaches that is set (else undefined). */
function getPath(obj: unknown, parts: readonly string[]): unknown {
  let cur: unknown = obj;
  for (let i = 0; i < parts.length; i++) {
    const p = parts[i]!;
    if (typeof cur !== 'object' || cur === null) return undefined;
    if (p === '*') {
      for (const v of Object.values(cur)) {
        const x = getPath(v, parts.slice(i + 1));
        if (x !== undefined && !isSealed(x)) return x;
      }
      return undefined;
    }
    cur = (cur as Record<string, unknown>)[p];
  }
  return cur;
}

/** Copies along the path only (structural sharing); the same object when the value is unchanged. '*' maps every key. */
function setPath<T>(obj: T, parts: readonly string[], fn: (v: unknown) => unknown): T {
  if (parts.length === 0) return fn(obj) as T;
  if (typeof obj !== 'object' || obj === null) return obj;
  const [head, ...rest] = parts;
  const rec = obj as Record<string, unknown>;
  const keys = head === '*' ? Object.keys(rec) : head! in rec ? [head!] : [];
  let out: unknown = obj;
  for (const k of keys) {
    const child = rec[k];
    const next = setPath(child, rest, fn);
    if (next === child) continue;
    const cur = out as Record<string, unknown>;
    out = Array.isArray(cur) ? Object.assign([...cur], { [k]: next }) : { ...cur, [k]: next };
  }
  return out as T;
}

function mapSecrets<T extends StoredItem>(item: T, fn: (v: unknown) => unknown): T {
  if (isOutputRecord(item)) {
    if (!item.secret) return item;
    const value = fn(item.value);
    return value === item.value ? item : ({ ...item, value } as T);
  }
  let out = item;
  for (const path of item.secrets ?? []) out = setPath(out, secretPath(item, path), fn);
  return out;
}
