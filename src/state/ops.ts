// The only functions that describe a change of state. Each returns a StateChange: resource-granular
// immer patches (the whole resource under ['resources', name], the whole pending operation under
// ['pending', id]) plus the serial raised by one. Building the patches costs O(1) whatever the
// state's size; replay() (immer's applyPatches) turns them into the next state when one is needed.
import { freeze, type Patch } from 'immer';
import { randomUUID } from 'node:crypto';
import {
  STATE_VERSION,
  type DeposedObject,
  type PendingOperation,
  type ResourceState,
  type StackOutput,
  type State,
} from './model.js';
import { newLineage } from './lineage.js';
import type { StateChange } from './patch.js';

export function emptyState(lineage: string = newLineage()): State {
  return freeze(
    { version: STATE_VERSION, lineage, serial: 0, resources: {}, pending: {}, deposed: {}, outputs: {} },
    true,
  );
}

function change(baseSerial: number, patches: Patch[]): StateChange {
  patches.push({ op: 'replace', path: ['serial'], value: baseSerial + 1 });
  return { baseSerial, serial: baseSerial + 1, patches };
}

/** Records a created, updated, imported or adopted object, clearing its pending operation if given. */
export function recordResource(baseSerial: number, resource: ResourceState, pendingId?: string): StateChange {
  const patches: Patch[] = [{ op: 'add', path: ['resources', resource.name], value: resource }];
  if (pendingId) patches.push({ op: 'remove', path: ['pending', pendingId] });
  return change(baseSerial, patches);
}

export function recordDelete(baseSerial: number, name: string, pendingId?: string): StateChange {
  const patches: Patch[] = [{ op: 'remove', path: ['resources', name] }];
  if (pendingId) patches.push({ op: 'remove', path: ['pending', pendingId] });
  return change(baseSerial, patches);
}

/** Moves a resource's state to a new name (aliases): one change, so no crash leaves both or neither. */
export function recordRename(baseSerial: number, resource: ResourceState, from: string): StateChange {
  return change(baseSerial, [
    { op: 'remove', path: ['resources', from] },
    { op: 'add', path: ['resources', resource.name], value: { ...resource } },
  ]);
}

export type NewPending = Omit<PendingOperation, 'id' | 'startedAt'>;

/** `id` defaults to a random UUID; `startedAt` to now. Callers that record many may pass both. */
export function markPending(
  baseSerial: number,
  op: NewPending & { readonly id?: string; readonly startedAt?: string },
): { readonly change: StateChange; readonly pending: PendingOperation } {
  const pending: PendingOperation = {
    ...op,
    id: op.id ?? randomUUID(),
    startedAt: op.startedAt ?? new Date().toISOString(),
  };
  return { change: change(baseSerial, [{ op: 'add', path: ['pending', pending.id], value: pending }]), pending };
}

/** Rewrites a pending record whole (a create's evidence for `find`, noted before its request). */
export function updatePending(baseSerial: number, pending: PendingOperation): StateChange {
  return change(baseSerial, [{ op: 'add', path: ['pending', pending.id], value: { ...pending } }]);
}

export function clearPending(baseSerial: number, pendingId: string): StateChange {
  return change(baseSerial, [{ op: 'remove', path: ['pending', pendingId] }]);
}

/**
 * After a create-before-destroy replacement made the new object: records it as the current object
 * of its name and moves the old one to `deposed`, from where a delete removes it (this apply's, or
 * a later plan's if that fails). One change, so no crash leaves both or neither recorded.
 */
export function recordDeposed(
  baseSerial: number,
  created: ResourceState,
  deposed: DeposedObject,
  pendingId?: string,
): StateChange {
  const patches: Patch[] = [
    { op: 'add', path: ['resources', created.name], value: created },
    { op: 'add', path: ['deposed', deposed.deposedKey], value: deposed },
  ];
  if (pendingId) patches.push({ op: 'remove', path: ['pending', pendingId] });
  return change(baseSerial, patches);
}

/** A deposed object is gone (deleted, or found gone). */
export function recordDeposedDelete(baseSerial: number, deposedKey: string, pendingId?: string): StateChange {
  const patches: Patch[] = [{ op: 'remove', path: ['deposed', deposedKey] }];
  if (pendingId) patches.push({ op: 'remove', path: ['pending', pendingId] });
  return change(baseSerial, patches);
}

/** Many changes of one kind as one change: one record, one fsync. */
export function recordMany(baseSerial: number, patches: readonly Patch[]): StateChange {
  return change(baseSerial, [...patches]);
}

/** Many pending operations as one change (one record, one fsync). */
export function markPendingMany(
  baseSerial: number,
  ops: readonly (NewPending & { readonly id: string; readonly startedAt: string })[],
): StateChange {
  return change(
    baseSerial,
    ops.map((op) => ({ op: 'add' as const, path: ['pending', op.id], value: { ...op } })),
  );
}

export function clearPendingMany(baseSerial: number, ids: readonly string[]): StateChange {
  return change(
    baseSerial,
    ids.map((id) => ({ op: 'remove' as const, path: ['pending', id] })),
  );
}

/**
 * `state mv`: the record moves from `from` to `resource.name`, and every other record that named
 * `from` among its dependencies names the new address: one change.
 */
export function recordMove(
  baseSerial: number,
  resource: ResourceState,
  from: string,
  dependents: readonly ResourceState[],
): StateChange {
  const patches: Patch[] = [
    { op: 'remove', path: ['resources', from] },
    { op: 'add', path: ['resources', resource.name], value: { ...resource } },
  ];
  for (const d of dependents) {
    patches.push({
      op: 'add',
      path: ['resources', d.name],
      value: { ...d, dependencies: d.dependencies.map((x) => (x === from ? resource.name : x)) },
    });
  }
  return change(baseSerial, patches);
}

/**
 * The stack's outputs after an apply: each of `set` recorded whole under ['outputs', name], each of
 * `remove` dropped. One change, so a reader sees all of them or none.
 */
export function recordOutputs(baseSerial: number, set: readonly StackOutput[], remove: readonly string[]): StateChange {
  const patches: Patch[] = [];
  for (const name of remove) patches.push({ op: 'remove', path: ['outputs', name] });
  for (const o of set) patches.push({ op: 'add', path: ['outputs', o.name], value: { ...o } });
  return change(baseSerial, patches);
}
