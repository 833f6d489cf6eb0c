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

/** The paths under `prefix` ('inputs.'), with the prefix taken off. */
export function strip(prefix: string, paths: readonly string[]): string[] {
  const out: string[] = [];
  for (const p of paths) if (p.startsWith(prefix)) out.push(p.slice(prefix.length));
  return out;
}

/** A frozen list's answers, made once: a definition's own secret paths are one frozen list its declarations and records share. */
const inputPathsOf = new WeakMap<readonly string[], readonly string[]>();
const patternsOf = new WeakMap<readonly string[], readonly PathSegment[][]>();

/** The secret input paths among `paths` ('inputs.x' → 'x'), as strip('inputs.', paths); made once for a frozen list. */
export function secretInputPaths(paths: readonly string[]): readonly string[] {
  if (!Object.isFrozen(paths)) return strip('inputs.', paths);
  let out = inputPathsOf.get(paths);
  if (!out) inputPathsOf.set(paths, (out = Object.freeze(strip('inputs.', paths))));
  return out;
}

/** `paths` parsed; made once for a frozen list. */
function patterns(paths: readonly string[]): readonly PathSegment[][] {
  if (!Object.isFrozen(paths)) return paths.map(parsePath);
  let out = patternsOf.get(paths);
  if (!out) patternsOf.set(paths, (out = paths.map(parsePath)));
  return out;
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
