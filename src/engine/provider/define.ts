// The provider interface: what a provider is (resources and lookups, declared as data) and the
// constructors users call to write their own. The shipped providers use exactly this interface.
import type { z } from 'zod';
import type { OperationContext } from './context.js';
import type { KeyedLists } from '../diff/diff.js';

/** What `create` returns: the object's id and its outputs. */
export type CreateResult = { readonly id: string; readonly outputs: Record<string, unknown> };
/** What `read` returns: the object's current inputs (copy from `prior` what the API does not return) and outputs. */
export type ReadResult = { readonly inputs: Record<string, unknown>; readonly outputs: Record<string, unknown>; readonly id?: string };
/** One object `readMany` reads: its id and what the engine knew of it. */
export type ReadItem = { readonly id: string; readonly prior: Prior };

/** A resource type's handler and the provider instance that serves it. */
export type Resolved = { readonly def: AnyResource; readonly provider: Provider<unknown> };

/** What `update` returns: the outputs after the update, and the id when the update changed it (a rename). */
export type UpdateResult = { readonly outputs: Record<string, unknown>; readonly id?: string };
/** What the engine knew of the object before an operation. */
export type Prior = { readonly inputs: Record<string, unknown>; readonly outputs: Record<string, unknown> };

/**
 * What `find` knows of the create that may have made an object: when it started (an object made
 * before that is not this create's) and the operation id the create saw in `ctx.operationId`
 * (providers that can tag or name an object at creation write it there, which makes `find` exact).
 */
export type FindHint = { readonly startedAt: string; readonly operationId: string };
/** `find` cannot tell whether the create made an object (no key to search by): the engine keeps the pending record. */
export type CannotTell = { readonly cannotTell: string };
/** What `find` answers: the object this create made, null when it surely made none, or that it cannot tell. */
export type FindResult = CreateResult | null | CannotTell;

/** `find`'s answer when it has no way to tell; `reason` says why (shown in the plan's warnings). */
export function cannotTell(reason: string): CannotTell {
  return Object.freeze({ cannotTell: reason });
}

/** True when a find answer is `cannotTell(...)`. */
export function isCannotTell(value: unknown): value is CannotTell {
  return !!value && typeof value === 'object' && typeof (value as { cannotTell?: unknown }).cannotTell === 'string';
}

/** A problem with a declaration that a schema cannot see (cross-field rules, provider configuration). */
export type CheckIssue = { readonly path: readonly (string | number)[]; readonly message: string; readonly code?: string };

export type ResourceDefinition<I extends z.ZodType = z.ZodType, O extends z.ZodType = z.ZodType, C = unknown> = {
  /** Operation token, `<pkg>:index/<lowerCamel>:<Pascal>`. */
  readonly token: string;
  /** Inputs, with defaults. The engine diffs the parsed (defaulted) value. */
  readonly inputs: I;
  /** Outputs: names and types a `ref()` may point at. Inputs are referable too. */
  readonly outputs: O;
  /** Input paths whose change forces replacement ('*' matches any key or index). */
  readonly replaceOn?: readonly string[];
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
  readonly create: (ctx: OperationContext<C>, inputs: z.output<I>) => Promise<CreateResult>;
  readonly read: (ctx: OperationContext<C>, id: string, prior: Prior) => Promise<ReadResult | null>;
  /**
   * Reads many objects of this type at once (by the page, where the vendor lists whole objects):
   * an entry per id it saw (null: gone). An id it leaves out is read with `read`. Same results as
   * `read`; objects of other stacks in the same lists are simply not asked for.
   */
  readonly readMany?: (ctx: OperationContext<C>, items: readonly ReadItem[]) => Promise<ReadonlyMap<string, ReadResult | null>>;
  /** Without `update`, every change is a replacement. */
  readonly update?: (ctx: OperationContext<C>, id: string, olds: Prior, news: z.output<I>) => Promise<UpdateResult>;
  readonly delete: (ctx: OperationContext<C>, id: string, prior: Prior) => Promise<void>;
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
  readonly docs?: { readonly importIdFormats?: readonly string[]; readonly terraform?: string; readonly example?: string };
};

