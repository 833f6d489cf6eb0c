// src/engine/apply/intents.ts: pending creates and deletes written ahead in chunks, cleared when unused.
import { describe, expect, it } from 'vitest';
import { PendingIntents } from '../../src/engine/apply/intents.js';
import { Ledger } from '../../src/engine/run/ledger.js';
import { emptyState } from '../../src/state/ops.js';
import type { StateChange } from '../../src/state/patch.js';
import type { StateStore } from '../../src/state/store.js';
import type { StepWork } from '../../src/engine/plan/work.js';
import type { DeposedObject, ResourceState } from '../../src/state/model.js';

const T = 't:index/x:X';
const prior = (name: string): ResourceState => ({
  type: T,
  name,
  provider: 't',
  id: `${name}-id`,
  inputs: {},
  outputs: {},
  dependencies: [],
  options: {},
  secrets: [],
  createdAt: 'T',
  updatedAt: 'T',
});

function work(action: string, address: string, extra: Record<string, unknown> = {}): StepWork {
  return {
    kind: 'deposed' in extra ? 'delete-deposed' : action,
    step: { action, address, type: T },
    def: {},
    provider: { name: 't' },
    ...(action === 'delete' ? { priorName: address } : {}),
    ...(action === 'create' ? { decl: { type: T, name: address, inputs: {} } } : {}),
    secrets: [],
    deps: [],
    ...extra,
  } as unknown as StepWork;
}
const create = (address: string, extra: Record<string, unknown> = {}) =>
  work('create', address, { inputs: { name: address }, ...extra });
const del = (address: string, extra: Record<string, unknown> = {}) =>
  work('delete', address, { prior: prior(address), ...extra });

function ledger() {
  const commits: StateChange[] = [];
  const store = {
    commit: (c: StateChange) => {
      commits.push(c);
      return Promise.resolve();
    },
  } as unknown as StateStore;
  return { commits, ledger: new Ledger(emptyState('L'), store) };
}

describe('PendingIntents', () => {
  it('marks a create pending before its step needs it, with what find and recovery need', async () => {
    const { ledger: l } = ledger();
    const intents = new PendingIntents(
      [create('web', { secrets: ['inputs.password', 'outputs.token'], deps: ['net'] })],
      l,
      '2026-01-01T00:00:00.000Z',
    );
    const id = await intents.take(create('web'));
    expect(id).toEqual(expect.any(String));
    expect(l.materialize().pending[id!]).toMatchObject({
      id,
      kind: 'create',
      type: T,
      name: 'web',
      provider: 't',
      inputs: { name: 'web' },
      secrets: ['inputs.password'],
      dependencies: ['net'],
      startedAt: '2026-01-01T00:00:00.000Z',
    });
  });

  it("marks a delete pending with the object's id", async () => {
    const { ledger: l } = ledger();
    const intents = new PendingIntents([del('old')], l, 'S');
    const id = await intents.take(del('old'));
    expect(l.materialize().pending[id!]).toMatchObject({ kind: 'delete', name: 'old', resourceId: 'old-id' });
  });

  it("marks a deposed delete under the deposed object's name and key", async () => {
    const { ledger: l } = ledger();
    const deposed: DeposedObject = { ...prior('web'), id: 'web-old', deposedKey: 'k1', deposedAt: 'T' };
    const intents = new PendingIntents([del('web', { deposed })], l, 'S');
    const id = await intents.take(del('web', { deposed }));
    expect(l.materialize().pending[id!]).toMatchObject({
      kind: 'delete',
      name: 'web',
      resourceId: 'web-old',
      deposedKey: 'k1',
    });
  });

  it('writes nothing for a create whose inputs the plan did not know, nor for an update', async () => {
    const { ledger: l, commits } = ledger();
    const unknownInputs = work('create', 'a');
    const update = work('update', 'b', { inputs: {} });
    const intents = new PendingIntents([unknownInputs, update], l, 'S');
    expect(await intents.take(unknownInputs)).toBeUndefined();
    expect(await intents.take(update)).toBeUndefined();
    expect(commits).toHaveLength(0);
  });

  it('writes 256 marks in one change, and the next chunk ahead of need', async () => {
    const { ledger: l, commits } = ledger();
    const all = Array.from({ length: 600 }, (_, i) => create(`r${i}`));
    const intents = new PendingIntents(all, l, 'S');
    await intents.take(all[0]!);
    await new Promise((r) => setImmediate(r));
    expect(commits.map((c) => c.patches.length - 1)).toEqual([256, 256]); // each change also sets the serial
    await intents.take(all[300]!);
    await new Promise((r) => setImmediate(r));
    expect(commits.map((c) => c.patches.length - 1)).toEqual([256, 256, 88]);
  });

  it('gives each step its own mark', async () => {
    const { ledger: l } = ledger();
    const steps = [create('a'), create('b'), del('c')];
    const intents = new PendingIntents(steps, l, 'S');
    const ids = await Promise.all(steps.map((s) => intents.take(s)));
    expect(new Set(ids).size).toBe(3);
  });

  it('clears at the end the marks of steps that never reached the provider, and only those', async () => {
    const { ledger: l } = ledger();
    const steps = [create('a'), create('b'), create('c')];
    const intents = new PendingIntents(steps, l, 'S');
    const taken = await intents.take(steps[0]!);
    await intents.settle();
    expect(Object.keys(l.materialize().pending)).toEqual([taken]);
  });

  it('writes nothing at the end when nothing was marked', async () => {
    const { ledger: l, commits } = ledger();
    await new PendingIntents([create('a')], l, 'S').settle();
    expect(commits).toHaveLength(0);
  });

  it('keeps a create and a delete of the same address apart', async () => {
    const { ledger: l } = ledger();
    const c = create('web');
    const d = del('web');
    const intents = new PendingIntents([d, c], l, 'S');
    const [dc, cc] = [await intents.take(d), await intents.take(c)];
    const pending = l.materialize().pending;
    expect([pending[dc!]!.kind, pending[cc!]!.kind]).toEqual(['delete', 'create']);
  });
});
