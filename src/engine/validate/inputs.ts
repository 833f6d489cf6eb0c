// One resource's inputs (or one lookup's arguments) against its schema and its provider's `check`,
// before anything is resolved: references stand as unknown values of any type, so only what is
// known is judged. Unknown keys are found by the schema walk (keys.ts) whatever the schema's mode.
import type { z } from 'zod';
import type { CheckIssue } from '../provider/define.js';
import { isRef } from '../decl/ref.js';
import { getPath, type PathSegment } from '../values/path.js';
import { containsUnknown, unknown } from '../values/unknown.js';
import { isSecret } from '../values/secret.js';
import { parseWithUnknowns } from './schema.js';
import { unknownKeyIssues } from './keys.js';
import { cutMessage } from './suggest.js';
import type { ValueIssue } from './json.js';

type InputRules = {
  readonly schema: z.ZodType;
  readonly check?: (inputs: never, config: never) => readonly CheckIssue[];
  readonly config: unknown;
};

/**
 * References replaced by the unknown marker (their values are known only later); secret() values
 * unwrapped. One walk: a subtree with neither is handed back as it is (no copy), so inputs without
 * either come back unchanged; a container holding one is copied as before.
 */
function refsAsUnknown(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (isRef(value)) return unknown;
  if (isSecret(value)) return refsAsUnknown(value.value);
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const first = refsAsUnknown(value[i]);
      // Holes stay holes, as value.map() keeps them.
      if (first !== value[i]) return value.map((v, j) => (j < i ? v : j === i ? first : refsAsUnknown(v)));
    }
    return value;
  }
  // Reserved keys ('__proto__') were taken out by standIn() before: plain keys only here.
  let changed = false;
  const keys = Object.keys(value);
  const vals: unknown[] = [];
  for (const k of keys) {
    const before = (value as Record<string, unknown>)[k];
    const after = refsAsUnknown(before);
    if (after !== before) changed = true;
    vals.push(after);
  }
  if (!changed) return value;
  const o: Record<string, unknown> = {};
  for (let i = 0; i < keys.length; i++) o[keys[i]!] = vals[i];
  return o;
}

const key = (p: readonly PathSegment[]) => JSON.stringify(p);

/** A copy of `value` with `leaf` at `path` (copying only along the path). */
function replaceAt(value: unknown, path: readonly PathSegment[], leaf: unknown): unknown {
  if (!path.length) return leaf;
  const [head, ...rest] = path;
  const copy = (Array.isArray(value) ? [...value] : { ...(value as object) }) as Record<string | number, unknown>;
  copy[head!] = replaceAt(copy[head!], rest, leaf);
  return copy;
}

/** A copy of `value` without the object key at `path`. */
function withoutKey(value: unknown, path: readonly PathSegment[]): unknown {
  if (!path.length || value === null || typeof value !== 'object') return value;
  const [head, ...rest] = path;
  if (!rest.length) {
    if (Array.isArray(value) || !(String(head) in value)) return value;
    const { [String(head)]: _gone, ...kept } = value as Record<string, unknown>;
    return kept;
  }
  const child = (value as Record<string | number, unknown>)[head!];
  return child === undefined ? value : replaceAt(value, [head!], withoutKey(child, rest));
}

/**
 * `value` as the schema and check judge it after the JSON walk's `issues`: a value that is not data
 * stands as an unknown (so the rest is still judged), a reserved key is left out.
 */
export function standIn(value: unknown, issues: readonly ValueIssue[]): unknown {
  let out = value;
  for (const v of issues) out = v.code === 'reserved_key' ? withoutKey(out, v.path) : replaceAt(out, v.path, unknown);
  return out;
}

/**
 * The unknown keys reported so far: the walk's are `out`'s first `walked` issues; their keys are
 * made into a set on first use (a schema that judges no key never needs it).
 */
type Seen = { readonly walked: number; keys?: Set<string> };

/** Adds the schema's `issues` to `out`; a strict schema's unknown keys one by one, unless already reported (`seen`). */
function report(issues: ReturnType<typeof parseWithUnknowns>['issues'], out: ValueIssue[], seen: Seen): void {
  for (const i of issues) {
    const raw = i as { keys?: unknown };
    if (i.code !== 'unrecognized_keys' || !Array.isArray(raw.keys)) {
      out.push({ path: [...i.path], code: i.code, message: cutMessage(i.message) });
      continue;
    }
    // A strict schema's own report: one issue per key, at the key's path, unless the walk has it.
    const keys = (seen.keys ??= new Set(out.slice(0, seen.walked).map((w) => key(w.path))));
    for (const k of raw.keys) {
      const path = [...i.path, String(k)];
      if (keys.has(key(path))) continue;
      keys.add(key(path));
      out.push({ path, code: 'unrecognized_keys', message: `'${String(k).slice(0, 60)}' is not expected here` });
    }
  }
}

/** Every schema, unknown-key and check issue of `value` (JSON data whose refs may stand anywhere). */
export function inputIssues(rules: InputRules, value: unknown, onParsed?: (data: unknown) => void): ValueIssue[] {
  const out: ValueIssue[] = unknownKeyIssues(rules.schema, value);
  // The walk's unknown keys, for a strict schema's report of the same keys.
  const seen: Seen = { walked: out.length };
  // Unknown keys are reported above; without them a strict schema still judges the rest.
  let probe = refsAsUnknown(value);
  for (const i of out) probe = withoutKey(probe, i.path);
  let parsed: ReturnType<typeof parseWithUnknowns>;
  try {
    parsed = parseWithUnknowns(rules.schema, probe);
  } catch (error) {
    if (!containsUnknown(probe))
      out.push({
        path: [],
        code: 'custom',
        message: cutMessage(`the schema could not read these inputs: ${(error as Error)?.message ?? String(error)}`),
      });
    return out;
  }
  // Parsed without an issue, with its references as unknowns: what planning parses again when every
  // reference is still unknown then (or there is none). Hand it over.
  if (onParsed && out.length === 0 && parsed.issues.length === 0) onParsed(parsed.data);
  report(parsed.issues, out, seen);
  // Some rules show only once others pass: zod runs an object's refine only when its fields parse,
  // the provider's check only on parsed data. So the invalid values stand as unknowns (as references
  // do; nothing is said about a path that holds one) and the schema judges again, a few rounds at most.
  let again = probe;
  for (let round = 0; parsed.issues.length && round < 4; round++) {
    if (parsed.issues.some((i) => !i.path.length)) return out;
    for (const i of parsed.issues) again = replaceAt(again, i.path, unknown);
    try {
      parsed = parseWithUnknowns(rules.schema, again);
    } catch {
      return out;
    }
    report(parsed.issues, out, seen);
  }
  if (parsed.issues.length || !rules.check) return out;
  try {
    for (const i of rules.check(parsed.data as never, rules.config as never)) {
      if (containsUnknown(getPath(parsed.data, i.path))) continue;
      out.push({ path: [...i.path], code: i.code ?? 'custom', message: cutMessage(i.message) });
    }
  } catch (error) {
    // A check reading a value known only later throws on the marker; it runs again when planning.
    if (!containsUnknown(parsed.data))
      out.push({
        path: [],
        code: 'custom',
        message: cutMessage(`the provider's check failed: ${(error as Error)?.message ?? String(error)}`),
      });
  }
  return out;
}
