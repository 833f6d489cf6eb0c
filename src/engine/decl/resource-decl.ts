// A desired resource: plain, JSON-serialisable data (DESIGN.md, "Declaring resources").
import type { Ref } from './ref.js';
import type { StackRef } from './stack-ref.js';

/** How long each operation of a resource may take ('30s', '5m', '1h'); past it the step fails with {@link TimeoutError}. */
export type ResourceTimeouts = {
  /** Limit of the create; no limit when absent (a provider's own waits keep theirs). */
  readonly create?: string;
  /** Limit of an update. */
  readonly update?: string;
  /** Limit of the delete. */
  readonly delete?: string;
};

/** How the engine treats a resource, beyond its inputs (Terraform's `lifecycle`, Pulumi's resource options). */
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
  /**
   * The provider instance that makes it, by the name given to its factory (`provb({ name: 'ops' })`);
   * default: the instance with no name. Moving a resource to another instance replaces it.
   */
  readonly provider?: string;
};

/**
 * A desired resource: plain, JSON-serialisable data. A provider's typed helper builds the same
 * (`provb.instance('web', {...})`); a list of them is what `engine.plan()` takes.
 */
export type ResourceDecl = {
  /** Operation token, e.g. 'provb:index/instance:Instance'. */
  readonly type: string;
  /** Unique within the stack; it is the resource's address. */
  readonly name: string;
  /** The resource's inputs, checked against its schema; values may be references ({@link ref}) or secrets ({@link secret}). */
  readonly inputs: Readonly<Record<string, unknown>>;
  /** How the engine treats it (protect, ignoreChanges, timeouts, …). */
  readonly options?: ResourceOptions;
};

/** An input value that may be given directly or as a reference to another resource's output. */
export type Input<T> = T | Ref | StackRef<T>;

/** Lets every field, at any depth, be a reference. */
export type Inputs<T> = T extends readonly (infer E)[]
  ? Input<readonly Inputs<E>[]>
  : T extends object
    ? Input<{ [K in keyof T]: Inputs<T[K]> }>
    : Input<T>;
