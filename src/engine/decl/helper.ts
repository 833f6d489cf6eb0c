// Typed helpers: build the same plain ResourceDecl data with input and output types inferred from a
// resource's zod schemas, e.g. provb.instance('web', { diskImage, firewallId: fw.out('firewallId') }).
import type { z } from 'zod';
import type { ResourceDefinition, LookupDefinition } from '../provider/define.js';
import type { ResourceDecl, ResourceOptions } from './resource-decl.js';
import { ref, type Ref } from './ref.js';
import type { Secret } from '../values/secret.js';
import type { StackRef } from './stack-ref.js';

/**
 * A reference that remembers the type of what it points at (types only: at run time it is a plain
 * Ref). An untyped `ref(name, path)` fits any field; `x.out('field')` fits only fields of its type.
 */
export type TypedRef<T> = Ref & {
  /** Types only: the type of the value referred to. Never set at run time. */
  readonly '@type'?: T;
};

/** A field value given directly, as a reference of the same type (or to another stack's output), or wrapped in secret(), at any depth. */
export type TypedInputs<T> =
  InputShape<T> | TypedRef<T> | StackRef<T> | Secret<InputShape<T> | TypedRef<T> | StackRef<T>>;
/** A value of type T whose fields (at any depth) may each be given directly, as a typed reference or as a secret. */
type InputShape<T> = T extends readonly (infer E)[]
  ? readonly TypedInputs<E>[]
  : T extends object
    ? { readonly [K in keyof T]: TypedInputs<T[K]> }
    : T;

/** The type of the value `out(key)` refers to: the output's, else the input's; 'id' is a string. */
type OutValue<I, O, K> = K extends keyof O ? O[K] : K extends keyof I ? I[K] : string;

/**
 * What a provider's resource helper returns (`provb.instance('web', {...})`): a plain
 * {@link ResourceDecl} whose inputs are typed from the resource's schema, with `out()` for typed
 * references to its outputs.
 */
export type TypedDecl<I, O, D extends FieldDocs = FieldDocs> = ResourceDecl & {
  /** The inputs, typed from the resource's input schema. */
  readonly inputs: { readonly [K in keyof I]: TypedInputs<I[K]> } & D['inputs'];
  /** A reference to one of this resource's outputs (or inputs, or 'id'); a misspelt name does not compile. */
  out<K extends Extract<keyof O | keyof I | 'id', string>>(key: K): TypedRef<OutValue<I, O, K>>;
  /** Types only: the outputs, typed from the resource's output schema, each field with its description. Never set at run time. */
  readonly '@outputs'?: O & D['outputs'];
};

/**
 * The descriptions of a resource's fields as TSDoc on optional `unknown` members (a shipped
 * provider's generated `field-docs.ts`): intersected with the typed inputs and outputs, they change
 * no type and make an editor's hover show each field's description. Types only.
 */
type FieldDocs = {
  /** The input fields' descriptions. */
  readonly inputs: object;
  /** The output fields' descriptions. */
  readonly outputs: object;
};

/** A provider's typed builder for one resource type: `(name, inputs, options?) => TypedDecl`. */
export type ResourceHelper<I extends z.ZodType, O extends z.ZodType, D extends FieldDocs = FieldDocs> = (
  name: string,
  inputs: { readonly [K in keyof z.input<I>]: TypedInputs<z.input<I>[K]> } & D['inputs'],
  options?: ResourceOptions,
) => TypedDecl<z.input<I>, z.output<O>, D>;

/** Helpers whose resource helpers carry the field descriptions of `D` (keyed by helper name). */
type DocumentedHelpers<H, D> = {
  [K in keyof H]: K extends keyof D
    ? D[K] extends FieldDocs
      ? H[K] extends ResourceHelper<infer I, infer O>
        ? ResourceHelper<I, O, D[K]>
        : H[K]
      : H[K]
    : H[K];
};

/**
 * Types only: gives each resource helper of `helpers` the TSDoc of its fields from `D` (a shipped
 * provider's generated `FieldDocs`); at run time the helpers are returned as they are.
 */
export function withFieldDocs<D>(): <H extends object>(helpers: H) => DocumentedHelpers<H, D> {
  return (helpers) => helpers as DocumentedHelpers<typeof helpers, D>;
}

