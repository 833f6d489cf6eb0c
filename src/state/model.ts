// The state: what converge knows of every object it manages. Readonly, JSON-serialisable data;
// only ops.ts makes a new one. `serial` rises by one on every committed change; `lineage` is an
// opaque id fixed when the state is first made, compared byte for byte.

/** 2: deposed objects are typed records in `deposed` (1 kept them as resources named `<name>~deposed-<id>`). */
export const STATE_VERSION = 2;

/** The keyed collections of a state; stores persist each as a map of whole records. */
export const collections = ['resources', 'pending', 'deposed'] as const;

export type StoredOptions = {
  readonly protect?: boolean;
  readonly retainOnDelete?: boolean;
  readonly createBeforeDestroy?: boolean;
  readonly ignoreChanges?: readonly string[];
  readonly replaceOnChanges?: readonly string[];
  readonly dependsOn?: readonly string[];
  readonly timeouts?: Readonly<Record<string, string>>;
};

export type ResourceState = {
  readonly type: string;
  readonly name: string;
  readonly provider: string;
  readonly id: string;
  readonly inputs: Readonly<Record<string, unknown>>;
  readonly outputs: Readonly<Record<string, unknown>>;
  /** Names of the resources it referenced or depended on when last applied. */
  readonly dependencies: readonly string[];
  readonly options: StoredOptions;
  /** Paths, prefixed 'inputs.' or 'outputs.', whose values are secret. */
  readonly secrets: readonly string[];
  readonly createdAt: string;
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
  readonly deposedAt: string;
};

type PendingKind = 'create' | 'delete' | 'update';

/** An operation that was started but not confirmed: recorded before the provider call, cleared after. */
export type PendingOperation = {
  readonly id: string;
  readonly kind: PendingKind;
  readonly type: string;
  readonly name: string;
  readonly provider: string;
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
  readonly options?: StoredOptions;
  readonly secrets: readonly string[];
  readonly startedAt: string;
};

export type State = {
  readonly version: number;
  readonly lineage: string;
  readonly serial: number;
  readonly resources: Readonly<Record<string, ResourceState>>;
  readonly pending: Readonly<Record<string, PendingOperation>>;
  /** Deposed objects by deposedKey (see DeposedObject). */
  readonly deposed: Readonly<Record<string, DeposedObject>>;
};