export type LookupDefinition<A extends z.ZodType = z.ZodType, R = unknown, C = unknown> = {
  readonly token: string;
  readonly args: A;
  readonly check?: (args: z.output<A>, config: C) => readonly CheckIssue[];
  readonly warnings?: (args: z.output<A>, config: C) => readonly string[];
  readonly run: (ctx: OperationContext<C>, args: z.output<A>) => Promise<R>;
};

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyResource = ResourceDefinition<any, any, any>;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyLookup = LookupDefinition<any, any, any>;

export type Provider<C = unknown> = {
  readonly name: string;
  readonly config: C;
  readonly resources: ReadonlyMap<string, AnyResource>;
  readonly lookups: ReadonlyMap<string, AnyLookup>;
  /** The configuration with the upstream Terraform provider's snake_case key names. */
  terraformConfig(): Record<string, unknown>;
  /** Releases connections and agents; the engine never calls it implicitly. */
  close(): Promise<void>;
};

export type ProviderSpec<C> = {
  readonly name: string;
  readonly config?: C;
  readonly resources?: readonly AnyResource[];
  readonly lookups?: readonly AnyLookup[];
  readonly terraformConfig?: () => Record<string, unknown>;
  readonly close?: () => Promise<void>;
};

export function defineResource<I extends z.ZodType, O extends z.ZodType, C = unknown>(def: ResourceDefinition<I, O, C>): ResourceDefinition<I, O, C> {
  if (!/^[a-z][\w-]*:[\w/-]+:\w+$/.test(def.token)) throw new TypeError(`Expected \`token\` to look like 'pkg:index/name:Name', got '${def.token}'`);
  return Object.freeze({ ...def });
}

export function defineLookup<A extends z.ZodType, R, C = unknown>(def: LookupDefinition<A, R, C>): LookupDefinition<A, R, C> {
  if (!/^[a-z][\w-]*:[\w/-]+:\w+$/.test(def.token)) throw new TypeError(`Expected \`token\` to look like 'pkg:index/fn:fn', got '${def.token}'`);
  return Object.freeze({ ...def });
}

export function defineProvider<C = undefined>(spec: ProviderSpec<C>): Provider<C> {
  if (!spec.name || typeof spec.name !== 'string') throw new TypeError('Expected `name` to be a non-empty string');
  const resources = new Map<string, AnyResource>();
  for (const r of spec.resources ?? []) {
    if (resources.has(r.token)) throw new TypeError(`Resource token ${r.token} is listed twice in provider ${spec.name}`);
    resources.set(r.token, r);
  }
  const lookups = new Map<string, AnyLookup>();
  for (const l of spec.lookups ?? []) {
    if (lookups.has(l.token)) throw new TypeError(`Lookup token ${l.token} is listed twice in provider ${spec.name}`);
    lookups.set(l.token, l);
  }
  const terraformConfig = spec.terraformConfig ?? (() => ({}));
  const provider = {
    name: spec.name,
    config: spec.config as C,
    resources,
    lookups,
    terraformConfig,
    close: spec.close ?? (async () => {}),
  };
  // JSON and util.inspect show the name and terraformConfig() (credentials as the sensitive
  // marker), never `config`, which holds credentials and clients.
  const view = () => ({ name: spec.name, config: terraformConfig(), resources: [...resources.keys()].length, lookups: [...lookups.keys()].length });
  Object.defineProperty(provider, 'toJSON', { value: view, enumerable: false });
  Object.defineProperty(provider, Symbol.for('nodejs.util.inspect.custom'), {
    value: (_depth: number, options: object, inspect: (v: unknown, o?: object) => string) => `Provider ${inspect(view(), options)}`,
    enumerable: false,
  });
  return Object.freeze(provider);
}
