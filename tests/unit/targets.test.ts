// plan/targets.ts: names in targets, exclude and replace must name something (a typo gets the
// closest name), and an exclude list becomes the targets that keep everything else — in a plan
// without the excluded resources and what depends on them, in a destroy without them and what they
// depend on.
import { describe, expect, it } from 'vitest';
import { targetsExcluding, unknownNames } from '../../src/engine/plan/targets.js';
import { buildGraph } from '../../src/engine/graph/graph.js';
import type { ResourceDecl } from '../../src/engine/decl/resource-decl.js';
import { ref } from 'converge';
import { rec, stateOf } from './records.js';

const decl = (name: string, inputs: Record<string, unknown> = {}, dependsOn?: string[]): ResourceDecl => ({
  type: 't:index/x:X',
  name,
  inputs,
  ...(dependsOn ? { options: { dependsOn } } : {}),
});

// net <- db <- app (by reference), web dependsOn app; cache alone; old is only in the state and depended on db.
const decls = [
  decl('net'),
  decl('db', { net: ref('net', 'id') }),
  decl('app', { db: ref('db', 'address') }),
  decl('web', {}, ['app']),
  decl('cache'),
];
const state = stateOf([rec('net'), rec('db', {}, { dependencies: ['net'] }), rec('old', {}, { dependencies: ['db'] })]);
const graph = buildGraph(decls);

const cases: { what: string; exclude: string[]; within?: string[]; destroy?: boolean; expected: string[] }[] = [
  { what: 'a leaf: everything else', exclude: ['web'], expected: ['net', 'db', 'app', 'cache', 'old'] },
  {
    what: 'a resource and what depends on it, by reference and dependsOn',
    exclude: ['app'],
    expected: ['net', 'db', 'cache', 'old'],
  },
  { what: 'a recorded dependency counts (old depended on db)', exclude: ['db'], expected: ['net', 'cache'] },
  { what: 'the root excludes its whole chain', exclude: ['net'], expected: ['cache'] },
  { what: 'several at once', exclude: ['web', 'cache'], expected: ['net', 'db', 'app', 'old'] },
  {
    what: 'inside given targets only',
    exclude: ['app'],
    within: ['db', 'app', 'web', 'cache'],
    expected: ['db', 'cache'],
  },
  {
    what: 'destroy: what it depends on is kept too',
    exclude: ['app'],
    destroy: true,
    expected: ['web', 'cache', 'old'],
  },
  {
    what: 'destroy: a recorded dependency is kept (old needs db, db needs net)',
    exclude: ['old'],
    destroy: true,
    expected: ['app', 'web', 'cache'],
  },
  {
    what: 'destroy: a leaf of nothing',
    exclude: ['cache'],
    destroy: true,
    expected: ['net', 'db', 'app', 'web', 'old'],
  },
];

describe('targetsExcluding', () => {
  for (const c of cases)
    it(c.what, () => {
      expect(targetsExcluding(c.exclude, c.within, decls, state, graph, c.destroy ?? false)).toEqual(c.expected);
    });
});

describe('unknownNames', () => {
  const known = new Set(['web', 'database', 'cache']);
  const rows: { what: string; names: unknown[]; expected: unknown[] }[] = [
    { what: 'known names: no issue', names: ['web', 'cache'], expected: [] },
    {
      what: 'a swapped pair suggests the name',
      names: ['wbe'],
      expected: [['wbe', 'targets.0', 'unknown_name', 'web']],
    },
    {
      what: 'a missing letter suggests the name',
      names: ['databse'],
      expected: [['databse', 'targets.0', 'unknown_name', 'database']],
    },
    {
      what: 'another case suggests the name',
      names: ['Cache'],
      expected: [['Cache', 'targets.0', 'unknown_name', 'cache']],
    },
    {
      what: 'nothing near: no suggestion',
      names: ['zzzzzz'],
      expected: [['zzzzzz', 'targets.0', 'unknown_name', undefined]],
    },
    {
      what: 'not a name',
      names: ['web', 3, ''],
      expected: [
        ['', 'targets.1', 'invalid_type', undefined],
        ['', 'targets.2', 'invalid_type', undefined],
      ],
    },
  ];
  for (const r of rows)
    it(r.what, () => {
      const issues = unknownNames('targets', r.names, known, 'in the stack');
      expect(issues.map((i) => [i.resource, i.path.join('.'), i.code, i.suggestion])).toEqual(r.expected);
    });

  it('says what the name was looked for in, with the suggestion', () => {
    const [issue] = unknownNames('replace', ['wbe'], known, 'in the stack');
    expect(issue!.message).toBe("'wbe' names nothing in the stack; did you mean 'web'?");
  });
});
