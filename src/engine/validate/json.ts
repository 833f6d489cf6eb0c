// Declarations are plain JSON data: this walk finds every value that is not (BigInt, functions,
// Symbols, Dates, Maps, class instances, NaN, undefined in a list, circular objects, Promises),
// every key JavaScript reserves (`__proto__`, `constructor`), every hand-built reference that is
// malformed, and every literal engine marker in user input.
import { formatPath, parsePath, type PathSegment } from '../values/path.js';
import { preview } from './suggest.js';
import type { IssueFacts } from '../issue.js';

export type ValueIssue = IssueFacts & { readonly path: PathSegment[]; readonly code: string; readonly message: string };

const MAX_DEPTH = 64;
const REF_KEYS = new Set(['@converge', 'resource', 'path']);
/**
 * Keys every JavaScript object already answers to: an own `__proto__` is lost or sets the prototype
 * when copied by assignment, an own `constructor` is read like the inherited function by any code that
 * forgets hasOwnProperty. Refused here, for every provider, rather than left to each schema.
 */
const RESERVED_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor']);
const SIMPLE_PATH = /^[A-Za-z_$][\w$-]*(?:\.[A-Za-z_$][\w$-]*)*$/;

/** Every problem that makes `value` something other than JSON data with well-formed references. */
export function valueIssues(value: unknown): ValueIssue[] {
  const into: ValueIssue[] = [];
  walk(value, [], [], into);
  return into;
}

/** True when `path` is a reference path ('networkId', 'interfaces.eth0.ipv4Address', 'rules[0].id'). */
function isRefPath(path: unknown): path is string {
  if (typeof path !== 'string' || !path || path.length > 1000) return false;
  if (SIMPLE_PATH.test(path)) return true;
  const segs = parsePath(path);
  return segs.length > 0 && typeof segs[0] === 'string' && !segs.includes('*') && formatPath(segs) === path;
}

function kindOf(value: object): string {
  if (typeof (value as { then?: unknown }).then === 'function') return 'a Promise (a missing `await`?)';
  const name = (Object.getPrototypeOf(value) as { constructor?: { name?: string } } | null)?.constructor?.name;
  return name ? `a ${name}` : 'an object that is not plain data';
}

function issue(into: ValueIssue[], at: PathSegment[], code: string, message: string): void {
  into.push({ path: at.slice(), code, message });
}

// `ancestors`: the objects above this value, for the cycle check: a list, not a set, since it is
// never longer than MAX_DEPTH and mostly one or two long (scanning it costs less than hashing).
function walk(value: unknown, at: PathSegment[], ancestors: object[], into: ValueIssue[]): void {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return;
    case 'number':
      if (!Number.isFinite(value)) issue(into, at, 'not_json', `${value} is not a JSON number`);
      return;
    case 'undefined':
      issue(into, at, 'not_json', 'undefined is not JSON data; leave the element out or use null');
      return;
    case 'bigint':
      issue(into, at, 'not_json', `a BigInt (${preview(value)}) is not JSON data; use a number or a string`);
      return;
    case 'symbol':
      issue(into, at, 'not_json', 'a Symbol is not JSON data');
      return;
    case 'function':
      issue(into, at, 'not_json', 'a function is not JSON data (a value was expected)');
      return;
  }
  if (value === null) return;
  const obj = value as object;
  if (ancestors.includes(obj)) return issue(into, at, 'not_json', 'a circular reference is not JSON data');
  if (at.length >= MAX_DEPTH) return issue(into, at, 'not_json', `nested deeper than ${MAX_DEPTH} levels`);
  if (Array.isArray(obj)) {
    ancestors.push(obj);
    for (let i = 0; i < obj.length; i++) {
      at.push(i);
      walk(i in obj ? obj[i] : undefined, at, ancestors, into);
      at.pop();
    }
    ancestors.pop();
    return;
  }
  const proto = Object.getPrototypeOf(obj);
  if ((proto !== Object.prototype && proto !== null) || typeof (obj as { then?: unknown }).then === 'function') {
    return issue(
      into,
      at,
      'not_json',
      `${kindOf(obj)} is not JSON data; give plain objects, lists, strings, numbers, booleans or null`,
    );
  }
  const tag = (obj as Record<string, unknown>)['@converge'];
  // secret(value): the wrapped value is what must be JSON (the wrapper's own symbol key is for util.inspect).
  if (tag === 'secret' && Object.keys(obj).every((k) => k === '@converge' || k === 'value')) {
    ancestors.push(obj);
    at.push('value');
    walk((obj as { value?: unknown }).value, at.slice(0, -1), ancestors, into);
    at.pop();
    ancestors.pop();
    return;
  }
  if (Object.getOwnPropertySymbols(obj).length) return issue(into, at, 'not_json', 'Symbol keys are not JSON data');
  if (tag !== undefined) {
    const problem = taggedProblem(obj as Record<string, unknown>, tag);
    if (problem) issue(into, at, problem[0], problem[1]);
    return;
  }
  ancestors.push(obj);
  const keys = Object.keys(obj);
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i]!;
    let v: unknown;
    at.push(k);
    if (RESERVED_KEYS.has(k)) {
      issue(into, at, 'reserved_key', reservedKeyMessage(k));
      at.pop();
      continue;
    }
    try {
      v = (obj as Record<string, unknown>)[k];
    } catch {
      issue(into, at, 'not_json', 'reading this property threw');
      at.pop();
      continue;
    }
    // An absent key and a key holding undefined are the same declaration, as in JSON; a string or
    // a boolean is data as it is (most inputs): only the rest is walked.
    if (v !== undefined && typeof v !== 'string' && typeof v !== 'boolean') walk(v, at, ancestors, into);
    at.pop();
  }
  ancestors.pop();
}

function reservedKeyMessage(key: string): string {
  const what = key === '__proto__' ? 'its prototype' : 'the function that made it';
  return `'${key}' cannot be a key: JavaScript gives every object a '${key}' (${what}), so no provider could tell this one from it; use another key`;
}

/** What is wrong with a tagged value ({"@converge": ...}), as [code, message], or undefined for a well-formed ref. */
function taggedProblem(obj: Record<string, unknown>, tag: unknown): [string, string] | undefined {
  if (tag === 'unknown')
    return [
      'unknown_marker',
      'the unknown marker {"@converge":"unknown"} is the engine\'s, not an input value; give a value or a ref()',
    ];
  if (tag !== 'ref')
    return ['invalid_reference', `${preview(tag)} is not a converge value tag; use ref(name, path) for references`];
  if (typeof obj.resource !== 'string' || !obj.resource)
    return [
      'invalid_reference',
      'a reference needs `resource`, the name of a declared resource; build it with ref(name, path)',
    ];
  if (!isRefPath(obj.path))
    return [
      'invalid_reference',
      `${preview(obj.path)} is not a reference path like 'networkId' or 'interfaces.eth0.ipv4Address'`,
    ];
  const extra: string[] = [];
  for (const k of Object.keys(obj)) if (!REF_KEYS.has(k)) extra.push(k);
  if (extra.length)
    return [
      'invalid_reference',
      `a reference has only resource and path, not ${extra.map((k) => preview(k)).join(', ')}`,
    ];
  return undefined;
}
