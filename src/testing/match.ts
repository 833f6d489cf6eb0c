// Patterns for the values a plan holds (CDK assertions' Match and Capture): objectLike, arrayWith,
// absent, anyValue, unknown, capture. Each is also an asymmetric matcher vitest and jest understand,
// so it works inside their own toEqual and their diffs print it. `matchValue` is the one comparison:
// plain objects in a pattern match partially (deep, as CDK's objectLike), lists exactly.
import { isUnknown } from '../engine/values/unknown.js';
import { isSensitive } from '../engine/values/secret.js';

const ASYMMETRIC = Symbol.for('jest.asymmetricMatcher');

/** A mismatch found by {@link matchValue}: where, and what was wanted. */
export type Mismatch = {
  /** The path inside the value, e.g. `rules[0].cidr` (empty: the value itself). */
  readonly path: string;
  /** What was wanted there, for people. */
  readonly expected: string;
  /** What was found, for people. */
  readonly actual: string;
};

/** A pattern: matches some values, and names itself in failure messages and diffs. */
export abstract class Pattern {
  /** Read by vitest and jest: this is an asymmetric matcher. */
  readonly $$typeof: symbol = ASYMMETRIC;
  /** The mismatches of `actual` against this pattern at `path` (none: it matches). */
  abstract mismatches(actual: unknown, path: string): Mismatch[];
  /** The pattern as people read it: `objectLike({ size: 3 })`. */
  abstract toString(): string;
  /** vitest's and jest's test: true when `actual` matches. */
  asymmetricMatch(actual: unknown): boolean {
    return this.mismatches(actual, '').length === 0;
  }
  /** What vitest's and jest's diffs print for it. */
  toAsymmetricMatcher(): string {
    return this.toString();
  }
  /** What node's util.inspect (and so node's assert diff) prints for it. */
  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return this.toString();
  }
}

/** A marker drawn in a diff as words (`(known after apply)`), equal to any other. */
class Shown extends Pattern {
  constructor(readonly text: string) {
    super();
  }
  mismatches(): Mismatch[] {
    return [];
  }
  toString(): string {
    return this.text;
  }
}

/**
 * A value as a diff draws it: unknowns and secrets as render() words them, patterns as their text
 * (`asText`: as plain strings, for node's assert, which draws objects without their own inspect).
 */
export function displayView(value: unknown, asText = false): unknown {
  const word = (text: string) => (asText ? text : new Shown(text));
  if (isUnknown(value)) return word('(known after apply)');
  if (isSensitive(value)) return word('(sensitive value)');
  if (value instanceof Pattern) return asText ? value.toString() : value;
  if (Array.isArray(value)) return value.map((v) => displayView(v, asText));
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, displayView(v, asText)]));
  return value;
}

const show = (v: unknown, depth = 0): string => {
  if (v === undefined) return 'absent';
  if (isUnknown(v)) return '(known after apply)';
  if (isSensitive(v)) return '(sensitive)';
  if (v instanceof Pattern) return v.toString();
  if (depth > 8) return '...';
  if (Array.isArray(v)) return `[${v.map((x) => show(x, depth + 1)).join(',')}]`;
  if (v && typeof v === 'object')
    return `{${Object.entries(v)
      .map(([k, x]) => `${JSON.stringify(k)}:${show(x, depth + 1)}`)
      .join(',')}}`;
  if (typeof v === 'bigint') return `${v}n`;
  if (typeof v === 'symbol') return v.toString();
  return typeof v === 'function' ? '[function]' : (JSON.stringify(v) ?? 'undefined');
};

const join = (path: string, key: string | number): string =>
  typeof key === 'number' ? `${path}[${key}]` : path ? `${path}.${key}` : key;

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  !!v && typeof v === 'object' && !Array.isArray(v) && !(v instanceof Pattern) && !isUnknown(v) && !isSensitive(v);

/**
 * The mismatches of `actual` against `expected`: a {@link Pattern} judges by itself; a plain object
 * matches an object holding at least its keys, each matching (deep); a list matches a list of the
 * same length, element by element; anything else must be equal (`Object.is`).
 */
export function matchValue(expected: unknown, actual: unknown, path = ''): Mismatch[] {
  if (expected instanceof Pattern) return expected.mismatches(actual, path);
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return [{ path, expected: show(expected), actual: show(actual) }];
    if (actual.length !== expected.length)
      return [{ path, expected: `a list of ${expected.length}: ${show(expected)}`, actual: show(actual) }];
    return expected.flatMap((e, i) => matchValue(e, actual[i], join(path, i)));
  }
  if (isPlainObject(expected)) {
    if (!isPlainObject(actual)) return [{ path, expected: show(expected), actual: show(actual) }];
    return Object.entries(expected).flatMap(([k, e]) =>
      matchValue(e, Object.prototype.hasOwnProperty.call(actual, k) ? actual[k] : undefined, join(path, k)),
    );
  }
  if (isUnknown(expected)) return isUnknown(actual) ? [] : [{ path, expected: show(expected), actual: show(actual) }];
  return Object.is(expected, actual) ? [] : [{ path, expected: show(expected), actual: show(actual) }];
}

class ObjectLike extends Pattern {
  constructor(readonly pattern: Readonly<Record<string, unknown>>) {
    super();
  }
  mismatches(actual: unknown, path: string): Mismatch[] {
    return matchValue(this.pattern, actual, path);
  }
  toString(): string {
    return `objectLike(${show(this.pattern)})`;
  }
}

