// The matchers' one judgement, shared by the vitest/jest matchers and the node:test assertions: each
// check reads a plan and answers pass or fail with a message that shows the step as render() draws
// it and a diff of what was expected against what the plan holds (the diff drawn by the caller's
// test runner, or node's assert).
import type { Step } from '../engine/plan/step.js';
import { renderStepText } from '../engine/plan/render.js';
import { parsePath, pathCovers } from '../engine/values/path.js';
import { expectedView, matchValue, type Mismatch } from './match.js';
import type {
  CreateExpectation,
  CreateQuery,
  PlanLike,
  ReplaceExpectation,
  Target,
  UpdateExpectation,
} from './expectation.js';

/** Draws the difference of two values, as the test runner shows `toEqual`'s. */
export type DiffFn = (expected: unknown, actual: unknown) => string;

/** A check's answer: whether it passed, and the message for the case the assertion did not expect. */
export type Outcome = {
  readonly pass: boolean;
  /** The message when the assertion fails: `not` says the assertion was negated (it passed, and should not have). */
  readonly message: (diff: DiffFn, not: boolean) => string;
  /** What was expected and found, for a runner's own diff view. */
  readonly expected?: unknown;
  readonly actual?: unknown;
};

export const addressOf = (t: Target): string => (typeof t === 'string' ? t : t.name);
export const indent = (text: string): string =>
  text
    .split('\n')
    .map((l) => (l ? `  ${l}` : l))
    .join('\n');
export const rendered = (step: Step): string => indent(renderStepText(step));
export const isChange = (s: Step): boolean => s.action !== 'noop' || s.movedFrom !== undefined;
/** The current object's step at an address (a deposed object's step is a step of its own). */
const stepAt = (plan: PlanLike, address: string): Step | undefined =>
  plan.steps.find((s) => s.address === address && !s.deposedKey);

export function checkPlan(plan: unknown): PlanLike {
  if (!plan || typeof plan !== 'object' || !Array.isArray((plan as PlanLike).steps))
    throw new TypeError('Expected a plan (what engine.plan(), planStack() or planChange() returns)');
  return plan as PlanLike;
}

/** "the plan's steps: a (create), b (update), ..." for a message about a missing address. */
export function stepList(plan: PlanLike): string {
  const changed = plan.steps.filter(isChange);
  const shown = changed.slice(0, 20).map((s) => `  ${s.address} (${s.action})`);
  const more = changed.length > 20 ? [`  ... and ${changed.length - 20} more`] : [];
  const noops = plan.steps.length - changed.length;
  return [
    changed.length ? 'The plan changes:' : 'The plan changes nothing.',
    ...shown,
    ...more,
    ...(noops ? [`  (${noops} unchanged)`] : []),
  ].join('\n');
}

function missing(plan: PlanLike, address: string, what: string): Outcome {
  const near = plan.steps
    .map((s) => s.address)
    .filter((a) => a.toLowerCase().includes(address.toLowerCase()) || address.toLowerCase().includes(a.toLowerCase()));
  return {
    pass: false,
    message: () =>
      [
        `expected ${address} ${what}, but the plan has no step for ${address}${near.length ? ` (did you mean ${near.slice(0, 3).join(', ')}?)` : ''}`,
        '',
        stepList(plan),
      ].join('\n'),
  };
}

const VERB: Record<Step['action'], string> = {
  create: 'creates it',
  update: 'updates it in place',
  replace: 'replaces it',
  delete: 'deletes it',
  forget: 'forgets it',
  noop: 'leaves it unchanged',
};
const WANT: Record<Step['action'], string> = {
  create: 'to be created',
  update: 'to be updated in place',
  replace: 'to be replaced',
  delete: 'to be deleted',
  forget: 'to be forgotten',
  noop: 'to be unchanged',
};

function mismatchLines(found: readonly Mismatch[], where: string): string[] {
  return found
    .slice(0, 10)
    .map((m) => `  ${where}${m.path ? `.${m.path}` : ''}: expected ${m.expected}, got ${m.actual}`);
}

/**
 * A step of `action` at `target`, whose facts (`facts(step)`: the expected and actual views and the
 * problems) agree. The shared core of toCreate, toUpdate, toReplace, toDelete and toForget.
 */
function stepCheck(
  planValue: unknown,
  target: Target,
  action: Step['action'],
  facts?: (step: Step) => { expected: Record<string, unknown>; actual: Record<string, unknown>; problems: string[] },
): Outcome {
  const plan = checkPlan(planValue);
  const address = addressOf(target);
  const step = stepAt(plan, address);
  if (!step) return missing(plan, address, WANT[action]);
  const f = facts?.(step) ?? { expected: {}, actual: {}, problems: [] };
  const expected = { action, ...f.expected };
  const actual = { action: step.action, ...f.actual };
  const actionOk = step.action === action;
  const pass = actionOk && f.problems.length === 0;
  return {
    pass,
    expected,
    actual,
    message: (diff, not) =>
      not
        ? [`expected ${address} not ${WANT[action]}, but the plan ${VERB[action]}:`, '', rendered(step)].join('\n')
        : [
            actionOk
              ? `expected ${address} ${WANT[action]} as described, but:`
              : `expected ${address} ${WANT[action]}, but the plan ${VERB[step.action]} (${step.cause})`,
            ...(actionOk ? f.problems : []),
            '',
            rendered(step),
            '',
            diff(expected, actual),
          ].join('\n'),
  };
}

