// The plan matchers for vitest and jest: `expect.extend(convergeMatchers)`, then
// `expect(plan).toCreate('web')`. Failure messages show the step as render() draws it and the
// runner's own diff (`this.utils.diff`, as its toEqual shows). Importing converge/testing also types
// them on vitest's Assertion and jest's Matchers.
import type { Outcome } from './check.js';
import { checkCreate, checkDelete, checkForget, checkReplace, checkUpdate } from './check.js';
import { checkChangeOnly, checkDrift, checkNoChanges } from './check-plan.js';
import type { PlanMatchers } from './assertions.js';
// Makes 'vitest' a module of the program, so the augmentation below has something to augment.
import type {} from 'vitest';
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

declare module 'vitest' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type, @typescript-eslint/no-explicit-any, @typescript-eslint/no-unused-vars
  interface Assertion<T = any> extends PlanMatchers<void> {}
}

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace jest {
    // eslint-disable-next-line @typescript-eslint/no-empty-object-type, @typescript-eslint/no-unused-vars
    interface Matchers<R, T = {}> extends PlanMatchers<R> {}
  }
}