/**
 * Makes the typed helper for one resource definition, as the shipped providers export theirs.
 *
 * @example
 * ```ts
 * import { z } from 'zod';
 * import { defineResource, resourceHelper } from 'converge';
 *
 * const bucket = defineResource({
 *   token: 'mine:index/bucket:Bucket',
 *   inputs: z.object({ name: z.string() }),
 *   outputs: z.object({ url: z.string() }),
 *   create: async (_ctx, inputs) => ({ id: inputs.name, outputs: { url: `https://example.test/${inputs.name}` } }),
 *   read: async (_ctx, id, prior) => ({ inputs: prior.inputs, outputs: prior.outputs }),
 *   delete: async () => {},
 * });
 * export const mineBucket = resourceHelper(bucket);
 * const logs = mineBucket('logs', { name: 'logs' });
 * const url = logs.out('url'); // a reference, typed string
 * ```
 */
export function resourceHelper<I extends z.ZodType, O extends z.ZodType, C>(
  def: ResourceDefinition<I, O, C>,
  instance?: string,
): ResourceHelper<I, O> {
  const helper: ResourceHelper<I, O> = (name, inputs, given) => {
    // A helper bound to a named instance chooses it, unless the call names another.
    const options = instance === undefined ? given : { provider: instance, ...given };
    const decl = { type: def.token, name, inputs: inputs as Record<string, unknown>, ...(options ? { options } : {}) };
    // `out` is not enumerable, so the declaration stays plain data for JSON.
    Object.defineProperty(decl, 'out', { value: (key: string) => ref(name, key), enumerable: false });
    return decl as unknown as TypedDecl<z.input<I>, z.output<O>>;
  };
  Object.defineProperty(helper, BIND, { value: (to: string | undefined) => resourceHelper(def, to) });
  return helper;
}

/** A lookup call built by a provider's lookup helper (`provb.getNetwork({...})`), for `engine.lookup()`. */
export type LookupCall<A extends z.ZodType, R> = {
  /** The lookup's token. */
  readonly token: string;
  /** Its arguments, typed from the lookup's schema. */
  readonly args: z.input<A>;
  /** The provider instance that answers it (`provb({ name: 'ops' })`); absent: the default instance. */
  readonly provider?: string;
  /** Types only: what the lookup answers. Never set at run time. */
  readonly __result?: R;
};

/**
 * A provider's typed helper for one lookup: with arguments alone, a call for `engine.lookup()`
 * (`provb.getInstance({ hostname: 'db' })`); with a name first, a declaration of the lookup as a
 * node of the stack (`provb.getInstance('db', { hostname: web.out('hostname') })`), whose arguments
 * may be references and whose answer others reference with `out()`: read when the plan is made if
 * its arguments are known then, else during apply.
 */
export type LookupHelper<A extends z.ZodType, R> = {
  (args: z.input<A>): LookupCall<A, R>;
  (
    name: string,
    args: { readonly [K in keyof z.input<A>]: TypedInputs<z.input<A>[K]> },
    options?: ResourceOptions,
  ): TypedDecl<z.input<A>, R extends object ? R : { value: R }>;
};

/** Makes the typed helper for one lookup: `provb.getInstance({ hostname })` → a call `engine.lookup()` accepts; `provb.getInstance('db', {...})` → a declared lookup. */
export function lookupHelper<A extends z.ZodType, R, C>(
  def: LookupDefinition<A, R, C>,
  instance?: string,
): LookupHelper<A, R> {
  const declare = resourceHelper({ token: def.token, inputs: def.args } as unknown as ResourceDefinition, instance);
  const helper = (first: unknown, args?: unknown, options?: ResourceOptions): unknown => {
    if (typeof first === 'string') return declare(first, args as never, options);
    return instance === undefined
      ? { token: def.token, args: first }
      : { token: def.token, args: first, provider: instance };
  };
  Object.defineProperty(helper, BIND, { value: (to: string | undefined) => lookupHelper(def, to) });
  return helper as LookupHelper<A, R>;
}

/** Where a helper keeps how to make the same helper bound to a provider instance. */
const BIND = Symbol('converge.helper.bind');

/**
 * A provider's typed helpers bound to one of its instances: each declaration they build chooses
 * that instance (`options.provider`), each lookup call asks it. The shipped factories attach them
 * to the instance they return, so `const ops = provb({ name: 'ops', ... }); ops.network(...)`.
 * Unbound (the default instance) when `instance` is undefined.
 */
export function helpersFor<H extends object>(helpers: H, instance: string | undefined): H {
  const out: Record<string, unknown> = {};
  for (const [k, h] of Object.entries(helpers)) {
    const bind = (h as { [BIND]?: (to: string | undefined) => unknown })[BIND];
    out[k] = bind ? bind(instance) : h;
  }
  return out as H;
}