/** The inputs part of a step's facts: the pattern against the declared inputs. */
function inputsFacts(step: Step, pattern: Readonly<Record<string, unknown>> | undefined) {
  if (!pattern) return { expected: {}, actual: {}, problems: [] as string[] };
  const after = step.after ?? {};
  const found = matchValue(pattern, after);
  return {
    expected: { inputs: expectedView(pattern, after) },
    actual: { inputs: after },
    problems: mismatchLines(found, 'inputs'),
  };
}

const covered = (paths: readonly string[], path: string): boolean =>
  paths.some((p) => p === path || pathCovers(parsePath(p), parsePath(path)));

/** The paths check: every changed path is one named or below one, and every named path has a change at or below it. */
export function pathsFacts(changed: readonly string[], want: readonly string[] | undefined, what: string) {
  if (!want) return { expected: {}, actual: {}, problems: [] as string[] };
  const extra = changed.filter((c) => !covered(want, c));
  const absent = want.filter((w) => !changed.some((c) => covered([w], c)));
  const problems = [
    ...(extra.length ? [`  ${what} also at ${extra.join(', ')}`] : []),
    ...(absent.length ? [`  no ${what.replace(/s$/, '')} at ${absent.join(', ')}`] : []),
  ];
  return { expected: { paths: [...want].sort() }, actual: { paths: [...changed].sort() }, problems };
}

/** `toCreate(address | decl, { inputs? })` or `toCreate({ type, inputs? })`. */
export function checkCreate(plan: unknown, target: Target | CreateQuery, options: CreateExpectation = {}): Outcome {
  if (typeof target === 'object' && target && !('name' in target) && 'type' in target)
    return createOfType(plan, target);
  return stepCheck(plan, target as Target, 'create', (s) => inputsFacts(s, options.inputs));
}

/** Any create of a type whose inputs match. */
function createOfType(planValue: unknown, query: CreateQuery): Outcome {
  const plan = checkPlan(planValue);
  const creates = plan.steps.filter((s) => s.action === 'create' && s.type === query.type);
  const judged = creates.map((s) => ({ s, found: query.inputs ? matchValue(query.inputs, s.after ?? {}) : [] }));
  const hit = judged.find((j) => j.found.length === 0);
  const what = `a ${query.type} to be created${query.inputs ? ' with matching inputs' : ''}`;
  if (hit)
    return {
      pass: true,
      message: () =>
        [
          `expected no ${query.type} to be created so, but the plan creates ${hit.s.address}:`,
          '',
          rendered(hit.s),
        ].join('\n'),
    };
  if (!judged.length)
    return {
      pass: false,
      message: () => [`expected ${what}, but the plan creates none`, '', stepList(plan)].join('\n'),
    };
  const nearest = judged.reduce((a, b) => (b.found.length < a.found.length ? b : a));
  const after = nearest.s.after ?? {};
  const expected = { type: query.type, inputs: expectedView(query.inputs, after) };
  const actual = { type: nearest.s.type, inputs: after };
  return {
    pass: false,
    expected,
    actual,
    message: (diff) =>
      [
        `expected ${what}, but none of the ${judged.length} created matches; the nearest is ${nearest.s.address}:`,
        ...mismatchLines(nearest.found, 'inputs'),
        '',
        rendered(nearest.s),
        '',
        diff(expected, actual),
      ].join('\n'),
  };
}

/** `toUpdate(target, { paths?, inputs? })`: an in-place update changing exactly those paths. */
export function checkUpdate(plan: unknown, target: Target, options: UpdateExpectation = {}): Outcome {
  return stepCheck(plan, target, 'update', (s) => {
    const p = pathsFacts(
      s.changes.map((c) => c.path),
      options.paths as readonly string[] | undefined,
      'changes',
    );
    const i = inputsFacts(s, options.inputs);
    return {
      expected: { ...p.expected, ...i.expected },
      actual: { ...p.actual, ...i.actual },
      problems: [...p.problems, ...i.problems],
    };
  });
}

/** `toReplace(target, { because?, inputs? })`: a replacement, forced by those paths (or for that cause). */
export function checkReplace(plan: unknown, target: Target, options: ReplaceExpectation = {}): Outcome {
  return stepCheck(plan, target, 'replace', (s) => {
    const because =
      options.because === undefined
        ? undefined
        : ((Array.isArray(options.because) ? options.because : [options.because]) as readonly string[]);
    const reasons = s.reasons.length ? s.reasons : [s.cause];
    const problems: string[] = [];
    const unmet = (because ?? []).filter(
      (b) => b !== s.cause && !s.reasons.some((r) => covered([r], b) || covered([b], r)),
    );
    if (unmet.length) problems.push(`  not forced by ${unmet.join(', ')}: the plan says ${reasons.join(', ')}`);
    const i = inputsFacts(s, options.inputs);
    return {
      expected: { ...(because ? { because: [...because].sort() } : {}), ...i.expected },
      actual: { ...(because ? { because: [...reasons].sort() } : {}), ...i.actual },
      problems: [...problems, ...i.problems],
    };
  });
}

/** `toDelete(target)`. */
export function checkDelete(plan: unknown, target: Target): Outcome {
  return stepCheck(plan, target, 'delete');
}

/** `toForget(target)`. */
export function checkForget(plan: unknown, target: Target): Outcome {
  return stepCheck(plan, target, 'forget');
}
