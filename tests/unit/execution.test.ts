// plan/execution.ts buildExecution: each step's nodes and what each waits for, by the rules in its
// opening comment (references first; delete-first replacement; destroys in reverse dependency order;
// destroys after referrers move off; create-first replacement and its propagation; targets). A case
// is drafts in, and out the plan's order with every node as `<kind> <address> after <nodes>`.
import { describe, expect, it } from 'vitest';
import { buildExecution, type Draft } from '../../src/engine/plan/execution.js';
import type { Graph } from '../../src/engine/graph/graph.js';
import type { StepWork } from '../../src/engine/plan/work.js';
import { deposed, rec } from './records.js';

type Spec = {
  readonly action: 'create' | 'update' | 'replace' | 'delete' | 'forget' | 'noop';
  /** Names the declaration references or depends on now. */
  readonly deps?: string[];
  /** Names the recorded object depended on (it has a prior). */
  readonly was?: string[];
  readonly cbd?: boolean;
  readonly retain?: boolean;
  /** An update whose changes are all in the state (options, dependencies). */
  readonly stateOnly?: boolean;
  readonly renamedFrom?: string;
  /** A deposed object left by an earlier create-first replacement, under this key. */
  readonly deposedKey?: string;
};

function draft(address: string, s: Spec, base: number): Draft {
  const declared = !['delete', 'forget'].includes(s.action) && !s.deposedKey;
  const prior =
    s.was || s.action !== 'create' ? rec(s.renamedFrom ?? address, {}, { dependencies: s.was ?? [] }) : undefined;
  return {
    base,
    kind: s.deposedKey ? 'delete-deposed' : s.action,
    step: {
      address,
      type: 't:index/x:X',
      provider: 't',
      action: s.action,
      reasons: [],
      cause: 'new',
      changes: s.stateOnly
        ? [{ path: ['options', 'protect'], before: undefined, after: true, scope: 'state' }]
        : s.action === 'update'
          ? [{ path: ['size'], before: 's', after: 'm' }]
          : [],
      dependsOn: [],
      ...(s.cbd ? { createBeforeDestroy: true } : {}),
    },
    def: {},
    provider: {},
    ...(declared ? { decl: { type: 't:index/x:X', name: address, inputs: {} } } : {}),
    ...(s.deposedKey
      ? { deposed: deposed(address, s.deposedKey, { dependencies: s.was ?? [] }) }
      : prior
        ? { prior }
        : {}),
    ...(prior && !s.deposedKey ? { priorName: s.renamedFrom ?? address } : {}),
    secrets: [],
    deps: s.deps ?? [],
    ...(s.retain ? { retain: true } : {}),
  } as unknown as Draft;
}

/** The graph of the declared drafts (rule 1 and 6). */
function graphOf(specs: Record<string, Spec>): Graph {
  const deps = new Map<string, string[]>();
  const dependents = new Map<string, string[]>();
  for (const [n, s] of Object.entries(specs)) {
    if (['delete', 'forget'].includes(s.action) || s.deposedKey) continue;
    deps.set(n, s.deps ?? []);
    dependents.set(n, dependents.get(n) ?? []);
    for (const d of s.deps ?? []) dependents.set(d, [...(dependents.get(d) ?? []), n]);
  }
  return { deps, dependents };
}

/** Each step's nodes in plan order: '<kind> <address>' with ' after …' (sorted) when it waits. */
function lines(work: readonly StepWork[]): string[][] {
  const label = new Map(work.flatMap((w) => w.nodes.map((n) => [n.id, `${n.kind} ${w.step.address}`] as const)));
  return work.map((w) =>
    w.nodes.map((n) => {
      const after = n.waitFor.map((id) => label.get(id)!).sort();
      return `${n.kind} ${w.step.address}${after.length ? ` after ${after.join(', ')}` : ''}`;
    }),
  );
}

function run(specs: Record<string, Spec>, opts: { targets?: string[]; destroy?: boolean } = {}) {
  let key = 0;
  return buildExecution({
    drafts: Object.entries(specs).map(([a, s], i) => draft(a, s, i)),
    graph: graphOf(specs),
    targets: opts.targets,
    destroy: opts.destroy ?? false,
    newDeposedKey: () => `new${++key}`,
  });
}

