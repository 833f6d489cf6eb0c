// src/kit/wire.ts: wire bodies carry only what was set; URL paths are filled by name.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { defined, fillPath } from '../../src/kit/wire.js';

describe('defined', () => {
  it('drops undefined values and keeps null, false, 0 and empty strings', () => {
    expect(defined({ a: undefined, b: null, c: false, d: 0, e: '' })).toEqual({ b: null, c: false, d: 0, e: '' });
    expect(Object.keys(defined({ a: undefined, b: 1 }))).toEqual(['b']);
  });

  it('answers an empty object for an empty one', () => {
    expect(defined({})).toEqual({});
  });

  it('keeps a __proto__ key as data, never as the prototype', () => {
    const out = defined(JSON.parse('{"__proto__":{"polluted":1},"x":1}') as Record<string, unknown>);
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect((out as { polluted?: unknown }).polluted).toBeUndefined();
  });

  it('does not change its argument', () => {
    const o = { a: undefined, b: 1 };
    defined(o);
    expect('a' in o).toBe(true);
  });
});

describe('fillPath', () => {
  it('fills each parameter by name', () => {
    expect(fillPath('/v2/networks/{network}/instances/{id}', { id: 'abc', network: 'n1' })).toBe(
      '/v2/networks/n1/instances/abc',
    );
  });

  it('escapes values, so a name cannot change the path', () => {
    expect(fillPath('/instances/{name}', { name: '../admin?x=1#' })).toBe('/instances/..%2Fadmin%3Fx%3D1%23');
  });

  it('escapes unicode values', () => {
    expect(fillPath('/x/{n}', { n: 'é 日本' })).toBe('/x/%C3%A9%20%E6%97%A5%E6%9C%AC');
  });

  it('fills numbers', () => {
    expect(fillPath('/rules/{i}', { i: 0 })).toBe('/rules/0');
  });

  it('leaves a template without parameters as it is', () => {
    expect(fillPath('/v2/regions')).toBe('/v2/regions');
  });

  it('refuses a missing parameter with a TypeError before any request', () => {
    expect(() => fillPath('/instances/{id}', {})).toThrow(TypeError);
  });

  it('does not take a parameter from the prototype', () => {
    expect(() => fillPath('/x/{constructor}', {})).toThrow(TypeError);
  });

  it('gives back the value for any string (decode of the filled segment)', () => {
    fc.assert(fc.property(fc.string(), (v) => decodeURIComponent(fillPath('/{v}', { v }).slice(1)) === v));
  });
});
