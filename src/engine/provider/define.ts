// The provider interface: what a provider is (resources and lookups, declared as data) and the
// constructors users call to write their own. The shipped providers use exactly this interface.
import type { z } from 'zod';
import type { OperationContext } from './context.js';
import type { KeyedLists } from '../diff/diff.js';
import { checkInstanceName } from './instance.js';

/** What `create` returns: the object's id and its outputs. */
export type CreateResult = {
  /** The provider's id of the new object: what `read`, `update` and `delete` take. */
  readonly id: string;
  /** The object's outputs (`ref()` may point at them). */
  readonly outputs: Record<string, unknown>;
};
/** What `read` returns: the object's current inputs (copy from `prior` what the API does not return) and outputs. */
export type ReadResult = {
  /** The object's inputs as they are now (drift is the difference from the recorded ones). */
  readonly inputs: Record<string, unknown>;
  /** The object's outputs as they are now. */
  readonly outputs: Record<string, unknown>;
  /** The object's id, when reading found it under another (e.g. normalised) id. */
  readonly id?: string;
};
/** One object `readMany` reads: its id and what the engine knew of it. */
export type ReadItem = {
  /** The object's id. */
  readonly id: string;
  /** Its recorded inputs and outputs. */
  readonly prior: Prior;
};

/** A resource type's handler and the provider instance that serves it. */
export type Resolved = { readonly def: AnyResource; readonly provider: Provider<unknown> };

/** What `update` returns: the outputs after the update, and the id when the update changed it (a rename). */
export type UpdateResult = {
  /** The object's outputs after the update. */
  readonly outputs: Record<string, unknown>;
  /** The object's new id, when the update changed it. */
  readonly id?: string;
};
/** What the engine knew of the object before an operation. */
export type Prior = {
  /** The inputs recorded in the state (secrets in clear). */
  readonly inputs: Record<string, unknown>;
  /** The outputs recorded in the state. */
  readonly outputs: Record<string, unknown>;
};

/**
 * What `find` knows of the create that may have made an object: when it started (an object made
 * before that is not this create's) and the operation id the create saw in `ctx.operationId`
 * (providers that can tag or name an object at creation write it there, which makes `find` exact).
 */
export type FindHint = {
  /** When the create began (ISO 8601): an object made before it is not this create's. */
  readonly startedAt: string;
  /** The create's `ctx.operationId`, which the provider may have written on the object. */
  readonly operationId: string;
  /**
   * For a type that declares {@link ResourceDef.existing}: the ids of the objects matching the
   * create's key that existed just before its request was sent, as recorded durably in the pending
   * record ahead of the request (so a `find` in any later process is as exact as one in the same
   * process). Undefined for other types, and for a record written by an earlier release.
   */
  readonly existing?: readonly string[];
};
/** `find` cannot tell whether the create made an object (no key to search by): the engine keeps the pending record. */
export type CannotTell = {
  /** Why `find` cannot tell (shown in the plan's warnings). */
  readonly cannotTell: string;
  /** The vendor's ids of the objects that may be this create's, for the operator's import. */
  readonly candidates?: readonly string[];
};
/** What `find` answers: the object this create made, null when it surely made none, or that it cannot tell. */
export type FindResult = CreateResult | null | CannotTell;

/** `find`'s answer when it has no way to tell; `reason` says why (shown in the plan's warnings). */
export function cannotTell(reason: string, candidates?: readonly string[]): CannotTell {
  return Object.freeze(
    candidates?.length ? { cannotTell: reason, candidates: [...candidates] } : { cannotTell: reason },
  );
}

/** True when a find answer is `cannotTell(...)`. */
export function isCannotTell(value: unknown): value is CannotTell {
  return !!value && typeof value === 'object' && typeof (value as { cannotTell?: unknown }).cannotTell === 'string';
}

