// Small builders for the unit specs of the planner's pure modules: a recorded object and a state,
// each from only the fields a case cares about.
import type { DeposedObject, ResourceState, State } from '../../src/state/model.js';

/** A recorded object named `name` with `inputs`; everything else plain (type 't:index/x:X', id 'id-<name>'). */
export function rec(
  name: string,
  inputs: Record<string, unknown> = {},
  more: Partial<ResourceState> = {},
): ResourceState {
  return {
    type: 't:index/x:X',
    name,
    provider: 't',
    id: `id-${name}`,
    inputs,
    outputs: {},
    dependencies: [],
    options: {},
    secrets: [],
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    ...more,
  };
}

/** A deposed object: `rec` plus its deposed facts. */
export function deposed(name: string, deposedKey: string, more: Partial<ResourceState> = {}): DeposedObject {
  return { ...rec(name, {}, more), deposedKey, deposedAt: '2026-01-01T00:00:00.000Z' };
}

/** A state holding `resources` (by their names) and `deposedObjects` (by key). */
export function stateOf(
  resources: readonly ResourceState[],
  deposedObjects: Record<string, DeposedObject> = {},
): State {
  return {
    version: 1,
    lineage: 'l',
    serial: 1,
    resources: Object.fromEntries(resources.map((r) => [r.name, r])),
    pending: {},
    deposed: deposedObjects,
  };
}
