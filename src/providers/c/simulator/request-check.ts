// The Gcore simulator refuses what Gcore's OpenAPI specs refuse: every routed request's path and
// query parameters and JSON body are checked against request-schemas.ts (generated from the specs)
// with Ajv, before the route's own checks and handler, and a violation is answered 400 in the API
// family's shape, naming each field. Validators are compiled on a route's first request and kept.
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { SimRequest, SimResponse } from '../../../kit/sim/router.js';
import { cdnFieldErrors, cloudInvalidFields } from './answers.js';
import { REQUEST_DEFS, REQUEST_SCHEMAS, type JsonSchema, type RequestSchema } from './request-schemas.js';
import { SPEC_FORMATS } from './spec-formats.js';

/** A refused field: dotted path from the body's root ('options.cors.value'), or a parameter's name. */
type RequestIssue = { readonly field: string; readonly message: string };
/** The JSON-schema keyword that refused it, to choose among alternatives and between messages. */
type Found = RequestIssue & { readonly keyword: string };

/**
 * Two validators, made on first use and shared by every simulator of the process: they hold only
 * compiled functions of the committed schemas, nothing a test or a request can change. Bodies are
 * checked as sent; parameters travel as text, so theirs converts ('10' to 10, one value to a list).
 */
let validators: { readonly body: Ajv; readonly params: Ajv } | undefined;
const compiled = new Map<string, { path?: ValidateFunction; query?: ValidateFunction; body?: ValidateFunction }>();

/**
 * Every error (allErrors), with its schema and value (verbose: alternatives are checked again on
 * their own). Shared definitions are compiled once as functions of their own rather than inlined
 * in each route (inlineRefs: false), and the generated code is not optimised: all 17 bodies then
 * compile in about 0.3 s instead of 1.5-2 s (a CDN resource's PUT in 0.03 s instead of 0.5 s; on a
 * busy machine), at no cost a simulator notices. The generated schemas are
 * not checked against the JSON-Schema meta-schema (compiling it costs the first request 0.1 s) nor
 * held to Ajv's strict mode: the generator refuses keywords it does not know.
 */
function makeAjv(coerce: boolean): Ajv {
  const ajv = new Ajv({
    allErrors: true,
    verbose: true,
    inlineRefs: false,
    code: { optimize: false },
    strict: false,
    validateSchema: false,
    logger: false,
    coerceTypes: coerce && 'array',
  });
  addFormats(ajv);
  for (const [name, re] of Object.entries(SPEC_FORMATS)) ajv.addFormat(name, re);
  return ajv;
}

function validatorsOf(key: string, s: RequestSchema) {
  validators ??= (() => {
    const body = makeAjv(false);
    for (const [api, defs] of Object.entries(REQUEST_DEFS)) body.addSchema({ $id: api, $defs: defs });
    return { body, params: makeAjv(true) };
  })();
  let v = compiled.get(key);
  if (!v) {
    const { body, params } = validators;
    v = {
      path: s.path && params.compile(s.path.schema),
      query: s.query && params.compile(s.query.schema),
      body: s.body && body.compile(s.body.schema),
    };
    compiled.set(key, v);
  }
  return { ...v, bodyAjv: validators.body, paramsAjv: validators.params };
}

/** Checks a request to the route `method routePath` (the table's path, no prefix); undefined when it passes or the route has no schema. */
export function checkRequest(req: SimRequest, method: string, routePath: string): SimResponse | undefined {
  const key = `${method} ${routePath}`;
  const s = REQUEST_SCHEMAS[key];
  if (!s) return undefined;
  if (typeof req.body === 'string' && !isJson(req.rawBody))
    return s.api === 'cdn'
      ? { status: 400, body: { message: 'JSON parse error - Expecting value: line 1 column 1 (char 0)' } }
      : cloudInvalidFields({ body: ['Invalid JSON body'] });
  const issues = requestIssues(req, key, s, routePath);
  if (!issues.length) return undefined;
  const fields: Record<string, string[]> = {};
  for (const i of issues) (fields[i.field] ??= []).push(i.message);
  return s.api === 'cdn' ? cdnFieldErrors(fields) : cloudInvalidFields(fields);
}

function isJson(raw: Buffer): boolean {
  try {
    JSON.parse(raw.toString('utf8'));
    return true;
  } catch {
    return false;
  }
}

function requestIssues(req: SimRequest, key: string, s: RequestSchema, routePath: string): Found[] {
  const v = validatorsOf(key, s);
  const issues: Found[] = [];
  if (s.path && v.path) {
    const routeNames = [...routePath.matchAll(/:([A-Za-z_]+)/g)].map((m) => m[1]!);
    const values = Object.fromEntries(s.path.names.map((n, i) => [n, req.params[routeNames[i]!]]));
    issues.push(...issuesOf(v.paramsAjv, v.path, values, ''));
  }
  if (s.query && v.query) {
    const values: Record<string, unknown> = {};
    const props = Object.keys((s.query.schema as { properties?: object }).properties ?? {});
    for (const name of props) {
      const all = req.query.getAll(name);
      if (!all.length) continue;
      if (s.query.json?.includes(name)) {
        try {
          values[name] = JSON.parse(all.at(-1)!);
        } catch {
          issues.push({ field: name, message: 'Value must be valid JSON.', keyword: 'contentMediaType' });
        }
      } else if (s.query.csv?.includes(name)) values[name] = all.flatMap((a) => a.split(','));
      else values[name] = s.query.arrays.includes(name) ? all : all.at(-1);
    }
    issues.push(...issuesOf(v.paramsAjv, v.query, values, ''));
  }
  if (s.body && v.body && (req.body !== undefined || s.body.required))
    issues.push(...issuesOf(v.bodyAjv, v.body, req.body ?? {}, ''));
  return issues;
}

