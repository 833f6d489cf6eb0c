// plan/orphans.ts planOrphans: every recorded object no declaration claims, and every deposed
// object, becomes a step — delete, or forget when retainOnDelete or already gone — and a protected
// one about to be deleted is a hit; a type no provider serves is an issue. Secret inputs never show.
import { describe, expect, it } from 'vitest';
import { planOrphans } from '../../src/engine/plan/orphans.js';
import { sensitive } from '../../src/engine/values/secret.js';
import type { Resolved } from '../../src/engine/provider/define.js';
import type { DeposedObject, ResourceState } from '../../src/state/model.js';
import { deposed, rec, stateOf } from './records.js';

const served: Resolved = { def: { token: 't:index/x:X' }, provider: { name: 't' } } as unknown as Resolved;
const resolve = (token: string) => (token === 't:index/x:X' ? served : undefined);

type Case = {
  readonly what: string;
  readonly resources: ResourceState[];
  readonly deposed?: Record<string, DeposedObject>;
  readonly claimed?: string[];
  readonly refreshed?: [string, ResourceState | null][];
  /** address action cause (deposedKey) for each step, in order. */
  readonly steps: string[];
  readonly hits?: string[];
  readonly issues?: string[];
};

const cases: Case[] = [
  { what: 'everything claimed: nothing', resources: [rec('a'), rec('b')], claimed: ['a', 'b'], steps: [] },
  {
    what: 'removed from the stack: a delete',
    resources: [rec('a'), rec('b')],
    claimed: ['a'],
    steps: ['b delete removed'],
  },
  {
    what: 'a destroy: every record, in state order',
    resources: [rec('a'), rec('b')],
    steps: ['a delete removed', 'b delete removed'],
  },
  {
    what: 'retainOnDelete: a forget',
    resources: [rec('a', {}, { options: { retainOnDelete: true } })],
    steps: ['a forget retained'],
  },
  {
    what: 'gone outside converge: a forget',
    resources: [rec('a')],
    refreshed: [['a', null]],
    steps: ['a forget gone'],
  },
  {
    what: 'protected: a delete and a hit',
    resources: [rec('a', {}, { options: { protect: true } })],
    steps: ['a delete removed'],
    hits: ['a delete'],
  },
  {
    what: 'protected but retained: no hit (nothing is deleted)',
    resources: [rec('a', {}, { options: { protect: true, retainOnDelete: true } })],
    steps: ['a forget retained'],
    hits: [],
  },
  {
    what: 'protected but already gone: no hit',
    resources: [rec('a', {}, { options: { protect: true } })],
    refreshed: [['a', null]],
    steps: ['a forget gone'],
    hits: [],
  },
  {
    what: 'a deposed object: a delete of it by key, also when its name is claimed',
    resources: [rec('a')],
    claimed: ['a'],
    deposed: { k1: deposed('a', 'k1') },
    steps: ['a delete deposed k1'],
  },
  {
    what: 'a type no provider serves: an issue, no step',
    resources: [rec('a', {}, { type: 'gone:index/y:Y' }), rec('b')],
    steps: ['b delete removed'],
    issues: ['a type unknown_type'],
  },
  {
    what: 'a deposed object of a type no provider serves: an issue under its name',
    resources: [],
    deposed: { k1: deposed('a', 'k1', { type: 'gone:index/y:Y' }) },
    steps: [],
    issues: ['a type unknown_type'],
  },
];

describe('planOrphans', () => {
  for (const c of cases)
    it(c.what, () => {
      const out = planOrphans({
        state: stateOf(c.resources, c.deposed),
        claimed: new Set(c.claimed ?? []),
        refreshed: new Map(c.refreshed ?? []),
        resolve,
        base: 0,
      });
      expect(
        out.drafts.map((d) =>
          [d.step.address, d.step.action, d.step.cause, d.step.deposedKey].filter(Boolean).join(' '),
        ),
      ).toEqual(c.steps);
      if (c.hits) expect(out.protectedHits.map((h) => `${h.address} ${h.action}`)).toEqual(c.hits);
      expect(out.issues.map((i) => `${i.resource} ${i.path.join('.')} ${i.code}`)).toEqual(c.issues ?? []);
    });

  it('numbers drafts from base, records, then deposed objects', () => {
    const out = planOrphans({
      state: stateOf([rec('a'), rec('b')], { k: deposed('c', 'k') }),
      claimed: new Set(),
      refreshed: new Map(),
      resolve,
      base: 10,
    });
    expect(out.drafts.map((d) => [d.step.address, d.base])).toEqual([
      ['a', 10],
      ['b', 11],
      ['c', 12],
    ]);
  });

  it('shows the recorded inputs before, secret ones as the marker; nothing after; the refreshed object as prior', () => {
    const recorded = rec('a', { user: 'u', password: 'p' }, { secrets: ['inputs.password'] });
    const seen = { ...recorded, outputs: { address: 'x' } };
    const [d] = planOrphans({
      state: stateOf([recorded]),
      claimed: new Set(),
      refreshed: new Map([['a', seen]]),
      resolve,
      base: 0,
    }).drafts;
    expect(d!.step).toMatchObject({
      before: { user: 'u', password: sensitive },
      after: undefined,
      id: 'id-a',
      dependsOn: [],
    });
    // Read loosely: the draft type is becoming a union on the step kind (issue 24); the fields stay.
    const facts = d as unknown as { prior?: unknown; priorName?: string };
    expect(facts.prior).toBe(seen);
    expect(facts.priorName).toBe('a');
    expect(d!.secrets).toEqual(['inputs.password']);
    expect(d!.def).toBe(served.def);
  });
});
