// The vendor's OpenAPI specs (../shared/specs/gcore) as validators (openapi-backend, which runs ajv):
// every request the client sends and every answer the simulator gives in a test is checked against
// them, so neither can drift from the vendor's contract. The parsed specs are cached on disk.
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import YAML from 'yaml';
import OpenAPIBackend from 'openapi-backend';
import type { RequestLogEntry } from '../../../../src/kit/sim/router.js';

const SPECS = new URL('../../../../../shared/specs/gcore/', import.meta.url);

function loadDocument(file: string): Record<string, unknown> {
  const path = new URL(file, SPECS).pathname;
  const st = statSync(path);
  const cacheDir = join(tmpdir(), 'converge-provc-specs');
  const cache = join(cacheDir, `${file}.${st.size}.${Math.floor(st.mtimeMs)}.json`);
  if (existsSync(cache)) return JSON.parse(readFileSync(cache, 'utf8'));
  const doc = YAML.parse(readFileSync(path, 'utf8'), { maxAliasCount: -1 });
  mkdirSync(cacheDir, { recursive: true });
  writeFileSync(cache, JSON.stringify(doc));
  return doc;
}

/**
 * Three deliberate adjustments to the vendor's documents, both for defects of the documents rather
 * than looser checking: (1) `oneOf` becomes `anyOf`, because several of the vendor's alternatives
 * are the same shape (OriginGroupNameNotUniqueError and OriginGroupNameMore255Error are both
 * {errors: {name: [string]}}), so a valid body matches more than one and `oneOf` would reject it;
 * (2) the Let's Encrypt operations PATCH /cdn/resources/{id} and /cdn/resources/{res_id} are
 * dropped, since they declare the same path as PATCH /cdn/resources/{resource_id} and would
 * shadow it in routing; (3) an enum marked `nullable: true` gets null among its values, as
 * OpenAPI 3.0's nullable intends (the documents describe the null: `overrideOriginProtocol` null
 * means "inherited from the resource"), which a plain JSON-Schema enum would otherwise reject.
 */
function adjust(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(adjust);
  if (!node || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node)) out[k === 'oneOf' ? 'anyOf' : k] = adjust(v);
  if (out.nullable === true && Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
  return out;
}

const FORMATS: Record<string, RegExp | ((s: string) => boolean)> = {
  'date-time': (s) =>
    /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:?\d\d)$/i.test(s) && !Number.isNaN(Date.parse(s)),
  uuid: /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i,
  uuid4: /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i,
  ipv4: /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/,
  ipvanyaddress: (s) => FORMATS.ipv4 instanceof RegExp && (FORMATS.ipv4.test(s) || /^[0-9a-f:]+$/i.test(s)),
  domain: /^(\*\.)?([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,}$/i,
};

export type SpecCheck = { readonly check: (entries: readonly RequestLogEntry[], basePath?: string) => string[] };

async function backend(file: string): Promise<OpenAPIBackend> {
  const doc = adjust(loadDocument(file)) as { paths: Record<string, Record<string, unknown>> };
  if (file === 'cdn_api.yaml') {
    delete doc.paths['/cdn/resources/{id}'];
    delete doc.paths['/cdn/resources/{res_id}'];
  }
  const api = new OpenAPIBackend({
    definition: doc as never,
    quick: true,
    strict: false,
    validate: true,
    coerceTypes: true,
    // Generated code not optimised (as the simulator's request check, request-check.ts): the same
    // checks, compiled in about a third of the CPU (Ajv's optimising passes were most of it).
    ajvOpts: { strict: false, allErrors: true, logger: false, code: { optimize: false } },
    customizeAjv: (ajv, _opts, context) => {
      // Query parameters travel as strings: a single `tag_key=a` is still the array the spec declares.
      if (context === 'paramsValidator') (ajv.opts as { coerceTypes?: unknown }).coerceTypes = 'array';
      for (const [name, f] of Object.entries(FORMATS)) ajv.addFormat(name, typeof f === 'function' ? f : f);
      return ajv;
    },
  });
  await api.init();
  return api;
}

let cached: Promise<SpecCheck> | undefined;

/** Both specs, loaded once per test file. */
export function gcoreSpecs(): Promise<SpecCheck> {
  cached ??= (async () => {
    const [cdn, cloud] = await Promise.all([backend('cdn_api.yaml'), backend('cloud_api.yaml')]);
    return {
      check: (entries, basePath = '') =>
        entries.flatMap((e) =>
          checkEntry(
            e.path.startsWith('/cloud/') || e.path.startsWith(`${basePath}/cloud/`) ? cloud : cdn,
            e,
            basePath,
          ),
        ),
    };
  })();
  return cached;
}

function checkEntry(api: OpenAPIBackend, e: RequestLogEntry, basePath: string): string[] {
  const path = basePath && e.path.startsWith(basePath) ? e.path.slice(basePath.length) : e.path;
  const where = `${e.method} ${path}${e.query}`;
  if (e.route === null && !e.fault) return []; // unmatched: asserted separately through sim.unmatched
  const req = {
    method: e.method.toLowerCase(),
    path,
    query: e.query.replace(/^\?/, ''),
    headers: { 'content-type': 'application/json' },
    body: e.body,
  };
  const op = api.router.matchOperation(req as never);
  if (!op) return [`${where}: no operation in the vendor's spec`];
  const problems: string[] = [];
  const reqResult = api.validator.validateRequest(req as never, op);
  if (!reqResult.valid) problems.push(`${where}: request: ${formatErrors(reqResult.errors)}`);
  if (e.fault || e.status === 401) return problems;
  const documented = Object.keys((op as { responses?: Record<string, unknown> }).responses ?? {});
  if (e.status < 300 && !documented.some((c) => c === String(e.status) || c === '2XX' || c === 'default')) {
    problems.push(`${where}: status ${e.status} is not documented (documented: ${documented.join(', ')})`);
  }
  if (e.status === 204 && e.response !== undefined) problems.push(`${where}: 204 with a body`);
  // No body is JSON null to the validator (a 204's schema is {type: null}).
  const resResult = api.validator.validateResponse(e.response === undefined ? null : e.response, op, e.status);
  if (!resResult.valid) problems.push(`${where}: response ${e.status}: ${formatErrors(resResult.errors)}`);
  return problems;
}

function formatErrors(
  errors: readonly { instancePath?: string; message?: string; params?: unknown }[] | null | undefined,
): string {
  return (errors ?? [])
    .slice(0, 5)
    .map((x) => `${x.instancePath || '/'} ${x.message} ${JSON.stringify(x.params)}`)
    .join('; ');
}
