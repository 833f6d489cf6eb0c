// The plan matchers as plain assertions, for node:test (or any runner): `expectPlan(plan).toCreate('web')`
// throws node's AssertionError, its message the step as render() draws it and node's own diff.
import { AssertionError } from 'node:assert';
import type { Outcome } from './check.js';
import { checkCreate, checkDelete, checkForget, checkReplace, checkUpdate } from './check.js';
import { checkChangeOnly, checkDrift, checkNoChanges } from './check-plan.js';
import type { PlanMatchers } from './assertions.js';
import { displayView } from './match.js';

/** What {@link expectPlan} returns: the matchers, and `not` for their negations. */
export type PlanAssertions = PlanMatchers<void> & {
  /** The same matchers, negated. */
  readonly not: PlanMatchers<void>;
};

/** node's assert diff of two values (the text deepStrictEqual shows). */
function nodeDiff(expected: unknown, actual: unknown): string {
  return new AssertionError({
    actual: displayView(actual, true),
    expected: displayView(expected, true),
    operator: 'deepStrictEqual',
  }).message;
}

/**
 * The plan matchers as assertions that throw node's `AssertionError`: for node:test, or any runner
 * without `expect.extend`.
 *
 * @example
 * ```ts
 * import { test } from 'node:test';
 * import { provb } from 'converge/providers/b';
 * import { mockProviders, planStack, expectPlan } from 'converge/testing';
 *
 * test('creates the network', async () => {
 *   const mocks = mockProviders(provb({ token: 'unused', region: 'LON1' }));
 *   const plan = await planStack([provb.network('net', { label: 'app' })], { providers: mocks });
 *   expectPlan(plan).toCreate('net');
 *   expectPlan(plan).not.toDelete('net');
 * });
 * ```
 */
export function expectPlan(plan: unknown): PlanAssertions {
  const assertions = (not: boolean): PlanMatchers<void> => {
    const judge = (name: string, outcome: Outcome): void => {
      if (outcome.pass !== not) return;
      throw new AssertionError({
        message: outcome.message(nodeDiff, not),
        actual: outcome.actual,
        expected: outcome.expected,
        operator: `${not ? 'not.' : ''}${name}`,
        stackStartFn: judge,
      });
    };
    /* eslint-disable @typescript-eslint/no-explicit-any -- one implementation behind the typed overloads */
    return {
      toCreate: (target: any, options?: any) => judge('toCreate', checkCreate(plan, target, options)),
      toUpdate: (target: any, options?: any) => judge('toUpdate', checkUpdate(plan, target, options)),
      toReplace: (target: any, options?: any) => judge('toReplace', checkReplace(plan, target, options)),
      toDelete: (target) => judge('toDelete', checkDelete(plan, target)),
      toForget: (target) => judge('toForget', checkForget(plan, target)),
      toHaveNoChanges: () => judge('toHaveNoChanges', checkNoChanges(plan)),
      toChangeOnly: (targets) => judge('toChangeOnly', checkChangeOnly(plan, targets)),
      toHaveDrift: (target?: any, options?: any) => judge('toHaveDrift', checkDrift(plan, target, options)),
    };
    /* eslint-enable @typescript-eslint/no-explicit-any */
  };
  return Object.freeze({ ...assertions(false), not: Object.freeze(assertions(true)) });
}
