// values/redact.ts redactPaths: secret input paths ('password', 'db.password', 'users[*].key')
// become the sensitive marker, wherever they stand; absent and null values stay as they are.
import { describe, expect, it } from 'vitest';
import { redactPaths } from '../../src/engine/values/redact.js';
import { sensitive } from '../../src/engine/values/secret.js';

const S = sensitive;
const cases: { what: string; value: unknown; paths: string[]; expected: unknown }[] = [
  { what: 'no secret paths: the value as it is', value: { a: 1 }, paths: [], expected: { a: 1 } },
  {
    what: 'a top-level key',
    value: { user: 'u', password: 'p' },
    paths: ['password'],
    expected: { user: 'u', password: S },
  },
  {
    what: 'a nested key',
    value: { db: { host: 'h', password: 'p' } },
    paths: ['db.password'],
    expected: { db: { host: 'h', password: S } },
  },
  { what: 'a whole object', value: { db: { password: 'p' }, n: 1 }, paths: ['db'], expected: { db: S, n: 1 } },
  {
    what: 'every element of a list through a wildcard',
    value: {
      users: [
        { name: 'a', key: 'k1' },
        { name: 'b', key: 'k2' },
      ],
    },
    paths: ['users[*].key'],
    expected: {
      users: [
        { name: 'a', key: S },
        { name: 'b', key: S },
      ],
    },
  },
  {
    what: 'one element by index',
    value: { keys: ['k0', 'k1'] },
    paths: ['keys[1]'],
    expected: { keys: ['k0', S] },
  },
  {
    what: 'every value of a map through a wildcard',
    value: { env: { A: '1', B: '2' } },
    paths: ['env.*'],
    expected: { env: { A: S, B: S } },
  },
  {
    what: 'a path that is absent changes nothing',
    value: { a: 1 },
    paths: ['password', 'db.password'],
    expected: { a: 1 },
  },
  {
    what: 'null stays null (nothing to hide)',
    value: { password: null },
    paths: ['password'],
    expected: { password: null },
  },
  { what: 'a non-string secret (a number) is hidden too', value: { pin: 1234 }, paths: ['pin'], expected: { pin: S } },
  {
    what: 'several paths at once',
    value: { a: 'x', b: { c: 'y' } },
    paths: ['a', 'b.c'],
    expected: { a: S, b: { c: S } },
  },
  { what: 'an undefined value passes through', value: undefined, paths: ['a'], expected: undefined },
];

describe('redactPaths', () => {
  for (const c of cases)
    it(c.what, () => {
      expect(redactPaths(c.value, c.paths)).toEqual(c.expected);
    });

  it('never changes its argument', () => {
    const value = { db: { password: 'p' } };
    redactPaths(value, ['db.password']);
    expect(value).toEqual({ db: { password: 'p' } });
  });
});
