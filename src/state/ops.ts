// The only functions that make a new state. Each is built on immer's produceWithPatches, raises the
// serial by one, and returns the next state with its patches for the store to persist.
import { produceWithPatches, enablePatches, freeze, type Draft, type Patch } from 'immer';
import { randomUUID } from 'node:crypto';
import { STATE_VERSION, type PendingOperation, type ResourceState, type State } from './model.js';
import { newLineage } from './lineage.js';

enablePatches();

export type Transition = { readonly state: State; readonly patches: readonly Patch[]; readonly baseSerial: number };

export function emptyState(lineage: string = newLineage()): State {
  return freeze({ version: STATE_VERSION, lineage, serial: 0, resources: {}, pending: {} }, true);
}

function change(state: State, recipe: (draft: Draft<State>) => void): Transition {
  const [next, patches] = produceWithPatches(state, (d) => {
    recipe(d);
    d.serial = state.serial + 1;
  });
  return { state: next, patches, baseSerial: state.serial };
}

/** Records a created (or imported, or adopted) object, clearing its pending operation if given. */
export function recordCreate(state: State, resource: ResourceState, pendingId?: string): Transition {
  return change(state, (d) => {
    d.resources[resource.name] = resource as Draft<ResourceState>;
    if (pendingId) delete d.pending[pendingId];
  });
}

/** Records new inputs/outputs of an existing object (update, refresh, import). */
export function recordUpdate(state: State, resource: ResourceState, pendingId?: string): Transition {
  return recordCreate(state, resource, pendingId);
}

export function recordDelete(state: State, name: string, pendingId?: string): Transition {
  return change(state, (d) => {
    delete d.resources[name];
    if (pendingId) delete d.pending[pendingId];
  });
}

/** Moves a resource's state to a new name (aliases). */
export function recordRename(state: State, from: string, to: string): Transition {
  return change(state, (d) => {
    const r = d.resources[from];
    if (!r) return;
    delete d.resources[from];
    d.resources[to] = { ...r, name: to };
  });
}

export function markPending(state: State, op: Omit<PendingOperation, 'id' | 'startedAt'> & { id?: string }): Transition & { readonly pendingId: string } {
  const id = op.id ?? randomUUID();
  const t = change(state, (d) => {
    d.pending[id] = { ...op, id, startedAt: new Date().toISOString() } as Draft<PendingOperation>;
  });
  return { ...t, pendingId: id };
}

export function clearPending(state: State, pendingId: string): Transition {
  return change(state, (d) => { delete d.pending[pendingId]; });
}

/** Several changes as one transition (one serial step). */
export function batch(state: State, recipe: (draft: Draft<State>) => void): Transition {
  return change(state, recipe);
}
