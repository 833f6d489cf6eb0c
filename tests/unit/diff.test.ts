// src/engine/diff/diff.ts: prior inputs + desired inputs → the leaf paths that change.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { diffInputs, diffValues } from '../../src/engine/diff/diff.js';
import { unknown } from '../../src/engine/values/unknown.js';

const paths = (before: unknown, after: unknown) => diffValues(before, after).map((c) => c.path);

describe('diffValues', () => {
  it('finds nothing between a value and itself (any JSON value)', () => {
    fc.assert(fc.property(fc.jsonValue(), (v) => diffValues(v, v).length === 0));
  });

  it('finds nothing between a value and a deep copy of it', () => {
    fc.assert(fc.property(fc.jsonValue(), (v) => diffValues(v, structuredClone(v)).length === 0));
  });

  it('finds a change exactly when two JSON values differ', () => {
    fc.assert(
      fc.property(
        fc.jsonValue(),
        fc.jsonValue(),
        (a, b) => diffValues(a, b).length > 0 === !isDeepStrictEqualJson(a, b),
      ),
    );
  });

  it('names the changed leaf with its before and after values', () => {
    expect(diffValues({ a: { b: 1, c: 2 } }, { a: { b: 1, c: 3 } })).toEqual([
      { path: ['a', 'c'], before: 2, after: 3 },
    ]);
  });

  it('names an added key with before undefined and a removed key with after undefined', () => {
    expect(diffValues({ a: 1 }, { a: 1, b: 2 })).toEqual([{ path: ['b'], before: undefined, after: 2 }]);
    expect(diffValues({ a: 1, b: 2 }, { a: 1 })).toEqual([{ path: ['b'], before: 2, after: undefined }]);
  });

  it('treats an undefined key and an absent one as the same', () => {
    expect(diffValues({ a: 1, b: undefined }, { a: 1 })).toEqual([]);
    expect(diffValues({ a: 1 }, { a: 1, b: undefined })).toEqual([]);
  });

  it('compares lists element by element', () => {
    expect(paths({ l: [1, 2, 3] }, { l: [1, 9, 3, 4] })).toEqual([
      ['l', 1],
      ['l', 3],
    ]);
  });

  it('reports a changed type at the path where it changes', () => {
    expect(diffValues({ a: { x: 1 } }, { a: [1] })).toEqual([{ path: ['a'], before: { x: 1 }, after: [1] }]);
    expect(diffValues({ a: null }, { a: {} })).toEqual([{ path: ['a'], before: null, after: {} }]);
  });

  it('always reports an unknown desired value, even at the same place as before', () => {
    expect(diffValues({ ip: 'x' }, { ip: unknown })).toEqual([{ path: ['ip'], before: 'x', after: unknown }]);
    expect(paths(unknown, unknown)).toEqual([[]]);
  });

  it('reports a whole value at the root path', () => {
    expect(diffValues(1, 2)).toEqual([{ path: [], before: 1, after: 2 }]);
  });

  it('finds nothing between two empty objects or lists', () => {
    expect(diffValues({}, {})).toEqual([]);
    expect(diffValues([], [])).toEqual([]);
  });

  it('treats keys named like Object.prototype members as data', () => {
    expect(diffValues({}, { constructor: 'x' })).toEqual([{ path: ['constructor'], before: undefined, after: 'x' }]);
    expect(diffValues({ toString: 'x' }, {})).toEqual([{ path: ['toString'], before: 'x', after: undefined }]);
    expect(paths({}, JSON.parse('{"__proto__":{"a":1}}'))).toEqual([['__proto__']]);
    expect(paths(JSON.parse('{"__proto__":1}'), JSON.parse('{"__proto__":2}'))).toEqual([['__proto__']]);
  });

  it('names unicode keys as they are', () => {
    expect(paths({ 'é.日本': 1 }, { 'é.日本': 2 })).toEqual([['é.日本']]);
  });

  it('diffs a large object in full', () => {
    const before = Object.fromEntries(Array.from({ length: 20_000 }, (_, i) => [`k${i}`, i]));
    const after = { ...before, k19999: -1, k0: -1 };
    expect(paths(before, after)).toEqual([['k0'], ['k19999']]);
  });

  it('does not change its arguments', () => {
    const before = { a: [1, { b: 2 }] };
    const after = { a: [1, { b: 3 }], c: 1 };
    const copies = structuredClone([before, after]);
    diffValues(before, after);
    expect([before, after]).toEqual(copies);
  });
});

