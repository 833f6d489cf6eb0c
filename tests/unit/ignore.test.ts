// src/engine/diff/ignore.ts: at an ignored path the desired value is the prior value.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { applyIgnoreChanges } from '../../src/engine/diff/ignore.js';
import { diffValues } from '../../src/engine/diff/diff.js';
import { parsePath } from '../../src/state/path.js';
import { pathCovers } from '../../src/engine/values/path.js';

describe('applyIgnoreChanges', () => {
  it('takes the prior value at an ignored path', () => {
    expect(applyIgnoreChanges({ size: 2, tags: { a: '1' } }, { size: 1, tags: { a: '0' } }, ['size'])).toEqual({
      size: 1,
      tags: { a: '1' },
    });
  });

  it('takes the prior value at a nested path and keeps its siblings desired', () => {
    expect(applyIgnoreChanges({ tags: { a: '1', b: '2' } }, { tags: { a: '0', b: '0' } }, ['tags.a'])).toEqual({
      tags: { a: '0', b: '2' },
    });
  });

  it('takes every element a wildcard matches from the prior value', () => {
    const desired = { pools: { p1: { size: 5, name: 'x' }, p2: { size: 6, name: 'y' } } };
    const prior = { pools: { p1: { size: 1, name: 'x' }, p2: { size: 2, name: 'y' } } };
    expect(applyIgnoreChanges(desired, prior, ['pools.*.size'])).toEqual({
      pools: { p1: { size: 1, name: 'x' }, p2: { size: 2, name: 'y' } },
    });
  });

  it('takes an indexed list element from the prior value', () => {
    expect(
      applyIgnoreChanges({ rules: [{ port: 80 }, { port: 443 }] }, { rules: [{ port: 8080 }, { port: 443 }] }, [
        'rules[0].port',
      ]),
    ).toEqual({ rules: [{ port: 8080 }, { port: 443 }] });
  });

  it('takes a whole list from the prior value with a wildcard, however long either is', () => {
    expect(applyIgnoreChanges({ ports: [80, 443, 8080] }, { ports: [80] }, ['ports[*]'])).toEqual({ ports: [80] });
    expect(applyIgnoreChanges({ ports: [80] }, { ports: [1, 2] }, ['ports.*'])).toEqual({ ports: [1, 2] });
  });

  it('leaves no undefined element (null on the wire) where the prior list ends', () => {
    const out = applyIgnoreChanges({ rules: [{ p: 1 }, { p: 2 }] }, { rules: [{ p: 9 }] }, ['rules[1]']);
    expect(out).toEqual({ rules: [{ p: 1 }] });
    expect((out.rules as unknown[]).length).toBe(1);
  });

  it('drops a desired key the prior value does not have', () => {
    expect(applyIgnoreChanges({ a: 1, b: 2 }, { b: 2 }, ['a'])).toEqual({ b: 2 });
  });

  it('answers the desired value itself when there is no prior value or no path', () => {
    const desired = { a: 1 };
    expect(applyIgnoreChanges(desired, undefined, ['a'])).toBe(desired);
    expect(applyIgnoreChanges(desired, { a: 2 }, [])).toBe(desired);
    expect(applyIgnoreChanges(desired, { a: 2 }, undefined)).toBe(desired);
  });

  it('does not change its arguments', () => {
    const desired = { t: { a: 1 } };
    const prior = { t: { a: 2 } };
    applyIgnoreChanges(desired, prior, ['t.a']);
    expect(desired).toEqual({ t: { a: 1 } });
    expect(prior).toEqual({ t: { a: 2 } });
  });

  it('treats a key named __proto__ as data and never sets the prototype', () => {
    const out = applyIgnoreChanges({ b: 2 }, JSON.parse('{"__proto__":{"polluted":1},"b":3}'), ['__proto__']);
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect((out as { polluted?: unknown }).polluted).toBeUndefined();
    expect(Object.getOwnPropertyDescriptor(out, '__proto__')?.value).toEqual({ polluted: 1 });
  });

  it('makes no empty object on the way to a path neither side has', () => {
    expect(applyIgnoreChanges({ name: 'x' }, { name: 'x' }, ['tags.owner', 'pools.*.size'])).toEqual({ name: 'x' });
  });

  it('keeps unicode keys', () => {
    expect(applyIgnoreChanges({ é: 1, 日本: 2 }, { é: 0, 日本: 0 }, ['é'])).toEqual({ é: 0, 日本: 2 });
  });

  it('leaves no planned change under an ignored path (law)', () => {
    const obj = fc.dictionary(
      fc.constantFrom('a', 'b', 'c'),
      fc.oneof(fc.integer(), fc.dictionary(fc.constantFrom('x', 'y'), fc.integer())),
    );
    fc.assert(
      fc.property(obj, obj, fc.constantFrom('a', 'b', 'a.x', 'b.y', '*', '*.x'), (desired, prior, ignored) => {
        const out = applyIgnoreChanges(desired, prior, [ignored]);
        const pattern = parsePath(ignored);
        return diffValues(prior, out).every((c) => !pathCovers(pattern, c.path));
      }),
    );
  });
});
