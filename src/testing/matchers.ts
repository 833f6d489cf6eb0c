// The plan matchers for vitest and jest: `expect.extend(convergeMatchers)`, then
// `expect(plan).toCreate('web')`. Failure messages show the step as render() draws it and the
// runner's own diff (`this.utils.diff`, as its toEqual shows). Nothing here names a runner's types:
// converge/testing/vitest and converge/testing/jest type the matchers on each runner's expect.
import type { Outcome } from './check.js';
import { checkCreate, checkDelete, checkForget, checkReplace, checkUpdate } from './check.js';
import { checkChangeOnly, checkDrift, checkNoChanges } from './check-plan.js';
import { displayView } from './match.js';

/** What vitest and jest give a matcher as `this`: the parts read here. */
type MatcherState = {
  readonly isNot?: boolean;
  readonly utils: { diff(expected: unknown, actual: unknown): string | null | undefined };
};
/** What a matcher answers vitest or jest. */
type MatcherResult = { pass: boolean; message: () => string };

function answer(state: MatcherState, outcome: Outcome): MatcherResult {
  return {
    pass: outcome.pass,
    message: () => outcome.message((e, a) => state.utils.diff(displayView(e), displayView(a)) ?? '', !!state.isNot),
  };
}

/* eslint-disable @typescript-eslint/no-explicit-any -- the runners hand matchers untyped arguments */
/**
 * The plan matchers, for `expect.extend(convergeMatchers)` in vitest or jest: `toCreate`,
 * `toUpdate`, `toReplace`, `toDelete`, `toForget`, `toHaveNoChanges`, `toChangeOnly`,
 * `toHaveDrift`. Each works with `.not`.
 *
 * @example
 * ```ts
 * import { expect } from 'vitest';
 * import { convergeMatchers } from 'converge/testing';
 * import 'converge/testing/vitest'; // types them on vitest's expect (jest: 'converge/testing/jest')
 *
 * expect.extend(convergeMatchers);
 * // then, in a test: expect(plan).toUpdate('web', { paths: ['size'] });
 * ```
 */
export const convergeMatchers = Object.freeze({
  toCreate(this: MatcherState, plan: unknown, target: any, options?: any): MatcherResult {
    return answer(this, checkCreate(plan, target, options));
  },
  toUpdate(this: MatcherState, plan: unknown, target: any, options?: any): MatcherResult {
    return answer(this, checkUpdate(plan, target, options));
  },
  toReplace(this: MatcherState, plan: unknown, target: any, options?: any): MatcherResult {
    return answer(this, checkReplace(plan, target, options));
  },
  toDelete(this: MatcherState, plan: unknown, target: any): MatcherResult {
    return answer(this, checkDelete(plan, target));
  },
  toForget(this: MatcherState, plan: unknown, target: any): MatcherResult {
    return answer(this, checkForget(plan, target));
  },
  toHaveNoChanges(this: MatcherState, plan: unknown): MatcherResult {
    return answer(this, checkNoChanges(plan));
  },
  toChangeOnly(this: MatcherState, plan: unknown, targets: any): MatcherResult {
    return answer(this, checkChangeOnly(plan, targets));
  },
  toHaveDrift(this: MatcherState, plan: unknown, target?: any, options?: any): MatcherResult {
    return answer(this, checkDrift(plan, target, options));
  },
});
/* eslint-enable @typescript-eslint/no-explicit-any */