describe('diffValues with keyed lists', () => {
  const keyed = { devices: 'name' };

  it('names an element added in the middle by its key, not every later position', () => {
    const before = {
      devices: [
        { name: 'a', x: 1 },
        { name: 'c', x: 3 },
      ],
    };
    const after = {
      devices: [
        { name: 'a', x: 1 },
        { name: 'b', x: 2 },
        { name: 'c', x: 3 },
      ],
    };
    expect(diffValues(before, after, keyed)).toEqual([
      { path: ['devices', 'b'], before: undefined, after: { name: 'b', x: 2 } },
    ]);
  });

  it('names a change inside an element by its key', () => {
    expect(
      diffValues({ devices: [{ name: 'a', x: 1 }] }, { devices: [{ name: 'a', x: 2 }] }, keyed).map((c) => c.path),
    ).toEqual([['devices', 'a', 'x']]);
  });

  it('finds nothing when keyed elements are only reordered', () => {
    expect(
      diffValues({ devices: [{ name: 'a' }, { name: 'b' }] }, { devices: [{ name: 'b' }, { name: 'a' }] }, keyed),
    ).toEqual([]);
  });

  it('falls back to positions when two elements share a key', () => {
    const before = {
      devices: [
        { name: 'a', x: 1 },
        { name: 'a', x: 2 },
      ],
    };
    const after = {
      devices: [
        { name: 'a', x: 1 },
        { name: 'a', x: 3 },
      ],
    };
    expect(diffValues(before, after, keyed).map((c) => c.path)).toEqual([['devices', 1, 'x']]);
  });

  it('falls back to positions when an element has no key', () => {
    expect(diffValues({ devices: [{ x: 1 }] }, { devices: [{ x: 2 }] }, keyed).map((c) => c.path)).toEqual([
      ['devices', 0, 'x'],
    ]);
  });

  it('matches wildcard list paths', () => {
    const before = { pools: { p1: { nodes: [{ id: 1, s: 'a' }] } } };
    const after = {
      pools: {
        p1: {
          nodes: [
            { id: 2, s: 'b' },
            { id: 1, s: 'a' },
          ],
        },
      },
    };
    expect(diffValues(before, after, { 'pools.*.nodes': 'id' }).map((c) => c.path)).toEqual([
      ['pools', 'p1', 'nodes', '2'],
    ]);
  });
});

describe('diffInputs', () => {
  it("uses the definition's keyedLists", () => {
    const def = { keyedLists: { devices: 'name' } };
    expect(
      diffInputs(def, { devices: [{ name: 'a' }] }, { devices: [{ name: 'b' }, { name: 'a' }] }).map((c) => c.path),
    ).toEqual([['devices', 'b']]);
  });

  it('diffs by position for a definition without keyedLists', () => {
    expect(diffInputs({}, { l: [1] }, { l: [2, 1] }).map((c) => c.path)).toEqual([
      ['l', 0],
      ['l', 1],
    ]);
  });
});

function isDeepStrictEqualJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return Object.is(a, b) || a === b;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a).filter((k) => (a as Record<string, unknown>)[k] !== undefined);
  const kb = Object.keys(b).filter((k) => (b as Record<string, unknown>)[k] !== undefined);
  if (Array.isArray(a) && (a as unknown[]).length !== (b as unknown[]).length) return false;
  if (ka.length !== kb.length) return false;
  return ka.every(
    (k) =>
      Object.prototype.hasOwnProperty.call(b, k) &&
      isDeepStrictEqualJson((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]),
  );
}
