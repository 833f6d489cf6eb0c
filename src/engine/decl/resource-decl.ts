// A desired resource: plain, JSON-serialisable data (DESIGN.md, "Declaring resources").
import type { Ref } from './ref.js';

export type ResourceTimeouts = { readonly create?: string; readonly update?: string; readonly delete?: string };

export type ResourceOptions = {
  /** Names of other resources this one must follow. */
  readonly dependsOn?: readonly string[];
  /** A plan that would delete or replace it fails. */
  readonly protect?: boolean;
  /** Input paths whose changes are not planned. */
  readonly ignoreChanges?: readonly string[];
  /** Input paths that force replacement in addition to the schema's. */
  readonly replaceOnChanges?: readonly string[];
  /** Replacement creates the new object before deleting the old (default false). */
  readonly createBeforeDestroy?: boolean;
  /** Removing it from the stack forgets it without deleting it. */
  readonly retainOnDelete?: boolean;
  /** Earlier names: a rename moves the state, no replacement. */
  readonly aliases?: readonly string[];
  /** '30s', '5m', '1h'. */
  readonly timeouts?: ResourceTimeouts;
};

export type ResourceDecl = {
  /** Operation token, e.g. 'provb:index/instance:Instance'. */
  readonly type: string;
  /** Unique within the stack; it is the resource's address. */
  readonly name: string;
  readonly inputs: Readonly<Record<string, unknown>>;
  readonly options?: ResourceOptions;
};

/** An input value that may be given directly or as a reference to another resource's output. */
export type Input<T> = T | Ref;

/** Lets every field, at any depth, be a reference. */
export type Inputs<T> = T extends readonly (infer E)[]
  ? Input<readonly Inputs<E>[]>
  : T extends object
    ? Input<{ [K in keyof T]: Inputs<T[K]> }>
    : Input<T>;
