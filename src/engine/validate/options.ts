// A declaration's options, on their own: known keys, types, durations a timer can hold, and
// ignoreChanges / replaceOnChanges paths that are well formed and name an input of the schema.
// Cross-resource rules (dependsOn and aliases naming other resources) are in validate.ts.
import type { z } from 'zod';
import { parseDuration } from '../values/duration.js';
import { formatMs } from '../errors.js';
import { parsePath } from '../values/path.js';
import { pathInSchema } from './keys.js';
import { objectView } from './zod-def.js';
import { closest, didYouMean, preview } from './suggest.js';
import { issueFacts, type IssueFacts } from '../issue.js';
import type { ValueIssue } from './json.js';

const OPTION_KEYS = [
  'dependsOn',
  'protect',
  'ignoreChanges',
  'replaceOnChanges',
  'createBeforeDestroy',
  'retainOnDelete',
  'aliases',
  'timeouts',
  'provider',
] as const;
const TIMEOUT_KEYS = ['create', 'update', 'delete'];
/** The longest delay a timer holds (2^31 - 1 ms, about 24.8 days); longer ones fire at once. */
const MAX_TIMER_MS = 2 ** 31 - 1;
const INPUT_PATH = /^(?:[^.[\]]+)(?:\.[^.[\]]+|\[(?:\d+|\*)\])*$/;

type OptionContext = { readonly name: string; readonly schema?: z.ZodType; readonly type?: string };

export function optionIssues(options: unknown, ctx: OptionContext): ValueIssue[] {
  const out: ValueIssue[] = [];
  // Most declarations have no options: answered before anything else is made.
  if (options === undefined) return out;
  const add = (path: (string | number)[], message: string, code = 'invalid_option', facts: IssueFacts = {}) =>
    out.push({ path, code, message, ...issueFacts(facts) });
  // null is refused, not read as "no options": converge refuses null for every option inside
  // (protect: null, dependsOn: null) and for inputs, so options says so the same way.
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    add([], `options must be an object like { protect: true }, or left out for none; not ${preview(options)}`);
    return out;
  }
  const o = options as Record<string, unknown>;
  for (const k of Object.keys(o)) {
    if (!(OPTION_KEYS as readonly string[]).includes(k))
      add(
        [k],
        `${preview(k)} is not an option.${didYouMean(k, OPTION_KEYS)} Allowed: ${OPTION_KEYS.join(', ')}.`,
        undefined,
        { suggestion: closest(k, OPTION_KEYS) },
      );
  }
  for (const k of ['protect', 'createBeforeDestroy', 'retainOnDelete']) {
    if (o[k] !== undefined && typeof o[k] !== 'boolean') add([k], `${k} must be true or false, not ${preview(o[k])}`);
  }
  for (const k of ['dependsOn', 'ignoreChanges', 'replaceOnChanges', 'aliases']) {
    const v = o[k];
    if (v === undefined) continue;
    if (!Array.isArray(v)) {
      add([k], `${k} must be a list of strings`);
      continue;
    }
    v.forEach((x, i) => {
      if (typeof x !== 'string' || !x) add([k, i], `${k} entries must be non-empty strings, not ${preview(x)}`);
    });
  }
  if (o.provider !== undefined && (typeof o.provider !== 'string' || !o.provider))
    add(
      ['provider'],
      `provider must be the name of a provider instance (as given to its factory: provb({ name: 'ops' })), not ${preview(o.provider)}`,
    );
  (Array.isArray(o.dependsOn) ? o.dependsOn : []).forEach((n, i) => {
    if (n === ctx.name) add(['dependsOn', i], 'a resource cannot depend on itself');
  });
  for (const k of ['ignoreChanges', 'replaceOnChanges']) {
    const list = Array.isArray(o[k]) ? (o[k] as unknown[]) : [];
    list.forEach((p, i) => {
      if (typeof p !== 'string' || !p) return;
      if (!INPUT_PATH.test(p))
        return add(
          [k, i],
          `${preview(p)} is not an input path like 'tags', 'config.x' or 'files[0].mode' ('*' matches any key or index)`,
        );
      if (!ctx.schema || pathInSchema(ctx.schema, parsePath(p)) !== 'no') return;
      const head = String(parsePath(p)[0]);
      const keys = Object.keys(objectView(ctx.schema)?.shape ?? {});
      add(
        [k, i],
        `${preview(p)} names no input of ${ctx.type ?? 'this resource'}.${keys.includes(head) ? '' : didYouMean(head, keys)}`,
        undefined,
        { suggestion: keys.includes(head) ? undefined : closest(head, keys) },
      );
    });
  }
  if (o.timeouts !== undefined) {
    if (!o.timeouts || typeof o.timeouts !== 'object' || Array.isArray(o.timeouts))
      add(['timeouts'], "timeouts must be an object like { create: '10m' }");
    else {
      for (const [k, v] of Object.entries(o.timeouts as Record<string, unknown>)) {
        if (!TIMEOUT_KEYS.includes(k)) {
          add(
            ['timeouts', k],
            `${preview(k)} is not a timeout.${didYouMean(k, TIMEOUT_KEYS)} Allowed: create, update, delete.`,
            undefined,
            { suggestion: closest(k, TIMEOUT_KEYS) },
          );
          continue;
        }
        if (v === undefined) continue;
        const ms = typeof v === 'string' ? parseDuration(v) : undefined;
        if (ms === undefined) add(['timeouts', k], `${preview(v)} is not a duration like '30s', '5m' or '1h30m'`);
        else if (ms < 1) add(['timeouts', k], `${preview(v)} is no time at all; give a duration above zero`);
        else if (ms > MAX_TIMER_MS)
          add(
            ['timeouts', k],
            `${preview(v)} is longer than a timer can hold (${formatMs(MAX_TIMER_MS - (MAX_TIMER_MS % 3_600_000))} at most); give a shorter duration`,
          );
      }
    }
  }
  return out;
}