/** A problem with a declaration that a schema cannot see (cross-field rules, provider configuration). */
export type CheckIssue = {
  /** The input path at fault, e.g. `['rules', 0, 'cidr']`. */
  readonly path: readonly (string | number)[];
  /** What is wrong, for a person. */
  readonly message: string;
  /** A stable code for programs; default `custom`. */
  readonly code?: string;
};

/**
 * One resource type of a provider: its schemas and its operations. Made with {@link defineResource};
 * `C` is the provider's configuration type, which every operation receives in `ctx.config`.
 */
export type ResourceDefinition<I extends z.ZodType = z.ZodType, O extends z.ZodType = z.ZodType, C = unknown> = {
  /** Operation token, `<pkg>:index/<lowerCamel>:<Pascal>`. */
  readonly token: string;
  /** Inputs, with defaults. The engine diffs the parsed (defaulted) value. */
  readonly inputs: I;
  /** Outputs: names and types a `ref()` may point at. Inputs are referable too. */
  readonly outputs: O;
  /** Input paths whose change forces replacement ('*' matches any key or index). */
  readonly replaceOn?: readonly string[];
  /**
   * Input paths whose change from `prior` to `news` the API cannot make in place although other
   * changes of them it can (a Civo instance's size grows in place, never shrinks): they force
   * replacement in this plan. Pure: no I/O.
   */
  readonly replaceWhen?: (prior: Prior, news: z.output<I>) => readonly string[];
  /** Input or output paths never shown in plans, events or errors. */
  readonly secrets?: readonly string[];
  /**
   * Input lists whose elements are identified by a field, not a position (path → key field, e.g.
   * `{ devices: 'name' }`): diffs, drift and the rendered plan match their elements by that key.
   */
  readonly keyedLists?: KeyedLists;
  /** Outputs an in-place update may change; others keep their prior value at plan time. */
  readonly computedOnUpdate?: readonly string[];
  /** Rules beyond the schema; `config` is the provider's resolved configuration. */
  readonly check?: (inputs: z.output<I>, config: C) => readonly CheckIssue[];
  /** Deprecation and similar warnings shown with the plan. */
  readonly warnings?: (inputs: z.output<I>, config: C) => readonly string[];
  /**
   * Makes the object. Throw {@link PartialCreateError} when it was made but a later stage failed;
   * write `ctx.operationId` on the object where the vendor allows, so `find` is exact.
   */
  readonly create: (ctx: OperationContext<C>, inputs: z.output<I>) => Promise<CreateResult>;
  /** Reads the object: its current inputs and outputs, or null when it is gone. */
  readonly read: (ctx: OperationContext<C>, id: string, prior: Prior) => Promise<ReadResult | null>;
  /**
   * Reads many objects of this type at once (by the page, where the vendor lists whole objects):
   * an entry per id it saw. An id it leaves out, or answers null for, is read with `read` before it
   * is called gone: a listing is no proof of absence (one read page by page can skip an object that
   * exists). Same results as `read`; objects of other stacks in the same lists are simply not asked for.
   */
  readonly readMany?: (
    ctx: OperationContext<C>,
    items: readonly ReadItem[],
  ) => Promise<ReadonlyMap<string, ReadResult | null>>;
  /** Without `update`, every change is a replacement. */
  readonly update?: (ctx: OperationContext<C>, id: string, olds: Prior, news: z.output<I>) => Promise<UpdateResult>;
  /** Deletes the object; an object already gone is not an error. */
  readonly delete: (ctx: OperationContext<C>, id: string, prior: Prior) => Promise<void>;
  /**
   * The ids of the objects that already match the create's key (what `find` would look at), for a
   * type whose API offers no exact key for `find`. The engine calls it before each create request
   * and records the answer durably in the create's pending record before the request is sent; `find`
   * receives it as `hint.existing`, in this process or any later one (an id not in it is new, so this
   * create's). A pending record without it proves the request was never sent.
   */
  readonly existing?: (ctx: OperationContext<C>, inputs: z.output<I>) => Promise<Iterable<string>>;
  /**
   * Finds the object an interrupted or outcome-unknown create made with these inputs. It must never
   * answer with an object that existed before `hint.startedAt` (someone else's, or another stack's)
   * unless it carries `hint.operationId`; when it has no way to tell, it answers `cannotTell(reason)`.
   * The engine calls it only when a create's outcome is unknown (lost answer, timeout, 5xx, reset,
   * crash), never after a definite refusal.
   */
  readonly find?: (ctx: OperationContext<C>, inputs: z.output<I>, hint: FindHint) => Promise<FindResult>;
  /** Maps a user's import ID (`<domain_id>:<record_id>`, ...) to the id `read` takes; throws on bad grammar. */
  readonly importId?: (importId: string, config: C) => string;
  /** For the generated reference page (scripts/gen-provider-docs.ts): import id grammars, the Terraform resource, an example. */
  readonly docs?: {
    /** The grammars `importId` accepts, e.g. `<domain_id>:<record_id>`. */
    readonly importIdFormats?: readonly string[];
    /** The Terraform resource it corresponds to, e.g. `civo_instance`. */
    readonly terraform?: string;
    /** A TypeScript example declaring it. */
    readonly example?: string;
  };
};

