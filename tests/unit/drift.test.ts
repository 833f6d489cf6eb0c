// plan/drift.ts findDrift: what refresh found different from the records — changed inputs (recorded
// → found, secret paths as the sensitive marker) or objects gone — sorted by address.
import { describe, expect, it } from 'vitest';
import { findDrift } from '../../src/engine/plan/drift.js';
import { sensitive } from '../../src/engine/values/secret.js';
import type { ResourceState } from '../../src/state/model.js';
import { rec, stateOf } from './records.js';

const web = rec('web', { size: 's', tags: { a: '1' } });
const db = rec('db', { size: 'm', password: 'p1' }, { secrets: ['inputs.password', 'outputs.token'] });
const state = stateOf([web, db]);

const cases: { what: string; refreshed: [string, ResourceState | null][]; expected: unknown[] }[] = [
  { what: 'nothing refreshed: no drift', refreshed: [], expected: [] },
  { what: 'refresh answered the record itself: no drift', refreshed: [['web', web]], expected: [] },
  {
    what: 'the same inputs in a new object: no drift',
    refreshed: [['web', { ...web, inputs: { ...web.inputs } }]],
    expected: [],
  },
  {
    what: 'changed inputs, recorded → found',
    refreshed: [['web', { ...web, inputs: { size: 'l', tags: { a: '1', b: '2' } } }]],
    expected: [
      {
        address: 'web',
        type: web.type,
        id: web.id,
        action: 'update',
        changes: [
          { path: 'size', before: 's', after: 'l' },
          { path: 'tags.b', before: undefined, after: '2' },
        ],
      },
    ],
  },
  {
    what: 'only outputs changed: no drift (drift is about inputs)',
    refreshed: [['web', { ...web, outputs: { address: 'new' } }]],
    expected: [],
  },
  {
    what: 'gone outside converge',
    refreshed: [['db', null]],
    expected: [{ address: 'db', type: db.type, id: db.id, action: 'delete', changes: [] }],
  },
  {
    what: 'a changed secret input shows as the sensitive marker on both sides',
    refreshed: [['db', { ...db, inputs: { size: 'm', password: 'p2' } }]],
    expected: [
      {
        address: 'db',
        type: db.type,
        id: db.id,
        action: 'update',
        changes: [{ path: 'password', before: sensitive, after: sensitive }],
      },
    ],
  },
  {
    what: 'a secret input removed outside: the marker before, nothing after',
    refreshed: [['db', { ...db, inputs: { size: 'm' } }]],
    expected: [
      {
        address: 'db',
        type: db.type,
        id: db.id,
        action: 'update',
        changes: [{ path: 'password', before: sensitive, after: undefined }],
      },
    ],
  },
  { what: 'a refreshed name the state does not hold is not drift', refreshed: [['ghost', null]], expected: [] },
  {
    what: 'sorted by address whatever the refresh order',
    refreshed: [
      ['web', null],
      ['db', null],
    ],
    expected: [
      { address: 'db', type: db.type, id: db.id, action: 'delete', changes: [] },
      { address: 'web', type: web.type, id: web.id, action: 'delete', changes: [] },
    ],
  },
];

describe('findDrift', () => {
  for (const c of cases)
    it(c.what, () => {
      expect(findDrift(state, new Map(c.refreshed))).toEqual(c.expected);
    });
});
