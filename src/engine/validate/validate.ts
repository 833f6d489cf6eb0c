// Validation of a whole stack before anything is read: declaration shapes, names, types, JSON-ness
// of inputs, schemas (references stand as unknown values of any type), provider checks, options,
// references and cycles. Every issue of every resource is collected; no phase hides another.
import type { ResourceDecl } from '../decl/resource-decl.js';
import { collectRefs } from '../decl/ref.js';
import type { AnyResource } from '../provider/define.js';
import { parsePath, type PathSegment } from '../values/path.js';
import { isSecret } from '../values/secret.js';
import { isPlainObject } from '../values/plain.js';
import { redactText, secretStrings } from '../values/redact.js';
import { getPath } from '../values/path.js';
import { buildGraph, sortGraph, type Graph } from '../graph/graph.js';
import { checkReferences, disjointCycles } from './references.js';
import { valueIssues, type ValueIssue } from './json.js';
import { inputIssues, standIn } from './inputs.js';
import { optionIssues } from './options.js';
import { closest, cut, didYouMean, preview } from './suggest.js';
import { issueFacts, type Issue, type IssueFacts, type IssueField } from '../issue.js';
import { controlCharacterMessage, printableName } from './names.js';

type Served = { readonly def: AnyResource; readonly provider?: { readonly config: unknown } };
type ResourceResolver = (token: string, instance?: string) => Served | undefined;

/**
 * What the engine can tell about types it does not have: every token it does serve; and the
 * provider instances serving a type, by name (undefined: the default instance).
 */
type Catalog = {
  readonly tokens?: Iterable<string>;
  readonly instancesOf?: (token: string) => ReadonlyMap<string | undefined, Served>;
};

type StackCheck = {
  readonly issues: Issue[];
  readonly graph: Graph;
  /** The graph's names in dependency order; undefined when it has a cycle (then an issue names it). */
  readonly order?: readonly string[];
  /**
   * Declarations (by object) whose inputs passed, with their parsed, defaulted inputs (references as
   * unknowns, secret() unwrapped): planning reuses them where every reference is still unknown.
   */
  readonly parsed: ReadonlyMap<object, unknown>;
};

const DECL_KEYS = ['type', 'name', 'inputs', 'options'];
/** The factories of the providers shipped with converge, by the package name in their tokens. */
const SHIPPED: Record<string, string> = {
  prova: 'converge/providers/a',
  provb: 'converge/providers/b',
  provc: 'converge/providers/c',
};

/** The non-empty strings of a list option (dependsOn, aliases); undefined when it is not a list. */
function names(v: unknown): string[] | undefined {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string' && x !== '') : undefined;
}

