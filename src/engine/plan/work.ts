// What apply needs of each step (internal), one type per kind of step: the real declaration, the
// handlers, the recorded object, and the step's nodes in the execution graph; each kind holds
// exactly the fields its nodes read. Never shown: Step is the public, redacted view.
import type { Step } from './step.js';
import type { ResourceDecl } from '../decl/resource-decl.js';
import type { AnyResource, Provider } from '../provider/define.js';
import type { DeposedObject, ResourceState } from '../../state/model.js';

export type { Resolved } from '../provider/define.js';

/**
 * A node of the execution graph: one provider operation (or one state change) of a step. A step
 * has one node, or two for a replacement: delete-first is `delete` then `create`; create-first is
 * `create-replacement` (the old object is deposed) then `delete-deposed`. A noop with nothing to
 * record has none.
 *
 *   node                 before the provider call        after it
 *   create               pending create                  the object, pending cleared
 *   create-replacement   pending create (deposedKey)     new object current, old one deposed
 *   update               —                               the object's new inputs and outputs
 *   record               —                               options, dependencies, name or refreshed outputs
 *   delete               pending delete                  the record removed
 *   delete-deposed       pending delete (deposedKey)     the deposed record removed
 *   forget / forget-deposed  —                           the record removed, the object left alone
 */
export type NodeKind =
  'create' | 'create-replacement' | 'update' | 'record' | 'delete' | 'delete-deposed' | 'forget' | 'forget-deposed';

export type ExecNode = {
  /** Unique in the plan: `<kind>:<step index>`. */
  readonly id: string;
  readonly kind: NodeKind;
  /** Node ids to finish first. */
  readonly waitFor: readonly string[];
};

/** What every step's work holds, whatever its kind. */
type Common = {
  readonly step: Step;
  /** The handler for the step's type: the declared type's, or an orphan's recorded one. */
  readonly def: AnyResource;
  readonly provider: Provider<unknown>;
  /** Secret paths ('inputs.x', 'outputs.y') to record with the resource. */
  readonly secrets: readonly string[];
  /** Names the declaration references or depends on (recorded as the resource's dependencies); none for an orphan. */
  readonly deps: readonly string[];
};

/** A declared resource's part: the declaration, and what it sends when the plan knew it. */
type Declared = {
  /** The declaration (refs unresolved: apply resolves them against the live state). */
  readonly decl: ResourceDecl;
  /** The inputs a create, update or replacement sends, when the plan knew them wholly; else apply resolves them. */
  readonly inputs?: Readonly<Record<string, unknown>>;
  /**
   * Otherwise, the inputs as the plan parsed them, unknown markers where references were not known
   * yet: a caller that knows references read what the plan read (or were unknown to it) fills these
   * in (StepRun.desired) rather than parsing the whole declaration again.
   */
  readonly planned?: Readonly<Record<string, unknown>>;
};

/** A recorded object's part. */
type Recorded = {
  /** The current object as refresh saw it (or as the state records it without refresh). */
  readonly prior: ResourceState;
  /** The state's name for it (differs from the address after a rename). */
  readonly priorName: string;
};

/** A declared resource with no object yet (none recorded, or refresh found it gone): a `create` node. */
export type CreateWork = Common & Declared & { readonly kind: 'create' };

/** A declared resource changed in place (`update` node), or in the state only (`record` node). */
export type UpdateWork = Common & Declared & Recorded & { readonly kind: 'update' };

/**
 * A resource left alone: no node, or a `record` node when its outputs drifted (`refreshed`) or it
 * was renamed. A refresh-only plan's noops have no declaration.
 */
export type NoopWork = Common &
  Recorded & {
    readonly kind: 'noop';
    readonly decl?: ResourceDecl;
    /** A refreshed record to write although the step is a noop (outputs drifted). */
    readonly refreshed?: ResourceState;
  };

/** What a replacement holds, whichever order it runs in. */
type Replacing = Common &
  Declared &
  Recorded & {
    /** The handler for the recorded object's type, when it differs (the old object is deleted through it). */
    readonly priorDef?: AnyResource;
    readonly priorProvider?: Provider<unknown>;
    /** The old object is forgotten instead of deleted (retainOnDelete). */
    readonly retain?: boolean;
  };

/** A replacement as the planner makes it; the execution graph decides its order (createBeforeDestroy propagates). */
type ReplaceWork = Replacing & { readonly kind: 'replace' };

/** A replacement that deletes (or forgets) the old object, then creates the new one. */
export type DeleteFirstWork = Replacing & { readonly kind: 'replace-delete-first' };

/**
 * A replacement that creates the new object first (`create-replacement`: the old one is deposed
 * under `deposedKey`), then deletes (or forgets) the deposed one (`delete-deposed`, `forget-deposed`).
 */
export type CreateFirstWork = Replacing & {
  readonly kind: 'replace-create-first';
  /** The key the old object is deposed under. */
  readonly deposedKey: string;
};

/** A recorded object no declaration claims, deleted: a `delete` node. */
export type DeleteWork = Common & Recorded & { readonly kind: 'delete' };
/** A recorded object dropped from the state, the object left alone (retainOnDelete, gone, or a refresh-only plan's). */
type ForgetWork = Common & Recorded & { readonly kind: 'forget' };

/** A deposed object an earlier create-first replacement left: a `delete-deposed` node. */
export type DeposedWork = Common & {
  readonly kind: 'delete-deposed';
  /** The deposed object the step removes. */
  readonly deposed: DeposedObject;
};

/** A step's work as the planner makes it, before the execution graph orders replacements and gives nodes. */
export type StepDraft = CreateWork | UpdateWork | NoopWork | ReplaceWork | DeleteWork | ForgetWork | DeposedWork;

/** A step's work once a replacement's order is decided. */
export type OrderedWork = Exclude<StepDraft, ReplaceWork> | DeleteFirstWork | CreateFirstWork;

/** One unit of apply work: one member per kind, each with exactly the fields its nodes read. */
export type StepWork = OrderedWork & {
  /** The step's nodes, in the order they run. */
  readonly nodes: readonly ExecNode[];
};

/** The work of a step that sends a declaration's inputs: a create, an update, a replacement. */
export type DeclaredWork = CreateWork | UpdateWork | DeleteFirstWork | CreateFirstWork;

/** The work of a replacement, in either order. */
export type ReplacementWork = DeleteFirstWork | CreateFirstWork;

/** The recorded object a step acts on: the prior one, or the deposed one; none for a create. */
export function objectOf(w: StepDraft | OrderedWork): ResourceState | undefined {
  if (w.kind === 'create') return undefined;
  return w.kind === 'delete-deposed' ? w.deposed : w.prior;
}

/** The step's declaration, when it has one (orphans and refresh-only steps have none). */
export function declOf(w: StepDraft | OrderedWork): ResourceDecl | undefined {
  return 'decl' in w ? w.decl : undefined;
}

/** The state's name for the step's object: its prior name, the deposed object's, else the address. */
export function stateNameOf(w: StepDraft | OrderedWork): string {
  if (w.kind === 'delete-deposed') return w.deposed.name;
  return w.kind === 'create' ? w.step.address : w.priorName;
}
