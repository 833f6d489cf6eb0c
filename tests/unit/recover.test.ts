// src/engine/apply/recover.ts: what becomes of each pending operation an earlier run left.
import { describe, expect, it, vi } from 'vitest';
import { recoverPending, type RecoverDeps } from '../../src/engine/run/recover.js';
import { Ledger } from '../../src/engine/run/ledger.js';
import { cannotTell, type FindResult, type Resolved } from '../../src/engine/provider/define.js';
import { emptyState, markPending, recordResource } from '../../src/state/ops.js';
import { replay } from '../../src/state/patch.js';
import type { PendingOperation, ResourceState, State } from '../../src/state/model.js';
import type { StateChange } from '../../src/state/patch.js';
import type { StateStore } from '../../src/state/store.js';
import type { OperationContext } from '../../src/engine/provider/context.js';

const T = 't:index/x:X';
const obj = (name: string, id: string): ResourceState => ({
  type: T,
  name,
  provider: 't',
  id,
  inputs: { name },
  outputs: {},
  dependencies: [],
  options: {},
  secrets: [],
  createdAt: 'T0',
  updatedAt: 'T0',
});

type Handlers = {
  find?: (inputs: unknown, hint: unknown, ctx: OperationContext) => Promise<FindResult>;
  read?: (id: string) => Promise<unknown>;
};

function deps(h: Handlers, known = true, existing = false): RecoverDeps & { finds: unknown[][] } {
  const finds: unknown[][] = [];
  const def = {
    secrets: ['password'],
    ...(existing ? { existing: async () => [] } : {}),
    read: vi.fn(async (_ctx: unknown, id: string) => (h.read ? h.read(id) : null)),
    ...(h.find
      ? {
          find: async (ctx: OperationContext, inputs: unknown, hint: unknown) => {
            finds.push([ctx.operationId, inputs, hint]);
            return h.find!(inputs, hint, ctx);
          },
        }
      : {}),
  };
  const resolved = { def, provider: { name: 't' } } as unknown as Resolved;
  return {
    finds,
    resolve: (token) => (known && token === T ? resolved : undefined),
    context: (_r, address, operation) =>
      ({ address, operation, signal: new AbortController().signal, report: () => {} }) as unknown as OperationContext,
    now: () => 'T1',
  };
}

/** A state holding `resources` and one pending operation; a ledger over it. */
function withPending(op: Omit<PendingOperation, 'id' | 'startedAt'>, ...resources: ResourceState[]) {
  let state: State = emptyState('L');
  for (const r of resources) state = replay(state, recordResource(state.serial, r));
  const { change, pending } = markPending(state.serial, { ...op, startedAt: '2026-01-01T00:00:00.000Z' });
  state = replay(state, change);
  const commits: StateChange[] = [];
  const store = {
    commit: (c: StateChange) => {
      commits.push(c);
      return Promise.resolve();
    },
  } as unknown as StateStore;
  return { state, pending, commits, ledger: new Ledger(state, store) };
}

const pendingCreate = {
  kind: 'create' as const,
  type: T,
  name: 'web',
  provider: 't',
  inputs: { name: 'web' },
  secrets: ['inputs.token'],
  dependencies: ['net'],
  options: { protect: true },
};
const pendingDelete = (id: string) => ({
  kind: 'delete' as const,
  type: T,
  name: 'web',
  provider: 't',
  inputs: {},
  resourceId: id,
  secrets: [],
});

