// src/state/path.ts (the grammar) and src/engine/values/path.ts (format, read, match, map).
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parsePath, type PathSegment } from '../../src/state/path.js';
import { formatPath, formatPathExact, getPath, mapPath, pathCovers } from '../../src/engine/values/path.js';

const key = fc.oneof(
  fc.string(),
  fc.constantFrom('__proto__', 'constructor', 'toString', '*', '0', 'a.b', 'x["y"]', 'é', '日本', '\u2028', '\\'),
);
const segment: fc.Arbitrary<PathSegment> = fc.oneof(key, fc.nat({ max: 1_000_000 }));

describe('parsePath', () => {
  it('reads dotted keys', () => {
    expect(parsePath('interfaces.eth0.ipv4Address')).toEqual(['interfaces', 'eth0', 'ipv4Address']);
  });

  it('reads bracketed indexes as numbers', () => {
    expect(parsePath('rules[0].cidrs[12]')).toEqual(['rules', 0, 'cidrs', 12]);
  });

  it('reads a wildcard, bare or bracketed, as "*"', () => {
    expect(parsePath('pools.*.size')).toEqual(['pools', '*', 'size']);
    expect(parsePath('pools[*].size')).toEqual(['pools', '*', 'size']);
  });

  it('reads a quoted key holding dots and brackets as one segment', () => {
    expect(parsePath('config["user.token"]')).toEqual(['config', 'user.token']);
    expect(parsePath('a["[0]"].b')).toEqual(['a', '[0]', 'b']);
  });

  it('reads JSON escapes inside a quoted key', () => {
    expect(parsePath('a["say \\"hi\\""]')).toEqual(['a', 'say "hi"']);
  });

  it('reads a bracketed non-number as a string key', () => {
    expect(parsePath('a[x]')).toEqual(['a', 'x']);
  });

  it('gives no segments for the empty path', () => {
    expect(parsePath('')).toEqual([]);
  });

  it('keeps unicode and prototype-like names as plain keys', () => {
    expect(parsePath('__proto__.constructor.日本')).toEqual(['__proto__', 'constructor', '日本']);
  });

  it('keeps a dotted digit as a string key (only brackets make an index)', () => {
    expect(parsePath('a.0')).toEqual(['a', '0']);
  });

  it('reads a long path in full', () => {
    const segs = Array.from({ length: 5000 }, (_, i) => (i % 2 ? i : `k${i}`));
    expect(parsePath(formatPath(segs))).toEqual(segs);
  });
});

describe('formatPath', () => {
  it('writes keys with dots and indexes in brackets', () => {
    expect(formatPath(['rules', 0, 'cidrs'])).toBe('rules[0].cidrs');
  });

  it('writes a leading index without a dot', () => {
    expect(formatPath([0, 'a'])).toBe('[0].a');
  });

  it('writes the empty path as the empty string', () => {
    expect(formatPath([])).toBe('');
  });
});

describe('formatPathExact', () => {
  it('quotes keys holding dots, brackets or quotes', () => {
    expect(formatPathExact(['config', 'user.token'])).toBe('config["user.token"]');
  });

  it('quotes the empty key', () => {
    expect(formatPathExact(['a', ''])).toBe('a[""]');
  });

  it('parses back to the same segments (round trip)', () => {
    fc.assert(
      fc.property(fc.array(segment, { maxLength: 8 }), (segs) => {
        expect(parsePath(formatPathExact(segs))).toEqual(segs);
      }),
    );
  });

  it('equals formatPath when no key needs quoting', () => {
    const plain = fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]*$/);
    fc.assert(
      fc.property(fc.array(fc.oneof(plain, fc.nat()), { maxLength: 8 }), (segs) => {
        expect(formatPathExact(segs)).toBe(formatPath(segs));
      }),
    );
  });
});

describe('getPath', () => {
  it('reads nested keys and indexes', () => {
    expect(getPath({ a: [{ b: 1 }, { b: 2 }] }, ['a', 1, 'b'])).toBe(2);
  });

  it('answers the value itself for the empty path', () => {
    const v = { a: 1 };
    expect(getPath(v, [])).toBe(v);
  });

  it('answers undefined when a step is missing or not an object', () => {
    expect(getPath({ a: 1 }, ['b'])).toBeUndefined();
    expect(getPath({ a: 1 }, ['a', 'b'])).toBeUndefined();
    expect(getPath(null, ['a'])).toBeUndefined();
  });

  it('reads own keys only, never the prototype', () => {
    expect(getPath({}, ['constructor'])).toBeUndefined();
    expect(getPath({}, ['__proto__'])).toBeUndefined();
    expect(getPath(JSON.parse('{"__proto__":{"x":1}}'), ['__proto__', 'x'])).toBe(1);
  });
});

describe('pathCovers', () => {
  it('covers an equal path and every path below it', () => {
    expect(pathCovers(['a', 'b'], ['a', 'b'])).toBe(true);
    expect(pathCovers(['a'], ['a', 'b', 0])).toBe(true);
  });

  it('does not cover a shorter or a different path', () => {
    expect(pathCovers(['a', 'b'], ['a'])).toBe(false);
    expect(pathCovers(['a', 'c'], ['a', 'b'])).toBe(false);
  });

  it('lets "*" match any one key or index', () => {
    expect(pathCovers(['pools', '*', 'size'], ['pools', 3, 'size'])).toBe(true);
    expect(pathCovers(['pools', '*', 'size'], ['pools', 'x', 'size'])).toBe(true);
  });

  it('matches an index and its string form alike', () => {
    expect(pathCovers(['a', 0], ['a', '0'])).toBe(true);
  });

  it('is covered by the empty pattern, always', () => {
    fc.assert(fc.property(fc.array(segment), (p) => pathCovers([], p)));
  });

  it('covers every path by itself (reflexive)', () => {
    fc.assert(fc.property(fc.array(segment), (p) => pathCovers(p, p)));
  });
});

describe('mapPath', () => {
  it('applies fn at the path and copies the rest', () => {
    const v = { a: { b: 1, c: 2 } };
    const out = mapPath(v, ['a', 'b'], (x) => (x as number) + 10);
    expect(out).toEqual({ a: { b: 11, c: 2 } });
    expect(v).toEqual({ a: { b: 1, c: 2 } });
  });

  it('applies fn to every element a wildcard matches', () => {
    expect(mapPath({ l: [{ s: 1 }, { s: 2 }] }, ['l', '*', 's'], () => 'x')).toEqual({ l: [{ s: 'x' }, { s: 'x' }] });
  });

  it('leaves a value without the path unchanged', () => {
    expect(mapPath({ a: 1 }, ['b', 'c'], () => 'x')).toEqual({ a: 1 });
    expect(mapPath('leaf', ['a'], () => 'x')).toBe('leaf');
  });

  it('applies fn to the whole value for the empty path', () => {
    expect(mapPath(1, [], (x) => [x])).toEqual([1]);
  });
});
