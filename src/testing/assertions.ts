// The matchers' signatures, once: what `expect(plan).toCreate(...)` takes in vitest and jest (after
// `expect.extend(convergeMatchers)`) and what `expectPlan(plan).toCreate(...)` takes under node:test.
// A typed helper's declaration as the target types the paths and inputs its options name.
import type {
  CreateExpectation,
  CreateQuery,
  DriftExpectation,
  InputsOf,
  ReplaceExpectation,
  UpdateExpectation,
} from './expectation.js';

/** The plan matchers; `R` is what each returns (void for vitest and node:test). */
export interface PlanMatchers<R = void> {
  /** The plan creates this resource (inputs matching, if given). */
  toCreate<D extends { readonly name: string }>(target: D, options?: CreateExpectation<InputsOf<D>>): R;
  /** The plan creates this resource, or any resource of `{ type }` whose inputs match. */
  toCreate(target: string | CreateQuery, options?: CreateExpectation): R;
  /** The plan updates this resource in place (changing exactly `paths`, if given). */
  toUpdate<D extends { readonly name: string }>(target: D, options?: UpdateExpectation<InputsOf<D>>): R;
  /** The plan updates this resource in place (changing exactly `paths`, if given). */
  toUpdate(target: string, options?: UpdateExpectation): R;
  /** The plan replaces this resource (forced by `because`, if given). */
  toReplace<D extends { readonly name: string }>(target: D, options?: ReplaceExpectation<InputsOf<D>>): R;
  /** The plan replaces this resource (forced by `because`, if given). */
  toReplace(target: string, options?: ReplaceExpectation): R;
  /** The plan deletes this resource. */
  toDelete(target: string | { readonly name: string }): R;
  /** The plan forgets this resource (removes it from the state, leaving the object). */
  toForget(target: string | { readonly name: string }): R;
  /** The plan changes nothing. */
  toHaveNoChanges(): R;
  /** The plan changes exactly these resources, and no other. */
  toChangeOnly(targets: readonly (string | { readonly name: string })[]): R;
  /** Refresh found this resource (or, without a target, any) changed or deleted outside converge. */
  toHaveDrift<D extends { readonly name: string }>(target?: D, options?: DriftExpectation<InputsOf<D>>): R;
  /** Refresh found this resource (or, without a target, any) changed or deleted outside converge. */
  toHaveDrift(target?: string, options?: DriftExpectation): R;
}