const cases: {
  what: string;
  specs: Record<string, Spec>;
  targets?: string[];
  destroy?: boolean;
  expected: string[][];
}[] = [
  {
    what: 'rule 1: a create follows the create of what it references',
    specs: { b: { action: 'create', deps: ['a'] }, a: { action: 'create' } },
    expected: [['create a'], ['create b after create a']],
  },
  {
    what: 'rule 1 through an update and a record',
    specs: {
      a: { action: 'update' },
      b: { action: 'update', deps: ['a'], stateOnly: true },
      c: { action: 'create', deps: ['b'] },
    },
    expected: [['update a'], ['record b after update a'], ['create c after record b']],
  },
  {
    what: 'rule 2: a delete-first replacement deletes, then creates',
    specs: { a: { action: 'replace' } },
    expected: [['delete a', 'create a after delete a']],
  },
  {
    what: 'rule 2 with retainOnDelete: forgets, then creates',
    specs: { a: { action: 'replace', retain: true } },
    expected: [['forget a', 'create a after forget a']],
  },
  {
    what: 'rule 3: removed objects are deleted dependents first',
    specs: {
      a: { action: 'delete', was: [] },
      b: { action: 'delete', was: ['a'] },
      c: { action: 'delete', was: ['b'] },
    },
    expected: [['delete c'], ['delete b after delete c'], ['delete a after delete b']],
  },
  {
    what: 'rule 3 inside replacements: delete b, delete a, create a, create b',
    specs: { a: { action: 'replace', was: [] }, b: { action: 'replace', deps: ['a'], was: ['a'] } },
    expected: [
      ['delete b', 'create b after create a, delete b'],
      ['delete a after delete b', 'create a after delete a'],
    ],
  },
  {
    what: 'rule 4: a removed object is deleted after its referrer moved off it',
    specs: { old: { action: 'delete' }, app: { action: 'update', deps: [], was: ['old'] } },
    expected: [['update app'], ['delete old after update app']],
  },
  {
    what: 'rule 4: a delete-first replacement does not wait for a referrer that still references it',
    specs: { a: { action: 'replace' }, b: { action: 'update', deps: ['a'], was: ['a'] } },
    expected: [['delete a', 'create a after delete a'], ['update b after create a']],
  },
  {
    what: 'rule 5: create-first creates, deposes, and deletes the old object after its dependents moved',
    specs: { a: { action: 'replace', cbd: true }, b: { action: 'update', deps: ['a'], was: ['a'] } },
    expected: [
      ['create-replacement a', 'delete-deposed a after create-replacement a, update b'],
      ['update b after create-replacement a'],
    ],
  },
  {
    what: 'a deposed object left from before: delete-deposed, after what depended on it',
    specs: { a: { action: 'delete', deposedKey: 'k1' }, b: { action: 'delete', was: ['a'] } },
    expected: [['delete b'], ['delete-deposed a after delete b']],
  },
  {
    what: 'a noop has no node and keeps its place; renamed, it records the move',
    specs: { a: { action: 'noop' }, b: { action: 'noop', renamedFrom: 'old-b' }, c: { action: 'create' } },
    expected: [[], ['record b'], ['create c']],
  },
  {
    what: 'rule 6: targets keep what they depend on, not the rest',
    specs: { a: { action: 'create' }, b: { action: 'create', deps: ['a'] }, c: { action: 'create' } },
    targets: ['b'],
    expected: [['create a'], ['create b after create a']],
  },
  {
    what: 'rule 6 in a destroy: a target and every recorded object that depends on it',
    specs: { a: { action: 'delete', was: [] }, b: { action: 'delete', was: ['a'] }, c: { action: 'delete', was: [] } },
    targets: ['a'],
    destroy: true,
    expected: [['delete b'], ['delete a after delete b']],
  },
];

describe('buildExecution', () => {
  for (const c of cases)
    it(c.what, () => {
      const { work, warnings } = run(c.specs, { targets: c.targets, destroy: c.destroy });
      expect(lines(work)).toEqual(c.expected);
      expect(warnings).toEqual([]);
    });

  it('rule 5 propagates create-first to a replaced resource the create-first one depends on', () => {
    const { work } = run({ a: { action: 'replace' }, b: { action: 'replace', cbd: true, deps: ['a'], was: ['a'] } });
    const a = work.find((w) => w.step.address === 'a')!;
    expect(a.step).toMatchObject({ createBeforeDestroy: true, createBeforeDestroyPropagated: true });
    // Read loosely: StepWork is becoming a union on the step kind (issue 24); the field stays.
    expect(work.map((w) => (w as { deposedKey?: string }).deposedKey).sort()).toEqual(['new1', 'new2']);
    expect(lines(work).flat()).toEqual(
      expect.arrayContaining(['create-replacement a', 'create-replacement b after create-replacement a']),
    );
  });

  it("a step that waits for another lists that step's address in dependsOn", () => {
    const { work } = run({ a: { action: 'create' }, b: { action: 'create', deps: ['a'] } });
    expect(work.map((w) => [w.step.address, w.step.dependsOn])).toEqual([
      ['a', []],
      ['b', ['a']],
    ]);
  });
});
