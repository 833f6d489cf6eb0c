// One resource's inputs (or one lookup's arguments) against its schema and its provider's `check`,
// before anything is resolved: references stand as unknown values of any type, so only what is
// known is judged. Unknown keys are found by the schema walk (keys.ts) whatever the schema's mode.
import type { z } from 'zod';
import type { CheckIssue } from '../provider/define.js';
import { hasRefs, isRef } from '../decl/ref.js';
import { getPath, type PathSegment } from '../values/path.js';
import { containsUnknown, unknown } from '../values/unknown.js';
import { parseWithUnknowns } from './schema.js';
import { unknownKeyIssues } from './keys.js';
import { cutMessage } from './suggest.js';
import type { ValueIssue } from './json.js';

export type InputRules = {
  readonly schema: z.ZodType;
  readonly check?: (inputs: never, config: never) => readonly CheckIssue[];
  readonly config: unknown;
};

/** References replaced by the unknown marker (their values are known only later). */
export function refsAsUnknown(value: unknown): unknown {
  if (isRef(value)) return unknown;
  if (Array.isArray(value)) return value.map(refsAsUnknown);
  if (value && typeof value === 'object') {
    const o: Record<string, unknown> = {};
    for (const k of Object.keys(value)) o[k] = refsAsUnknown((value as Record<string, unknown>)[k]);
    return o;
  }
  return value;
}

const key = (p: readonly PathSegment[]) => JSON.stringify(p);

/** Every schema, unknown-key and check issue of `value` (JSON data whose refs may stand anywhere). */
export function inputIssues(rules: InputRules, value: unknown): ValueIssue[] {
  const out: ValueIssue[] = unknownKeyIssues(rules.schema, value);
  const seen = new Set(out.map((i) => key(i.path)));
  const probe = hasRefs(value) ? refsAsUnknown(value) : value;
  let parsed: ReturnType<typeof parseWithUnknowns>;
  try {
    parsed = parseWithUnknowns(rules.schema, probe);
  } catch (error) {
    if (!containsUnknown(probe)) out.push({ path: [], code: 'custom', message: cutMessage(`the schema could not read these inputs: ${(error as Error)?.message ?? String(error)}`) });
    return out;
  }
  for (const i of parsed.issues) {
    const raw = i as { keys?: unknown };
    if (i.code === 'unrecognized_keys' && Array.isArray(raw.keys)) {
      // A strict schema's own report: one issue per key, at the key's path, unless the walk has it.
      for (const k of raw.keys) {
        const path = [...i.path, String(k)];
        if (!seen.has(key(path))) { seen.add(key(path)); out.push({ path, code: 'unrecognized_keys', message: `'${String(k).slice(0, 60)}' is not expected here` }); }
      }
      continue;
    }
    out.push({ path: [...i.path], code: i.code, message: cutMessage(i.message) });
  }
  if (parsed.issues.length || !rules.check) return out;
  try {
    for (const i of rules.check(parsed.data as never, rules.config as never)) {
      if (containsUnknown(getPath(parsed.data, i.path))) continue;
      out.push({ path: [...i.path], code: i.code ?? 'custom', message: cutMessage(i.message) });
    }
  } catch (error) {
    // A check reading a value known only later throws on the marker; it runs again when planning.
    if (!containsUnknown(parsed.data)) out.push({ path: [], code: 'custom', message: cutMessage(`the provider's check failed: ${(error as Error)?.message ?? String(error)}`) });
  }
  return out;
}