/** One lookup (data source) of a provider: its arguments' schema and how it runs. Made with {@link defineLookup}. */
export type LookupDefinition<A extends z.ZodType = z.ZodType, R = unknown, C = unknown> = {
  /** Function token, `<pkg>:index/<name>:<name>`, e.g. `provb:index/getNetwork:getNetwork`. */
  readonly token: string;
  /** The arguments' schema, with defaults. */
  readonly args: A;
  /** Rules beyond the schema; `config` is the provider's resolved configuration. */
  readonly check?: (args: z.output<A>, config: C) => readonly CheckIssue[];
  /** Deprecation and similar warnings, emitted as warning events. */
  readonly warnings?: (args: z.output<A>, config: C) => readonly string[];
  /** Answers the lookup; throws {@link LookupError} when no object, or more than one, matches. */
  readonly run: (ctx: OperationContext<C>, args: z.output<A>) => Promise<R>;
};

/** A resource definition of any schemas and configuration (what a provider's `resources` map holds). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyResource = ResourceDefinition<any, any, any>;
/** A lookup definition of any schemas and configuration (what a provider's `lookups` map holds). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyLookup = LookupDefinition<any, any, any>;

/** A provider instance, as a factory (`provb({...})`) or {@link defineProvider} returns it: what `new Engine({ providers })` takes. */
export type Provider<C = unknown> = {
  /** The provider's name (`provb`), the package of its tokens. */
  readonly name: string;
  /**
   * The instance's own name when an engine holds several of this provider (`provb({ name: 'ops' })`):
   * resources choose it with `options.provider: 'ops'`. Absent: the provider's default instance.
   */
  readonly instanceName?: string;
  /** Its resolved configuration, handed to every operation as `ctx.config`. */
  readonly config: C;
  /** Its resource types, by token. */
  readonly resources: ReadonlyMap<string, AnyResource>;
  /** Its lookups, by token. */
  readonly lookups: ReadonlyMap<string, AnyLookup>;
  /** The configuration with the upstream Terraform provider's snake_case key names. */
  terraformConfig(): Record<string, unknown>;
  /**
   * The settings that decide where objects are made (endpoint, region, project, remote), never a
   * credential: a saved plan records them, and applying it with other ones is refused. Without
   * it, `terraformConfig()` minus its secrets is used.
   */
  planConfig?(): Record<string, unknown>;
  /**
   * Checks the credentials and the endpoint with one cheap authenticated read; throws the
   * provider's error (a 401, a refused connection, an unknown region) when they cannot work. A plan
   * that creates or changes anything calls it once per provider involved, as Terraform's providers
   * check their configuration; a plan with no changes does not.
   */
  verify?(ctx: OperationContext<C>): Promise<void>;
  /** Releases connections and agents; the engine never calls it implicitly. */
  close(): Promise<void>;
};