class ArrayWith extends Pattern {
  constructor(readonly items: readonly unknown[]) {
    super();
  }
  mismatches(actual: unknown, path: string): Mismatch[] {
    if (!Array.isArray(actual)) return [{ path, expected: this.toString(), actual: show(actual) }];
    // Each item matches a later element than the one before it (CDK's arrayWith: a subsequence).
    let from = 0;
    for (const item of this.items) {
      let found = -1;
      for (let i = from; i < actual.length; i++)
        if (matchValue(item, actual[i]).length === 0) {
          found = i;
          break;
        }
      if (found < 0) return [{ path, expected: `a list with ${show(item)} (in order)`, actual: show(actual) }];
      from = found + 1;
    }
    return [];
  }
  toString(): string {
    return `arrayWith(${show(this.items)})`;
  }
}

class Absent extends Pattern {
  mismatches(actual: unknown, path: string): Mismatch[] {
    return actual === undefined ? [] : [{ path, expected: 'absent', actual: show(actual) }];
  }
  toString(): string {
    return 'absent()';
  }
}

class AnyValue extends Pattern {
  mismatches(actual: unknown, path: string): Mismatch[] {
    return actual === undefined || actual === null ? [{ path, expected: 'any value', actual: show(actual) }] : [];
  }
  toString(): string {
    return 'anyValue()';
  }
}

class UnknownValue extends Pattern {
  mismatches(actual: unknown, path: string): Mismatch[] {
    return isUnknown(actual) ? [] : [{ path, expected: '(known after apply)', actual: show(actual) }];
  }
  toString(): string {
    return 'unknown()';
  }
}

/** A pattern that keeps what it matched: `value` (the last) and `values` (all, in order). */
export class Capture<T = unknown> extends Pattern {
  readonly #values: T[] = [];
  constructor(readonly pattern?: unknown) {
    super();
  }
  mismatches(actual: unknown, path: string): Mismatch[] {
    if (actual === undefined) return [{ path, expected: this.toString(), actual: 'absent' }];
    const found = this.pattern === undefined ? [] : matchValue(this.pattern, actual, path);
    if (!found.length) this.#values.push(actual as T);
    return found;
  }
  /** The last value captured; throws when nothing was. */
  get value(): T {
    if (!this.#values.length) throw new Error('capture(): nothing was captured (the assertion did not reach it)');
    return this.#values[this.#values.length - 1]!;
  }
  /** Every value captured, in order. */
  get values(): readonly T[] {
    return [...this.#values];
  }
  toString(): string {
    return this.pattern === undefined ? 'capture()' : `capture(${show(this.pattern)})`;
  }
}

/**
 * Patterns for inputs, changes and outputs in the matchers' expectations (and in vitest's or jest's
 * own `toEqual`), after CDK assertions' `Match`.
 *
 * @example
 * ```ts
 * import { match } from 'converge/testing';
 *
 * const rule = match.objectLike({ protocol: 'tcp', cidr: match.arrayWith(['0.0.0.0/0']) });
 * const ok = rule.asymmetricMatch({ protocol: 'tcp', cidr: ['10.0.0.0/8', '0.0.0.0/0'], label: 'ssh' }); // true
 * ```
 */
export const match = Object.freeze({
  /** An object with at least these keys, each matching (nested plain objects match partially too). */
  objectLike: (pattern: Readonly<Record<string, unknown>>): Pattern => new ObjectLike(pattern),
  /** A list holding elements matching these, in this order, among others. */
  arrayWith: (items: readonly unknown[]): Pattern => new ArrayWith(items),
  /** No value: the key is missing (or undefined). */
  absent: (): Pattern => new Absent(),
  /** Any value but undefined and null. */
  anyValue: (): Pattern => new AnyValue(),
  /** A value known only after apply (the plan's unknown marker). */
  unknown: (): Pattern => new UnknownValue(),
  /** Any value (or one matching `pattern`), kept in the capture's `value` for later assertions. */
  capture: <T = unknown>(pattern?: unknown): Capture<T> => new Capture<T>(pattern),
});

/**
 * The expected value as a diff should print it: patterns that match are replaced by the actual value
 * (so the diff shows only what differs, as vitest does), the others kept as their text.
 */
export function expectedView(expected: unknown, actual: unknown): unknown {
  if (expected instanceof Capture) return actual === undefined ? expected : actual;
  if (expected instanceof Pattern) {
    if (expected.mismatches(actual, '').length === 0) return actual;
    if (expected instanceof ObjectLike && isPlainObject(actual)) return partialView(expected.pattern, actual);
    return expected;
  }
  if (Array.isArray(expected))
    return expected.map((e, i) => expectedView(e, Array.isArray(actual) ? actual[i] : undefined));
  if (isPlainObject(expected)) return isPlainObject(actual) ? partialView(expected, actual) : expected;
  return expected;
}

/** A partial pattern's view: the actual object with the pattern's keys put over it. */
function partialView(pattern: Readonly<Record<string, unknown>>, actual: Record<string, unknown>): unknown {
  const out: Record<string, unknown> = { ...actual };
  for (const [k, e] of Object.entries(pattern)) {
    const v = expectedView(e, actual[k]);
    if (v === undefined) delete out[k];
    else out[k] = v;
  }
  return out;
}
