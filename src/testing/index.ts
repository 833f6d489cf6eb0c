// converge/testing: dry-run diffs in tests. Mock providers made from the real ones (no network),
// planChange() ("if I change this, what does the plan do?"), plan matchers for vitest, jest and
// node:test, and planSnapshot(). Sits above src/engine and src/state (which never import it).
export { mockProviders } from './mock.js';
export type { Mocks, MockObject, MockCall, AddressOf } from './mock.js';
export { planStack, planChange } from './plan-change.js';
export type { Stack, StackEdit, PlanChangeOptions } from './plan-change.js';
export { convergeMatchers } from './matchers.js';
export { expectPlan } from './expect-plan.js';
export type { PlanAssertions } from './expect-plan.js';
export type { PlanMatchers } from './assertions.js';
export { match, Capture, Pattern } from './match.js';
export type { Mismatch } from './match.js';
export { planSnapshot } from './snapshot.js';
export type {
  PlanLike,
  Target,
  InputPath,
  InputsOf,
  InputsPattern,
  CreateQuery,
  CreateExpectation,
  UpdateExpectation,
  ReplaceExpectation,
  ReplaceCause,
  DriftExpectation,
} from './expectation.js';