/** What {@link defineProvider} takes. */
export type ProviderSpec<C> = {
  /** The provider's name, the first part of its tokens (`mine` for `mine:index/thing:Thing`). */
  readonly name: string;
  /** The instance's name when an engine holds several of this provider; absent: the default instance. */
  readonly instanceName?: string;
  /** Its resolved configuration, handed to every operation as `ctx.config`. */
  readonly config?: C;
  /** Its resource types, made with {@link defineResource}. */
  readonly resources?: readonly AnyResource[];
  /** Its lookups, made with {@link defineLookup}. */
  readonly lookups?: readonly AnyLookup[];
  /**
   * The configuration with the upstream Terraform provider's key names; default: none (`{}`), never
   * `config` as it is, which holds credentials and clients.
   */
  readonly terraformConfig?: () => Record<string, unknown>;
  /** The non-secret settings a saved plan records and apply compares (see {@link Provider.planConfig}). */
  readonly planConfig?: () => Record<string, unknown>;
  /** One cheap authenticated read that throws when the credentials or endpoint cannot work (see {@link Provider.verify}). */
  readonly verify?: (ctx: OperationContext<C>) => Promise<void>;
  /** Releases connections; default: nothing to release. */
  readonly close?: () => Promise<void>;
};

/**
 * Declares a resource type for your own provider: its token, input and output schemas (defaults
 * in the schema), which inputs force replacement, which paths are secret, and its operations.
 * Throws `TypeError` for a malformed token.
 *
 * @example
 * ```ts
 * import { z } from 'zod';
 * import { defineResource } from 'converge';
 *
 * const records = new Map<string, string>();
 * export const record = defineResource({
 *   token: 'mine:index/record:Record',
 *   inputs: z.object({ name: z.string(), value: z.string(), ttl: z.number().default(300) }),
 *   outputs: z.object({ fqdn: z.string() }),
 *   replaceOn: ['name'],
 *   create: async (_ctx, inputs) => {
 *     records.set(inputs.name, inputs.value);
 *     return { id: inputs.name, outputs: { fqdn: `${inputs.name}.example.test` } };
 *   },
 *   read: async (_ctx, id, prior) => (records.has(id) ? { inputs: { ...prior.inputs, value: records.get(id) }, outputs: prior.outputs } : null),
 *   update: async (_ctx, id, olds, news) => {
 *     records.set(id, news.value);
 *     return { outputs: olds.outputs };
 *   },
 *   delete: async (_ctx, id) => {
 *     records.delete(id);
 *   },
 *   find: async (_ctx, inputs) => (records.has(inputs.name) ? { id: inputs.name, outputs: { fqdn: `${inputs.name}.example.test` } } : null),
 * });
 * ```
 */
export function defineResource<I extends z.ZodType, O extends z.ZodType, C = unknown>(
  def: ResourceDefinition<I, O, C>,
): ResourceDefinition<I, O, C> {
  if (!/^[a-z][\w-]*:[\w/-]+:\w+$/.test(def.token))
    throw new TypeError(`Expected \`token\` to look like 'pkg:index/name:Name', got '${def.token}'`);
  return Object.freeze({ ...def });
}

/**
 * Declares a lookup (data source) for your own provider. Throws `TypeError` for a malformed token.
 *
 * @example
 * ```ts
 * import { z } from 'zod';
 * import { defineLookup, LookupError } from 'converge';
 *
 * const zones = new Map([['example.test', 'z-1']]);
 * export const getZone = defineLookup({
 *   token: 'mine:index/getZone:getZone',
 *   args: z.object({ name: z.string() }),
 *   run: async (_ctx, args) => {
 *     const id = zones.get(args.name);
 *     if (!id) throw new LookupError('mine:index/getZone:getZone', 'not_found', [], `name ${args.name}`);
 *     return { id, name: args.name };
 *   },
 * });
 * ```
 */