export function validateStack(decls: readonly unknown[], resolve: ResourceResolver, catalog: Catalog = {}): StackCheck {
  const issues: Issue[] = [];
  const parsed = new Map<object, unknown>();
  const add = (
    resource: string,
    field: IssueField,
    path: PathSegment[],
    code: string,
    message: string,
    facts: IssueFacts = {},
  ) => issues.push({ resource, field, path, code, message, ...issueFacts(facts) });
  const addAll = (resource: string, field: IssueField, found: readonly ValueIssue[]) => {
    for (let j = 0; j < found.length; j++) {
      const v = found[j]!;
      add(resource, field, v.path, v.code, v.message, v);
    }
  };
  if (!Array.isArray(decls)) {
    add('', 'plan', [], 'invalid_type', 'expected a list of resource declarations');
    return { issues, graph: buildGraph([]), parsed: new Map() };
  }
  const tokens = [...(catalog.tokens ?? [])];
  const named = new Map<string, { decl: ResourceDecl; def?: AnyResource }>();
  const graphDecls: ResourceDecl[] = [];
  const checked: ResourceDecl[] = [];
  const seen = new Set<string>();
  decls.forEach((raw, i) => {
    const d = raw as Record<string, unknown>;
    const hasName = isPlainObject(d) && typeof d.name === 'string' && d.name !== '';
    const name = hasName ? (d.name as string) : undefined;
    const label = name !== undefined ? printableName(name) : `[${i}]`;
    if (!isPlainObject(d))
      return add(
        label,
        'declaration',
        [],
        'invalid_type',
        `expected a resource declaration { type, name, inputs }, not ${preview(raw)}`,
      );
    let ok = true;
    // Index loops in this per-declaration body: it runs before the JIT has optimized it, where a
    // for-of allocates an iterator and a result per element (and one of each for an empty list).
    const keys = Object.keys(d);
    for (let j = 0; j < keys.length; j++) {
      const k = keys[j]!;
      if (!DECL_KEYS.includes(k))
        add(
          label,
          'declaration',
          [k],
          'unrecognized_keys',
          `${preview(k)} is not part of a declaration.${didYouMean(k, DECL_KEYS)} Allowed: ${DECL_KEYS.join(', ')}.`,
          { suggestion: closest(k, DECL_KEYS) },
        );
    }
    const badName = name === undefined ? undefined : controlCharacterMessage(name);
    if (!hasName || badName) {
      add(
        label,
        'declaration',
        ['name'],
        hasName ? 'invalid_value' : 'invalid_type',
        badName ?? 'name must be a non-empty string',
      );
      ok = false;
    }
    let def: AnyResource | undefined;
    let config: unknown;
    if (typeof d.type !== 'string' || !d.type) {
      add(
        label,
        'declaration',
        ['type'],
        'invalid_type',
        "type must be an operation token like 'provb:index/instance:Instance'",
      );
      ok = false;
    } else {
      const wanted =
        isPlainObject(d.options) && typeof d.options.provider === 'string' ? d.options.provider : undefined;
      const found = resolve(d.type, wanted);
      const served = found ? undefined : catalog.instancesOf?.(d.type);
      if (found) {
        def = found.def;
        config = found.provider?.config;
      } else if (served?.size) {
        // The type is served, by other instances than the one asked for: the option is at fault.
        const any = [...served.values()][0]!;
        def = any.def;
        config = any.provider?.config;
        const { message, suggestion } = unknownInstanceMessage(d.type, wanted, served);
        add(label, 'options', wanted === undefined ? [] : ['provider'], 'unknown_instance', message, { suggestion });
        ok = false;
      } else {
        add(
          label,
          'declaration',
          ['type'],
          'unknown_type',
          unknownTypeMessage(d.type, tokens),
          unknownTypeFacts(d.type, tokens),
        );
        ok = false;
      }
    }
    let inputs: unknown = d.inputs;
    if (!isPlainObject(d.inputs)) {
      add(label, 'declaration', ['inputs'], 'invalid_type', `inputs must be a plain object, not ${preview(d.inputs)}`);
      ok = false;
      inputs = {};
    } else {
      const bad = valueIssues(d.inputs);
      addAll(label, 'inputs', bad);
      // Values that are not data stand as unknowns from here on, so the schema still judges the rest.
      inputs = standIn(inputs, bad);
      if (def) {
        // A check may quote the value it refuses: never a secret one (schema-marked, or secret()).
        let values: Set<string> | undefined;
        const found = inputIssues(
          { schema: def.inputs, check: def.check, config },
          inputs,
          inputs === d.inputs ? (data) => parsed.set(raw as object, data) : undefined,
        );
        for (let j = 0; j < found.length; j++) {
          const v = found[j]!;
          values ??= secretValuesOf(def, inputs);
          add(label, 'inputs', v.path, v.code, values.size ? redactText(v.message, values) : v.message, v);
        }
      }
    }
    if (name !== undefined) {
      if (seen.has(name)) {
        add(label, 'declaration', [], 'duplicate_name', `the name '${cut(label)}' is declared more than once`);
        ok = false;
      }
      seen.add(name);
    }
    const options = d.options;
    addAll(
      label,
      'options',
      optionIssues(options, {
        name: label,
        schema: def?.inputs,
        type: typeof d.type === 'string' ? d.type : undefined,
      }),
    );
    const o = isPlainObject(options) ? options : {};
    const decl = {
      type: d.type as string,
      name: label,
      inputs: inputs as Record<string, unknown>,
      options: { ...o, dependsOn: names(o.dependsOn), aliases: names(o.aliases) },
    } as ResourceDecl;
    // Index stores, not push(): a fresh list's first push() of an object, seen once per plan, makes
    // the optimized push expect small integers and deoptimize this callback (an index store
    // changes the list's element kind in place instead). The same in ledger.ts, heap.ts, mock.ts.
    checked[checked.length] = decl;
    if (!ok) return;
    named.set(label, { decl, def });
    graphDecls[graphDecls.length] = decl;
  });
  // Every declaration's references are checked, also one the graph leaves out (unknown type, bad or duplicate name).
  const refsOf = checkReferences(checked, named, seen, add);
  const graph = buildGraph(graphDecls, refsOf);
  // The order is the cycle check (Kahn's algorithm); only a failed sort pays for finding the cycles to name.
  const order = sortGraph(graph);
  if (!order)
    for (const cycle of disjointCycles(graph.deps))
      add(cycle[0]!, 'declaration', [], 'dependency_cycle', `dependency cycle: ${cycle.join(' -> ')}`, { cycle });
  return { issues, graph, order, parsed };
}

