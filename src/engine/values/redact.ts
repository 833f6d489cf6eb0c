// Replaces secret values before they leave the engine, and scrubs known secret strings out of free
// text (vendor error bodies, messages). Every value that reaches render, JSON, an event or an error
// passes through here first.
import { sensitive } from './secret.js';
import { mapPath, parsePath } from './path.js';

/** Returns `value` with every path in `secretPaths` replaced by the sensitive marker. */
export function redactPaths(value: unknown, secretPaths: readonly string[]): unknown {
  let out = value;
  // An index loop: this runs for every value of every step, mostly over no path, where an
  // unoptimized for-of allocates an iterator and a result even for an empty list.
  for (let i = 0; i < secretPaths.length; i++) out = mapPath(out, parsePath(secretPaths[i]!), toSensitive);
  return out;
}

/** A secret leaf as shown: the sensitive marker (an absent or null value stays as it is). */
const toSensitive = (v: unknown): unknown => (v === undefined || v === null ? v : sensitive);

/** Collects every non-trivial string leaf of `value` (the secret values to scrub from text). */
export function secretStrings(value: unknown, into: Set<string> = new Set()): Set<string> {
  if (typeof value === 'string') {
    if (value.length >= 4) into.add(value);
  } else if (typeof value === 'number') {
    if (String(value).length >= 4) into.add(String(value));
  } else if (Array.isArray(value)) value.forEach((v) => secretStrings(v, into));
  else if (value && typeof value === 'object') Object.values(value).forEach((v) => secretStrings(v, into));
  return into;
}

/**
 * Replaces each occurrence of each secret in `text` with '(sensitive)': as is, JSON-escaped (a
 * vendor body quoting a multi-line key) and URL-encoded. Longer secrets go first, so a secret that
 * holds another is replaced whole.
 */
export function redactText(text: string, secrets: Iterable<string>): string {
  let out = text;
  const forms = new Set<string>();
  for (const s of secrets) {
    if (!s) continue;
    forms.add(s);
    forms.add(JSON.stringify(s).slice(1, -1));
    forms.add(encodeURIComponent(s));
  }
  for (const f of [...forms].sort((a, b) => b.length - a.length))
    if (f && out.includes(f)) out = out.split(f).join('(sensitive)');
  return out;
}

/** A copy of `value` (plain data) with every secret string scrubbed from every string in it. */
export function redactStrings(value: unknown, secrets: Iterable<string>): unknown {
  const list = [...secrets];
  if (!list.length) return value;
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return redactText(v, list);
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype) {
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v)) out[k] = walk(x);
      return out;
    }
    return v;
  };
  return walk(value);
}

const SECRET_KEY =
  /(pass(word)?|secret|token|api[_-]?key|private[_-]?key|kubeconfig|credential|authorization|cert(ificate)?_?key)/i;

/** Redacts values under keys that look secret in a vendor response body before it enters an error. */
export function redactBody(body: unknown): unknown {
  if (Array.isArray(body)) return body.map(redactBody);
  if (body && typeof body === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(body))
      out[k] = SECRET_KEY.test(k) && v != null && v !== '' ? '(sensitive)' : redactBody(v);
    return out;
  }
  return body;
}