export function defineLookup<A extends z.ZodType, R, C = unknown>(
  def: LookupDefinition<A, R, C>,
): LookupDefinition<A, R, C> {
  if (!/^[a-z][\w-]*:[\w/-]+:\w+$/.test(def.token))
    throw new TypeError(`Expected \`token\` to look like 'pkg:index/fn:fn', got '${def.token}'`);
  return Object.freeze({ ...def });
}

/**
 * Makes a provider instance from your resources and lookups, to give to `new Engine({ providers })`
 * beside (or instead of) the shipped ones. Throws `TypeError` for a missing name or a token listed
 * twice.
 *
 * @example
 * ```ts
 * import { z } from 'zod';
 * import { defineProvider, defineResource, Engine, MemoryStateStore } from 'converge';
 *
 * const thing = defineResource({
 *   token: 'mine:index/thing:Thing',
 *   inputs: z.object({ size: z.number().default(1) }),
 *   outputs: z.object({}),
 *   create: async () => ({ id: 'thing-1', outputs: {} }),
 *   read: async (_ctx, _id, prior) => prior,
 *   delete: async () => {},
 * });
 * const mine = defineProvider({ name: 'mine', config: { region: 'here' }, resources: [thing] });
 * const engine = new Engine({ providers: [mine], state: new MemoryStateStore() });
 * await engine.apply(await engine.plan([{ type: 'mine:index/thing:Thing', name: 't', inputs: {} }]));
 * ```
 */
export function defineProvider<C = undefined, H extends object = object>(
  spec: ProviderSpec<C> & {
    /** Typed helpers to attach to the instance (the shipped factories attach theirs, bound to it). */
    readonly helpers?: H;
  },
): Provider<C> & H {
  if (!spec.name || typeof spec.name !== 'string') throw new TypeError('Expected `name` to be a non-empty string');
  checkInstanceName(spec.instanceName);
  const resources = new Map<string, AnyResource>();
  for (const r of spec.resources ?? []) {
    if (resources.has(r.token))
      throw new TypeError(`Resource token ${r.token} is listed twice in provider ${spec.name}`);
    resources.set(r.token, r);
  }
  const lookups = new Map<string, AnyLookup>();
  for (const l of spec.lookups ?? []) {
    if (lookups.has(l.token)) throw new TypeError(`Lookup token ${l.token} is listed twice in provider ${spec.name}`);
    lookups.set(l.token, l);
  }
  const terraformConfig = spec.terraformConfig ?? (() => ({}));
  const provider = {
    ...spec.helpers,
    name: spec.name,
    ...(spec.instanceName !== undefined ? { instanceName: spec.instanceName } : {}),
    config: spec.config as C,
    resources,
    lookups,
    terraformConfig,
    ...(spec.planConfig ? { planConfig: spec.planConfig } : {}),
    ...(spec.verify ? { verify: spec.verify } : {}),
    close: spec.close ?? (async () => {}),
  };
  // JSON and util.inspect show the name and terraformConfig() (credentials as the sensitive
  // marker), never `config`, which holds credentials and clients.
  const view = () => ({
    name: spec.name,
    ...(spec.instanceName !== undefined ? { instanceName: spec.instanceName } : {}),
    config: terraformConfig(),
    resources: [...resources.keys()].length,
    lookups: [...lookups.keys()].length,
  });
  Object.defineProperty(provider, 'toJSON', { value: view, enumerable: false });
  Object.defineProperty(provider, Symbol.for('nodejs.util.inspect.custom'), {
    value: (_depth: number, options: object, inspect: (v: unknown, o?: object) => string) =>
      `Provider ${inspect(view(), options)}`,
    enumerable: false,
  });
  return Object.freeze(provider) as Provider<C> & H;
}
