// src/engine/apply/ledger.ts: the apply's working view of the state (base + overlay), committed as patches.
import { describe, expect, it } from 'vitest';
import { Ledger } from '../../src/engine/run/ledger.js';
import { MemoryStateStore } from '../../src/state/stores/memory.js';
import {
  clearPending,
  emptyState,
  markPending,
  recordDelete,
  recordDeposed,
  recordDeposedDelete,
  recordResource,
} from '../../src/state/ops.js';
import { replay } from '../../src/state/patch.js';
import type { ResourceState, State } from '../../src/state/model.js';
import type { StateChange } from '../../src/state/patch.js';
import type { StateStore } from '../../src/state/store.js';
import { StateConflictError } from '../../src/state/errors.js';

const res = (name: string, id = `${name}-1`): ResourceState => ({
  type: 't:index/x:X',
  name,
  provider: 't',
  id,
  inputs: { name },
  outputs: {},
  dependencies: [],
  options: {},
  secrets: [],
  createdAt: 'T',
  updatedAt: 'T',
});

/** A state at serial 1 holding `names`, and a store holding it. */
async function start(...names: string[]): Promise<{ base: State; store: MemoryStateStore }> {
  const store = new MemoryStateStore();
  let base = await store.read();
  for (const n of names) {
    const c = recordResource(base.serial, res(n));
    await store.commit(c);
    base = replay(base, c);
  }
  return { base, store };
}

/** A store that records commits and never persists anything. */
function recorder(): { store: StateStore; commits: StateChange[] } {
  const commits: StateChange[] = [];
  return {
    commits,
    store: {
      commit: (c: StateChange) => {
        commits.push(c);
        return Promise.resolve();
      },
    } as unknown as StateStore,
  };
}

describe('Ledger', () => {
  it('reads the base state until a change overlays it', async () => {
    const { base, store } = await start('a');
    const ledger = new Ledger(base, store);
    expect(ledger.get('a')?.id).toBe('a-1');
    expect(ledger.get('b')).toBeUndefined();
    expect(ledger.serial).toBe(base.serial);
    expect(ledger.lineage).toBe(base.lineage);
  });

  it('shows a change at once, before the store has made it durable', () => {
    const { store, commits } = recorder();
    const ledger = new Ledger(emptyState('L'), store);
    void ledger.commit((s) => recordResource(s, res('a')));
    expect(ledger.get('a')?.id).toBe('a-1');
    expect(ledger.serial).toBe(1);
    expect(commits).toHaveLength(1);
  });

  it('shows a removed resource as absent although the base has it', async () => {
    const { base, store } = await start('a');
    const ledger = new Ledger(base, store);
    await ledger.commit((s) => recordDelete(s, 'a'));
    expect(ledger.get('a')).toBeUndefined();
  });

  it('hands each change the serial of the one before, and commits them in order', async () => {
    const { store, commits } = recorder();
    const ledger = new Ledger(emptyState('L'), store);
    await Promise.all([
      ledger.commit((s) => recordResource(s, res('a'))),
      ledger.commit((s) => recordResource(s, res('b'))),
      ledger.commit((s) => recordDelete(s, 'a')),
    ]);
    expect(commits.map((c) => [c.baseSerial, c.serial])).toEqual([
      [0, 1],
      [1, 2],
      [2, 3],
    ]);
  });

  it('materializes the same state the store holds', async () => {
    const { base, store } = await start('a', 'b');
    const ledger = new Ledger(base, store);
    const { change, pending } = markPending(ledger.serial, {
      kind: 'create',
      type: 't',
      name: 'c',
      provider: 't',
      inputs: {},
      secrets: [],
    });
    await ledger.commit(() => change);
    await ledger.commit((s) => recordResource(s, res('c'), pending.id));
    await ledger.commit((s) => recordDelete(s, 'a'));
    const materialized = ledger.materialize();
    expect(materialized).toEqual(await store.read());
    expect(Object.keys(materialized.resources).sort()).toEqual(['b', 'c']);
    expect(materialized.pending).toEqual({});
  });

  it('materializes the base itself when nothing changed', async () => {
    const { base, store } = await start('a');
    expect(new Ledger(base, store).materialize()).toBe(base);
  });

  it('tracks deposed objects through the overlay', async () => {
    const { base, store } = await start('a');
    const ledger = new Ledger(base, store);
    await ledger.commit((s) => recordDeposed(s, res('a', 'a-2'), { ...res('a'), deposedKey: 'k1', deposedAt: 'T' }));
    expect(ledger.get('a')?.id).toBe('a-2');
    expect(ledger.getDeposed('k1')?.id).toBe('a-1');
    await ledger.commit((s) => recordDeposedDelete(s, 'k1'));
    expect(ledger.getDeposed('k1')).toBeUndefined();
  });

  it('treats prototype-like names as plain names', async () => {
    const { base, store } = await start('__proto__');
    const ledger = new Ledger(base, store);
    expect(ledger.get('__proto__')?.id).toBe('__proto__-1');
    expect(ledger.get('constructor')).toBeUndefined();
    expect(ledger.getDeposed('toString')).toBeUndefined();
  });

  it("passes on the store's refusal of a stale change", async () => {
    const { base, store } = await start('a');
    const other = new Ledger(base, store);
    await other.commit((s) => clearPending(s, 'none'));
    const ledger = new Ledger(base, store);
    const error = await ledger.commit((s) => recordDelete(s, 'a')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StateConflictError);
    expect(error).toMatchObject({
      code: 'CONVERGE_STATE_CONFLICT',
      expectedSerial: base.serial,
      actualSerial: base.serial + 1,
    });
  });
});
