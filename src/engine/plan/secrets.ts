// Secrets in a plan: the paths a secret() or a secret reference adds (a definition's own are
// provider/secret-paths.ts), and what a plan shows of them: changes with markers for secret
// values, messages with the secret strings taken out.
import type { ResourceState } from '../../state/model.js';
import type { Issue } from '../issue.js';
import type { Change } from '../diff/diff.js';
import type { StepChange } from './step.js';
import type { Choice } from './choose.js';
import { formatPath, formatPathExact, mapPath, parsePath, pathCovers, type PathSegment } from '../values/path.js';
import { isUnknown } from '../values/unknown.js';
import { redactPaths, redactText, secretStrings } from '../values/redact.js';
import { isSensitive, sensitive } from '../values/secret.js';
import { perFrozenList } from '../values/frozen.js';

/** The paths under `prefix` ('inputs.'), with the prefix taken off. */
export function strip(prefix: string, paths: readonly string[]): string[] {
  const out: string[] = [];
  for (const p of paths) if (p.startsWith(prefix)) out.push(p.slice(prefix.length));
  return out;
}

/** The secret input paths among `paths` ('inputs.x' → 'x'), as strip('inputs.', paths); made once for a frozen list. */
export const secretInputPaths = perFrozenList((paths) => Object.freeze(strip('inputs.', paths)));

/** `paths` parsed; made once for a frozen list. */
const patterns = perFrozenList((paths): readonly PathSegment[][] => paths.map(parsePath));

/** The secret input paths among `paths`, parsed (for drift and refresh to redact their changes). */
export function secretInputPatterns(paths: readonly string[]): readonly PathSegment[][] {
  return patterns(secretInputPaths(paths));
}

/**
 * A resource whose values stay as they are but whose secret paths grow (a value newly wrapped in
 * secret(), a reference newly pointing at a secret) is recorded again, so the state seals it.
 */
export function withNewSecrets(choice: Choice, prior: ResourceState | undefined, secrets: readonly string[]): Choice {
  if (!prior || choice.action !== 'noop' || secrets.every((p) => prior.secrets.includes(p))) return choice;
  return {
    ...choice,
    action: 'update',
    cause: 'options_changed',
    stateChanges: [{ path: ['secrets'], before: [...prior.secrets], after: [...secrets] }],
  };
}

export function scrubMessages(
  raw: Record<string, unknown>,
  secrets: readonly string[],
  issues: Issue[],
  fromIssue: number,
  warnings: string[],
  fromWarning: number,
): void {
  const values = new Set<string>();
  for (const p of strip('inputs.', secrets))
    mapPath(raw, parsePath(p), (v) => {
      secretStrings(v, values);
      return v;
    });
  if (!values.size) return;
  for (let i = fromIssue; i < issues.length; i++)
    issues[i] = { ...issues[i]!, message: redactText(issues[i]!.message, values) };
  for (let i = fromWarning; i < warnings.length; i++) warnings[i] = redactText(warnings[i]!, values);
}

export function redactChanges(
  changes: readonly Change[],
  secretInputs: readonly string[],
  forced: ReadonlySet<string>,
  forcing: ReturnType<typeof parsePath>[],
): StepChange[] {
  const secretPatterns = patterns(secretInputs);
  const out: StepChange[] = [];
  for (let i = 0; i < changes.length; i++) out.push(redactChange(changes[i]!, secretPatterns, forced, forcing));
  return out;
}

// A function of its own, with index loops: it runs for every change of every step, from a plan's
// first, before the JIT has optimized it (an unoptimized for-of allocates an iterator and a result
// per element).
function redactChange(
  c: Change,
  secretPatterns: readonly ReturnType<typeof parsePath>[],
  forced: ReadonlySet<string>,
  forcing: readonly ReturnType<typeof parsePath>[],
): StepChange {
  let secret = false;
  // Secret paths below this change's path (the change holds a whole object or list).
  let below: string[] = NONE;
  for (let i = 0; i < secretPatterns.length; i++) {
    const p = secretPatterns[i]!;
    if (pathCovers(p, c.path)) secret = true;
    else if (p.length > c.path.length && pathCovers(c.path, p))
      (below === NONE ? (below = []) : below).push(formatPathExact(p.slice(c.path.length)));
  }
  const path = formatPath(c.path);
  return {
    path,
    before: secret && c.before !== undefined ? sensitive : redactPaths(redactNested(c.before), below),
    after:
      secret && c.after !== undefined && !isUnknown(c.after) ? sensitive : redactPaths(redactNested(c.after), below),
    forcesReplacement: forced.has(path) || (forced.size > 0 && forcing.some((f) => pathCovers(f, c.path))),
  };
}

/** No secret path below a change (most changes): one empty list, not one per change. */
const NONE: string[] = [];

function redactNested(v: unknown): unknown {
  return isSensitive(v) ? sensitive : v;
}
