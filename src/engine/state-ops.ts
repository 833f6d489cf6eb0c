// State operations (the `terraform state` family): list, show, rm, mv, and force-unlock. rm and mv
// run under the state lock and commit through the journal like an apply step (one change each,
// durable before they return); list and show read only. Nothing remote is touched.
import type { ForceUnlockOptions, StateStore, Lock } from '../state/store.js';
import type { ResourceState } from '../state/model.js';
import type { Event } from './events.js';
import { own } from '../state/keys.js';
import { recordDelete, recordMove } from '../state/ops.js';
import { Ledger } from './run/ledger.js';
import { redactPaths } from './values/redact.js';
import { strip } from './plan/secrets.js';
import { closest } from './plan/targets.js';
import { ConvergeError, ValidationError } from './errors.js';
import { controlCharacterMessage } from './validate/names.js';

/** One record of the state, as `engine.stateList()` (`converge state list`) lists it. */
export type StateEntry = {
  /** The resource's address. */
  readonly address: string;
  /** Its type token. */
  readonly type: string;
  /** The provider that serves it. */
  readonly provider: string;
  /** The object's id. */
  readonly id: string;
  /** A create made it but then failed: the next plan replaces it. */
  readonly tainted?: boolean;
  /** A deposed object's key (an old object a create-first replacement left behind). */
  readonly deposedKey?: string;
};

export type StateOpsContext = {
  readonly store: StateStore;
  readonly lock: (operation: string) => Promise<Lock>;
  readonly emit: (e: Event) => void;
  readonly now: () => number;
};

export async function listState(ctx: StateOpsContext): Promise<StateEntry[]> {
  const state = await ctx.store.read();
  const out: StateEntry[] = Object.values(state.resources).map((r) => ({
    address: r.name,
    type: r.type,
    provider: r.provider,
    id: r.id,
    ...(r.tainted ? { tainted: true } : {}),
  }));
  for (const d of Object.values(state.deposed))
    out.push({ address: d.name, type: d.type, provider: d.provider, id: d.id, deposedKey: d.deposedKey });
  return out.sort(
    (a, b) => a.address.localeCompare(b.address) || (a.deposedKey ?? '').localeCompare(b.deposedKey ?? ''),
  );
}

/** One record with every secret input and output replaced by the sensitive marker. */
export async function showState(ctx: StateOpsContext, address: string): Promise<ResourceState> {
  const state = await ctx.store.read();
  const r = own(state.resources, address);
  if (!r) throw notInState(address, Object.keys(state.resources));
  return {
    ...r,
    inputs: redactPaths(r.inputs, strip('inputs.', r.secrets)) as Record<string, unknown>,
    outputs: redactPaths(r.outputs, strip('outputs.', r.secrets)) as Record<string, unknown>,
  };
}

/** Forgets the records (the objects are left alone); returns the addresses removed. */
export async function removeState(ctx: StateOpsContext, addresses: readonly string[]): Promise<string[]> {
  if (!Array.isArray(addresses) || addresses.some((a) => typeof a !== 'string' || !a))
    throw new TypeError('Expected `addresses` to be resource names');
  const lock = await ctx.lock('state-rm');
  try {
    const state = await ctx.store.read();
    const missing = addresses.filter((a) => !own(state.resources, a));
    if (missing.length) throw notInState(missing[0]!, Object.keys(state.resources));
    const ledger = new Ledger(state, ctx.store);
    for (const address of new Set(addresses)) {
      const r = own(state.resources, address)!;
      const started = ctx.now();
      ctx.emit({ type: 'step_start', at: started, address, action: 'forget', resourceType: r.type });
      await ledger.commit((serial) => recordDelete(serial, address));
      ctx.emit({
        type: 'step_finish',
        at: ctx.now(),
        address,
        action: 'forget',
        resourceType: r.type,
        elapsedMs: ctx.now() - started,
      });
    }
    await ctx.store.compact();
    return [...new Set(addresses)];
  } finally {
    await lock.release();
  }
}

/** Renames a record (and the dependencies that name it); the object is left alone. */
export async function moveState(ctx: StateOpsContext, from: string, to: string): Promise<void> {
  if (typeof from !== 'string' || !from || typeof to !== 'string' || !to)
    throw new TypeError('Expected `from` and `to` to be resource names');
  const control = controlCharacterMessage(to);
  if (control) throw new ValidationError([{ resource: to, path: ['to'], code: 'invalid_value', message: control }]);
  const lock = await ctx.lock('state-mv');
  try {
    const state = await ctx.store.read();
    const r = own(state.resources, from);
    if (!r) throw notInState(from, Object.keys(state.resources));
    if (own(state.resources, to))
      throw new ValidationError([
        {
          resource: to,
          path: ['to'],
          code: 'duplicate_name',
          message: `'${to}' is already in the state; remove it first or choose another name`,
        },
      ]);
    if (from === to) return;
    const dependents = Object.values(state.resources).filter((x) => x.name !== from && x.dependencies.includes(from));
    const ledger = new Ledger(state, ctx.store);
    const started = ctx.now();
    ctx.emit({ type: 'step_start', at: started, address: to, action: 'noop', resourceType: r.type });
    await ledger.commit((serial) =>
      recordMove(serial, { ...r, name: to, updatedAt: new Date(ctx.now()).toISOString() }, from, dependents),
    );
    ctx.emit({
      type: 'step_finish',
      at: ctx.now(),
      address: to,
      action: 'noop',
      resourceType: r.type,
      elapsedMs: ctx.now() - started,
    });
    await ctx.store.compact();
  } finally {
    await lock.release();
  }
}

export async function forceUnlock(ctx: StateOpsContext, lockId: string, options?: ForceUnlockOptions): Promise<void> {
  if (typeof lockId !== 'string' || !lockId) throw new TypeError('Expected `lockId` to be a lock id');
  if (!ctx.store.forceUnlock)
    throw new ConvergeError(`The state store at ${ctx.store.location} cannot force-unlock.`, {
      code: 'CONVERGE_LOCK_NOT_FOUND',
    });
  if (!(await ctx.store.forceUnlock(lockId, options))) {
    throw new ConvergeError(
      `No lock with id ${lockId} is held on the state at ${ctx.store.location}; nothing was unlocked.\nThe id is in the StateLockedError (lockId) or its message.`,
      { code: 'CONVERGE_LOCK_NOT_FOUND' },
    );
  }
}

function notInState(address: string, known: readonly string[]): ValidationError {
  const near = closest(address, known);
  return new ValidationError([
    {
      resource: address,
      path: ['address'],
      code: 'unknown_name',
      message: `'${address}' is not in the state${near ? `; did you mean '${near}'?` : ''}`,
      ...(near ? { suggestion: near } : {}),
    },
  ]);
}