/** One issue per refused field: where alternatives (anyOf) all fail, the errors of the closest one. */
function issuesOf(ajv: Ajv, validate: ValidateFunction, value: unknown, at: string): Found[] {
  if (validate(value)) return [];
  const errors = [...(validate.errors ?? [])];
  const alternatives = errors.filter((e) => e.keyword === 'anyOf');
  // An anyOf's own errors and its branches' are replaced by the closest branch's, checked again on their own.
  const outer = alternatives.filter(
    (a) => !alternatives.some((b) => b !== a && a.instancePath.startsWith(`${b.instancePath}/`)),
  );
  // A propertyNames error repeats the key's own error (which carries the key as `propertyName`).
  const kept = errors.filter(
    (e) => e.keyword !== 'propertyNames' && !outer.some((a) => within(e.instancePath, a.instancePath)),
  );
  const issues = kept.map((e) => issueOf(e, at));
  for (const a of outer) issues.push(...closestBranch(ajv, a, `${at}${a.instancePath}`));
  return pickPerField(issues);
}

const within = (path: string, root: string) => path === root || path.startsWith(`${root}/`);

const branchCache = new WeakMap<object, ValidateFunction[]>();
function closestBranch(ajv: Ajv, e: ErrorObject, at: string): Found[] {
  const parent = e.parentSchema as Record<string, unknown>;
  let branches = branchCache.get(parent);
  if (!branches) {
    const { anyOf, ...rest } = parent;
    branches = (anyOf as JsonSchema[]).map((b) => ajv.compile({ allOf: [rest, b] }));
    branchCache.set(parent, branches);
  }
  const tried = branches.map((b) => issuesOf(ajv, b, e.data, at));
  // A branch of the wrong type for the value is the farthest; then the one with the fewest complaints.
  const score = (issues: Found[]) =>
    issues.length + issues.filter((i) => i.field === fieldOf(at) && i.keyword === 'type').length * 100;
  return tried.reduce((best, t) => (score(t) < score(best) ? t : best));
}

const fieldOf = (pointer: string) =>
  pointer
    .split('/')
    .filter(Boolean)
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'))
    .join('.') || 'non_field_errors';

function issueOf(e: ErrorObject, at: string): Found {
  const p = e.params as Record<string, unknown>;
  const child = (p.missingProperty ?? p.additionalProperty ?? e.propertyName) as string | undefined;
  const field = fieldOf(`${at}${e.instancePath}${child !== undefined ? `/${String(child)}` : ''}`);
  return { field, message: messageOf(e), keyword: e.keyword };
}

// Django REST framework's wording (the CDN API is a DRF service; the Cloud API words its own alike).
function messageOf(e: ErrorObject): string {
  const p = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case 'required':
      return 'This field is required.';
    case 'additionalProperties':
      return 'Unknown field.';
    case 'type':
      return e.data === null ? NOT_NULL : (TYPE_MESSAGES[String(p.type).split(',')[0]!] ?? 'Invalid type.');
    case 'enum':
    case 'const':
      return `"${String(e.data)}" is not a valid choice.`;
    case 'pattern':
      return `This value does not match the required pattern ${String(p.pattern)}.`;
    case 'format':
      return `Enter a valid ${String(p.format)}.`;
    case 'minLength':
      return `Ensure this field has at least ${String(p.limit)} characters.`;
    case 'maxLength':
      return `Ensure this field has no more than ${String(p.limit)} characters.`;
    case 'minimum':
    case 'exclusiveMinimum':
    case 'maximum':
    case 'exclusiveMaximum':
      return `Ensure this value is ${String(p.comparison).replace('>=', 'greater than or equal to').replace('<=', 'less than or equal to').replace('>', 'greater than').replace('<', 'less than')} ${String(p.limit)}.`;
    case 'minItems':
      return `Ensure this field has at least ${String(p.limit)} elements.`;
    case 'maxItems':
      return `Ensure this field has no more than ${String(p.limit)} elements.`;
    case 'uniqueItems':
      return 'Items must be unique.';
    default:
      return `Invalid value (${e.keyword}).`;
  }
}

const NOT_NULL = 'This field may not be null.';
const TYPE_MESSAGES: Readonly<Record<string, string>> = {
  integer: 'A valid integer is required.',
  number: 'A valid number is required.',
  boolean: 'Must be a valid boolean.',
  string: 'Not a valid string.',
  array: 'Expected a list of items.',
  object: 'Expected a dictionary of items.',
  null: 'This field must be null.',
};

/** The most telling issues per field: a type mismatch only where nothing more precise is said. */
function pickPerField(issues: Found[]): Found[] {
  const byField = new Map<string, Found[]>();
  for (const i of issues) byField.set(i.field, [...(byField.get(i.field) ?? []), i]);
  return [...byField.values()].flatMap((list) => {
    const precise = list.filter((i) => i.keyword !== 'type' || i.message === NOT_NULL);
    const chosen = precise.length ? precise : list.slice(0, 1);
    return chosen.filter((i, n) => chosen.findIndex((j) => j.message === i.message) === n);
  });
}
