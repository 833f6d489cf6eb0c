// node:crypto with scrypt memoized on its arguments, for test files that load the same sealed plan
// or state many times: each load derives its keys by scrypt at the production cost (tens of ms of
// CPU each) from the passphrase and the file's salt. A key is derived once, by the real scrypt with
// the real parameters, so the bytes are those it gives; nothing else of node:crypto changes. Use:
//   vi.mock('node:crypto', async (original) =>
//     (await import('../helpers/memo-scrypt.js')).memoizeScrypt(await original()));
import type * as NodeCrypto from 'node:crypto';

type Done = (err: Error | null, key: Buffer) => void;

export function memoizeScrypt(original: unknown): typeof NodeCrypto {
  const crypto = original as typeof NodeCrypto;
  const keys = new Map<string, Buffer>();
  const bytes = (v: unknown) => Buffer.from(v as string | Uint8Array).toString('base64');
  function scrypt(password: unknown, salt: unknown, keylen: number, options: unknown, done?: Done): void {
    const callback = (done ?? options) as Done;
    const opts = (done ? options : {}) as NodeCrypto.ScryptOptions;
    const id = JSON.stringify([bytes(password), bytes(salt), keylen, opts]);
    const known = keys.get(id);
    if (known) return void process.nextTick(callback, null, Buffer.from(known));
    crypto.scrypt(password as string, salt as string, keylen, opts, (err, key) => {
      if (!err) keys.set(id, Buffer.from(key));
      callback(err, key);
    });
  }
  return { ...crypto, scrypt: scrypt as typeof NodeCrypto.scrypt };
}