/** Why no instance serves a declaration: the one it names is not given (with the closest one), or there is no default one. */
function unknownInstanceMessage(
  type: string,
  wanted: string | undefined,
  served: ReadonlyMap<string | undefined, unknown>,
): { message: string; suggestion?: string } {
  const names = [...served.keys()].filter((n): n is string => n !== undefined);
  const pkg = type.split(':')[0] ?? '';
  const list = [...(served.has(undefined) ? ['the default one (no name)'] : []), ...names.map((n) => `'${n}'`)];
  if (wanted === undefined)
    return {
      message: `no default instance of ${pkg} is given, only named ones (${list.join(', ')}); choose one with options.provider, or give ${pkg}({ ... }) without a name.`,
    };
  const suggestion = closest(wanted, names);
  return {
    message: `options.provider names ${preview(wanted)}, but no instance of ${pkg} has that name.${suggestion ? ` Did you mean '${suggestion}'?` : ''} Instances: ${list.join(', ')}.`,
    ...(suggestion ? { suggestion } : {}),
  };
}

/** The facts of an unknown type: the closest served token, and the shipped provider to add. */
export function unknownTypeFacts(type: string, tokens: readonly string[]): IssueFacts {
  const pkg = type.split(':')[0] ?? '';
  const served = tokens.some((t) => t.startsWith(`${pkg}:`));
  return issueFacts({ suggestion: closest(type, tokens), providerModule: served ? undefined : SHIPPED[pkg] });
}

function unknownTypeMessage(type: string, tokens: readonly string[]): string {
  const pkg = type.split(':')[0] ?? '';
  const served = tokens.some((t) => t.startsWith(`${pkg}:`));
  const near = closest(type, tokens);
  const hint = near ? ` Did you mean '${near}'?` : '';
  if (served || !pkg) return `no provider of this engine has the resource type ${preview(type)}.${hint}`;
  const factory = SHIPPED[pkg];
  if (factory)
    return `no provider of this engine serves package '${pkg}' (type ${preview(type)}); add ${pkg}(...) from '${factory}' to providers.${hint}`;
  return `no provider of this engine serves package ${preview(pkg)} (type ${preview(type)}); add that package's provider to providers.${hint}`;
}

/** A lookup's arguments: JSON data, its schema (with unknown keys), and its provider's check. */
export function validateLookupArgs(
  token: string,
  def: { readonly args: AnyResource['inputs']; readonly check?: AnyResource['check'] },
  config: unknown,
  args: unknown,
): Issue[] {
  const issues: Issue[] = [];
  const push = (v: ValueIssue) =>
    issues.push({ resource: token, field: 'args', path: v.path, code: v.code, message: v.message });
  if (!isPlainObject(args)) {
    push({ path: [], code: 'invalid_type', message: `arguments must be a plain object, not ${preview(args)}` });
    return issues;
  }
  const bad = valueIssues(args);
  bad.forEach(push);
  const clean = standIn(args, bad);
  for (const { at } of collectRefs(clean))
    push({
      path: at,
      code: 'invalid_reference',
      message: "a lookup's arguments are values; a ref() has nothing to stand for here",
    });
  // References mean nothing to a lookup: a literal marker or ref was already refused above.
  inputIssues({ schema: def.args, check: def.check, config }, clean).forEach(push);
  return issues;
}

/** The message for a lookup token no provider serves, with the closest one and the factory to add. */
export function unknownLookupMessage(token: unknown, tokens: readonly string[]): string {
  if (typeof token !== 'string' || !token)
    return `a lookup token like 'provb:index/getInstance:getInstance' is expected, not ${preview(token)}`;
  return unknownTypeMessage(token, tokens).replace('the resource type', 'the lookup').replace('(type ', '(lookup ');
}

/** The strings at a resource's schema-marked secret inputs and inside its secret() values. */
function secretValuesOf(def: AnyResource, inputs: unknown): Set<string> {
  const values = new Set<string>();
  for (const p of def.secrets ?? []) secretStrings(getPath(inputs, parsePath(p)), values);
  const walk = (v: unknown): void => {
    if (v === null || typeof v !== 'object') return;
    if (isSecret(v)) {
      secretStrings(v.value, values);
      return;
    }
    for (const x of Array.isArray(v) ? v : Object.values(v)) walk(x);
  };
  walk(inputs);
  return values;
}