describe('recoverPending: an interrupted create', () => {
  it("asks find with the pending record's inputs, start time and operation id", async () => {
    const { state, ledger, pending } = withPending(pendingCreate);
    const d = deps({ find: async () => null });
    await recoverPending(state, ledger, d);
    expect(d.finds).toEqual([
      [pending.id, { name: 'web' }, { startedAt: '2026-01-01T00:00:00.000Z', operationId: pending.id }],
    ]);
  });

  it("adopts what find found, with the record's dependencies, options and secrets, clearing the record", async () => {
    const { state, ledger } = withPending(pendingCreate);
    const warnings = await recoverPending(
      state,
      ledger,
      deps({ find: async () => ({ id: 'web-7', outputs: { ip: '198.18.0.7' } }) }),
    );
    const after = ledger.materialize();
    expect(after.pending).toEqual({});
    expect(after.resources.web).toMatchObject({
      id: 'web-7',
      outputs: { ip: '198.18.0.7' },
      dependencies: ['net'],
      options: { protect: true },
      createdAt: 'T1',
    });
    expect([...after.resources.web!.secrets].sort()).toEqual(['inputs.password', 'inputs.token', 'outputs.password']);
    expect(warnings).toHaveLength(1);
  });

  it('drops the record when find says nothing was made', async () => {
    const { state, ledger } = withPending(pendingCreate);
    const warnings = await recoverPending(state, ledger, deps({ find: async () => null }));
    expect(ledger.materialize()).toMatchObject({ pending: {}, resources: {} });
    expect(warnings).toHaveLength(1);
  });

  it('keeps the record when find cannot tell', async () => {
    const { state, ledger, pending, commits } = withPending(pendingCreate);
    const warnings = await recoverPending(state, ledger, deps({ find: async () => cannotTell('no key to search by') }));
    expect(Object.keys(ledger.materialize().pending)).toEqual([pending.id]);
    expect(commits).toHaveLength(0);
    expect(warnings).toHaveLength(1);
  });

  it('drops the record without asking find when the note of what existed was never written (the request was never sent)', async () => {
    const { state, ledger } = withPending({ ...pendingCreate, existing: null });
    const d = deps({ find: async () => ({ id: 'someone-elses', outputs: {} }) }, true, true);
    const warnings = await recoverPending(state, ledger, d);
    expect(d.finds).toEqual([]);
    expect(ledger.materialize()).toMatchObject({ pending: {}, resources: {} });
    expect(warnings).toEqual([expect.stringContaining('never sent its request')]);
  });

  it('hands find the ids the record noted before the request, in a later process', async () => {
    const { state, ledger, pending } = withPending({ ...pendingCreate, existing: ['a', 'b'] });
    const d = deps({ find: async () => null }, true, true);
    await recoverPending(state, ledger, d);
    expect(d.finds).toEqual([
      [
        pending.id,
        { name: 'web' },
        { startedAt: '2026-01-01T00:00:00.000Z', operationId: pending.id, existing: ['a', 'b'] },
      ],
    ]);
  });

  it('keeps the record when the type has no find', async () => {
    const { state, ledger, pending } = withPending(pendingCreate);
    await recoverPending(state, ledger, deps({}));
    expect(Object.keys(ledger.materialize().pending)).toEqual([pending.id]);
  });

  it('keeps the record when no provider has the type', async () => {
    const { state, ledger, pending } = withPending(pendingCreate);
    const warnings = await recoverPending(state, ledger, deps({ find: async () => null }, false));
    expect(Object.keys(ledger.materialize().pending)).toEqual([pending.id]);
    expect(warnings).toHaveLength(1);
  });

  it('only clears the record when the state already has the object find found', async () => {
    const { state, ledger } = withPending(pendingCreate, obj('web', 'web-7'));
    const warnings = await recoverPending(state, ledger, deps({ find: async () => ({ id: 'web-7', outputs: {} }) }));
    expect(ledger.materialize()).toMatchObject({ pending: {}, resources: { web: { id: 'web-7', createdAt: 'T0' } } });
    expect(warnings).toHaveLength(0);
  });

  it('deposes the old object when a create-before-destroy replacement had made the new one', async () => {
    const { state, ledger } = withPending({ ...pendingCreate, deposedKey: 'k1' }, obj('web', 'web-old'));
    await recoverPending(state, ledger, deps({ find: async () => ({ id: 'web-new', outputs: {} }) }));
    const after = ledger.materialize();
    expect(after.resources.web!.id).toBe('web-new');
    expect(after.deposed.k1).toMatchObject({ id: 'web-old', deposedKey: 'k1', deposedAt: 'T1' });
    expect(after.pending).toEqual({});
  });

  it("passes on find's failure, keeping the record", async () => {
    const { state, ledger, pending } = withPending(pendingCreate);
    const error = new Error('vendor down');
    await expect(recoverPending(state, ledger, deps({ find: () => Promise.reject(error) }))).rejects.toBe(error);
    expect(Object.keys(ledger.materialize().pending)).toEqual([pending.id]);
  });
});

describe('recoverPending: an interrupted delete', () => {
  it('removes the record of an object that is gone', async () => {
    const { state, ledger } = withPending(pendingDelete('web-1'), obj('web', 'web-1'));
    await recoverPending(state, ledger, deps({ read: async () => null }));
    expect(ledger.materialize()).toMatchObject({ pending: {}, resources: {} });
  });

  it('keeps the record of an object still there, dropping only the mark', async () => {
    const { state, ledger } = withPending(pendingDelete('web-1'), obj('web', 'web-1'));
    await recoverPending(state, ledger, deps({ read: async () => ({ inputs: {}, outputs: {} }) }));
    expect(ledger.materialize()).toMatchObject({ pending: {}, resources: { web: { id: 'web-1' } } });
  });

  it('does not read when the state holds another object under the name', async () => {
    const { state, ledger } = withPending(pendingDelete('web-1'), obj('web', 'web-2'));
    const d = deps({ read: async () => null });
    await recoverPending(state, ledger, d);
    expect(ledger.materialize()).toMatchObject({ pending: {}, resources: { web: { id: 'web-2' } } });
  });
});

describe('recoverPending', () => {
  it('drops an interrupted update', async () => {
    const { state, ledger } = withPending(
      { kind: 'update', type: T, name: 'web', provider: 't', inputs: {}, resourceId: 'web-1', secrets: [] },
      obj('web', 'web-1'),
    );
    const warnings = await recoverPending(state, ledger, deps({}));
    expect(ledger.materialize()).toMatchObject({ pending: {}, resources: { web: { id: 'web-1' } } });
    expect(warnings).toHaveLength(1);
  });

  it('does nothing and warns of nothing without pending operations', async () => {
    const state = emptyState('L');
    const commits: StateChange[] = [];
    const ledger = new Ledger(state, {
      commit: (c: StateChange) => {
        commits.push(c);
        return Promise.resolve();
      },
    } as unknown as StateStore);
    expect(await recoverPending(state, ledger, deps({}))).toEqual([]);
    expect(commits).toHaveLength(0);
  });
});
