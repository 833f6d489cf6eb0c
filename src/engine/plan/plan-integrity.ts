// A saved plan's integrity: one digest over everything in the file but the digest itself (the
// public plan a reviewer reads, the providers and their settings, the encryption header and the
// work list apply runs, sealed or not), checked at load before anything of the file is used.
//
//   { "alg": "sha256", "digest": hex }                                     no key: catches edits made
//                                                                          without recomputing it
//   { "alg": "hmac-sha256", "key": "passphrase", "salt": b64, "check": hex, "digest": hex }  keyed:
//   { "alg": "hmac-sha256", "key": "signing-key", "salt": b64, "check": hex, "digest": hex } holds
//                                                                          against a deliberate editor
//
// The passphrase's MAC key is scrypt(passphrase, salt) expanded by HKDF under its own label and
// salt, so it is never the key that encrypts the work list. A signing key is expanded by HKDF.
// `check` is the MAC of a fixed text: it tells a key other than the plan's from an edited file.
import { createHash, createHmac, hkdfSync, randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

/** What a plan file's `integrity` member holds. */
export type Integrity =
  | { readonly alg: 'sha256'; readonly digest: string }
  | {
      readonly alg: 'hmac-sha256';
      readonly key: IntegrityKeyKind;
      readonly salt: string;
      readonly check: string;
      readonly digest: string;
    };

/** Which secret keyed a plan's MAC. */
export type IntegrityKeyKind = 'passphrase' | 'signing-key';

/** The secret a MAC is made or checked with. */
export type IntegrityKey = { readonly kind: IntegrityKeyKind; readonly secret: string };

/** The shortest plan signing key accepted (a random key of 32 bytes, base64, is 44 characters). */
export const MIN_SIGNING_KEY_LENGTH = 16;

const CHECK_TEXT = 'converge plan file key check v1';
const SCRYPT = { N: 16384, r: 8, p: 1, maxmem: 64 * 1024 * 1024 } as const;
const LABEL: Record<IntegrityKeyKind, string> = {
  passphrase: 'converge plan file MAC v1 (passphrase)',
  'signing-key': 'converge plan file MAC v1 (signing key)',
};

/** JSON with keys sorted at every level and undefined members left out: equal values, equal text. */
export function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v && typeof v === 'object')
    return `{${Object.keys(v)
      .filter((k) => (v as Record<string, unknown>)[k] !== undefined)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  return JSON.stringify(v) ?? 'null';
}

/** The file's content as digested: every member but `integrity`, canonical. */
function content(file: Readonly<Record<string, unknown>>): string {
  const { integrity: _i, ...rest } = file;
  return canonical(rest);
}

async function macKey(key: IntegrityKey, salt: Buffer): Promise<Buffer> {
  const ikm =
    key.kind === 'passphrase'
      ? await new Promise<Buffer>((resolve, reject) =>
          scrypt(key.secret, salt, 32, SCRYPT, (err, k) => (err ? reject(err) : resolve(k))),
        )
      : Buffer.from(key.secret, 'utf8');
  return Buffer.from(hkdfSync('sha256', ikm, salt, LABEL[key.kind], 32));
}

/** The integrity member for a file's content: a MAC under `key` when one is given, else a plain digest. */
export async function sealIntegrity(
  file: Readonly<Record<string, unknown>>,
  key: IntegrityKey | undefined,
): Promise<Integrity> {
  const text = content(file);
  if (!key) return { alg: 'sha256', digest: createHash('sha256').update(text).digest('hex') };
  const salt = randomBytes(16);
  const mac = await macKey(key, salt);
  const digest = createHmac('sha256', mac).update(text).digest('hex');
  const check = createHmac('sha256', mac).update(CHECK_TEXT).digest('hex');
  return { alg: 'hmac-sha256', key: key.kind, salt: salt.toString('base64'), check, digest };
}

/** The integrity member when it is well formed, else undefined. */
export function readIntegrity(value: unknown): Integrity | undefined {
  if (!value || typeof value !== 'object') return undefined;
  const v = value as Record<string, unknown>;
  if (typeof v.digest !== 'string' || !/^[0-9a-f]{64}$/.test(v.digest)) return undefined;
  if (v.alg === 'sha256') return { alg: 'sha256', digest: v.digest };
  if (
    v.alg === 'hmac-sha256' &&
    (v.key === 'passphrase' || v.key === 'signing-key') &&
    typeof v.salt === 'string' &&
    Buffer.from(v.salt, 'base64').length >= 16 &&
    Buffer.from(v.salt, 'base64').toString('base64') === v.salt &&
    typeof v.check === 'string' &&
    /^[0-9a-f]{64}$/.test(v.check)
  )
    return { alg: 'hmac-sha256', key: v.key, salt: v.salt, check: v.check, digest: v.digest };
  return undefined;
}

/**
 * Whether the file's content matches its integrity member (`key` is the secret a MAC needs), and
 * for a MAC whether `key` is the one it was made with (so a mismatch under the right key is an edit).
 */
export async function checkIntegrity(
  file: Readonly<Record<string, unknown>>,
  integrity: Integrity,
  key: IntegrityKey | undefined,
): Promise<{ readonly holds: boolean; readonly rightKey: boolean }> {
  const text = content(file);
  if (integrity.alg === 'sha256')
    return { holds: same(integrity.digest, createHash('sha256').update(text).digest()), rightKey: true };
  if (!key || key.kind !== integrity.key) return { holds: false, rightKey: false };
  const salt = Buffer.from(integrity.salt, 'base64');
  const mac = await macKey(key, salt);
  const rightKey = same(integrity.check, createHmac('sha256', mac).update(CHECK_TEXT).digest());
  // The check is part of the member: a MAC that holds beside an edited check is an edit too.
  return { holds: rightKey && same(integrity.digest, createHmac('sha256', mac).update(text).digest()), rightKey };
}

function same(hex: string, expected: Buffer): boolean {
  const given = Buffer.from(hex, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}
