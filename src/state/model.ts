// The state: what converge knows of every object it manages. Readonly, JSON-serialisable data;
// only ops.ts makes a new one. `serial` rises by one on every committed change; `lineage` is an
// opaque id fixed when the state is first made, compared byte for byte.

/** 2: deposed objects are typed records in `deposed` (1 kept them as resources named `<name>~deposed-<id>`). */
export const STATE_VERSION = 2;

/** The keyed collections of a state; stores persist each as a map of whole records. */
export const collections = ['resources', 'pending', 'deposed', 'outputs'] as const;

/** The resource options the state records with an object (those that matter after the declaration is gone). */
export type StoredOptions = {
  /** A plan that would delete or replace it fails. */
  readonly protect?: boolean;
  /** Removing it from the stack forgets it without deleting it. */
  readonly retainOnDelete?: boolean;
  /** A replacement creates the new object first. */
  readonly createBeforeDestroy?: boolean;
  /** Input paths whose changes are not planned. */
  readonly ignoreChanges?: readonly string[];
  /** Input paths that force replacement beyond the schema's. */
  readonly replaceOnChanges?: readonly string[];
  /** Names of resources it was declared to follow. */
  readonly dependsOn?: readonly string[];
  /** Its operation limits ('30s', '5m'). */
  readonly timeouts?: Readonly<Record<string, string>>;
};

/** What the state records of one managed object. */
export type ResourceState = {
  /** Its type token. */
  readonly type: string;
  /** Its address (the declaration's name). */
  readonly name: string;
  /** The provider that serves it. */
  readonly provider: string;
  /** The provider instance that made it (`provb({ name: 'ops' })`); absent: the provider's default instance. */
  readonly instance?: string;
  /**
   * That instance's non-secret settings (endpoint, region, project, remote; flattened `path → value`)
   * when the object was last written: never a credential. Absent in records older than them.
   */
  readonly instanceSettings?: Readonly<Record<string, string | number | boolean>>;
  /** The provider's id of the object. */
  readonly id: string;
  /** The inputs it was last applied or refreshed with (secret paths listed in `secrets`). */
  readonly inputs: Readonly<Record<string, unknown>>;
  /** Its outputs, as last read. */
  readonly outputs: Readonly<Record<string, unknown>>;
  /** Names of the resources it referenced or depended on when last applied. */
  readonly dependencies: readonly string[];
  /** The options it was applied with. */
  readonly options: StoredOptions;
  /** Paths, prefixed 'inputs.' or 'outputs.', whose values are secret. */
  readonly secrets: readonly string[];
  /** When converge created (or imported) it, ISO 8601. */
  readonly createdAt: string;
  /** When its record last changed, ISO 8601. */
  readonly updatedAt: string;
  /** A create made the object but then failed (a later stage of it): the next plan replaces it. */
  readonly tainted?: boolean;
};

/**
 * An object a create-before-destroy replacement moved aside: the resource `name` has a new current
 * object, and this old one waits to be deleted (by the same apply, or by the next plan if that
 * delete failed or the process died). Keyed by `deposedKey` in `State.deposed`.
 */
export type DeposedObject = ResourceState & {
  /** Random, fixed when the object was deposed; unique within the state. */
  readonly deposedKey: string;
  /** When it was moved aside, ISO 8601. */
  readonly deposedAt: string;
};

/** Which operation a pending record is for. */
type PendingKind = 'create' | 'delete' | 'update';

/** An operation that was started but not confirmed: recorded before the provider call, cleared after. */
export type PendingOperation = {
  /** The operation's id (for a create, also `ctx.operationId`). */
  readonly id: string;
  /** What was started. */
  readonly kind: PendingKind;
  /** The resource's type token. */
  readonly type: string;
  /** The resource's address. */
  readonly name: string;
  /** The provider that serves it. */
  readonly provider: string;
  /** The provider instance it runs through; absent: the default instance. */
  readonly instance?: string;
  /** That instance's non-secret settings (recorded with the object if recovery adopts it). */
  readonly instanceSettings?: Readonly<Record<string, string | number | boolean>>;
  /** The inputs that identify the object (for a create: what `find` needs). */
  readonly inputs: Readonly<Record<string, unknown>>;
  /** The object's id, when known (deletes, updates). */
  readonly resourceId?: string;
  /**
   * A create-before-destroy create: the current object moves to `deposed` under this key when the
   * new one is recorded (recovery does the same). A delete: the deposed object it removes.
   */
  readonly deposedKey?: string;
  /** A create's declared dependencies and options, recorded with the object if recovery adopts it. */
  readonly dependencies?: readonly string[];
  /** The options recorded with the object if recovery adopts it. */
  readonly options?: StoredOptions;
  /** Secret paths of `inputs`, as in {@link ResourceState.secrets}. */
  readonly secrets: readonly string[];
  /** When the operation began, ISO 8601 (`find` never answers with an older object). */
  readonly startedAt: string;
  /**
   * A create of a type whose `find` needs it: the ids matching the create's key that existed just
   * before the request, written (with `requestAt`) before the request is sent. `null`: not yet
   * written, so the request was never sent. Absent: the type does not use it (or an older record).
   */
  readonly existing?: readonly string[] | null;
  /** When `existing` was taken, just before the request, ISO 8601. */
  readonly requestAt?: string;
};

/**
 * One of the stack's outputs (`plan(decls, { outputs })`), as the last apply recorded it: what
 * another stack reads with `stackOutputs()` / `stackRef()`. A secret output is secret as a whole:
 * its value is sealed at rest (with a passphrase) and redacted wherever it leaves the engine.
 */
export type StackOutput = {
  /** The output's name. */
  readonly name: string;
  /** Its value, as the apply resolved it (JSON data). */
  readonly value: unknown;
  /** True when the value is secret (a secret(), or a reference to a secret). */
  readonly secret: boolean;
};

/**
 * The state: what converge knows of every object it manages. Readonly, JSON-serialisable data.
 * `serial` rises by one on every committed change; `lineage` is an opaque id fixed when the state
 * is first made. A plan records both, and apply refuses a state that moved on.
 */
export type State = {
  /** The state format's version. */
  readonly version: number;
  /** Which history this state belongs to; fixed when it is first written. */
  readonly lineage: string;
  /** How many changes have been committed; rises by one on each. */
  readonly serial: number;
  /** Every managed object, by address. */
  readonly resources: Readonly<Record<string, ResourceState>>;
  /** Operations started but not confirmed (an apply was interrupted): the next plan recovers them. */
  readonly pending: Readonly<Record<string, PendingOperation>>;
  /** Deposed objects by deposedKey (see DeposedObject). */
  readonly deposed: Readonly<Record<string, DeposedObject>>;
  /** The stack's outputs by name, as the last apply recorded them (absent in states written before outputs). */
  readonly outputs?: Readonly<Record<string, StackOutput>>;
};
