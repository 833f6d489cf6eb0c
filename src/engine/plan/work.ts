// What apply needs of each step (internal): the real declaration, the handlers, the prior object,
// and the step's nodes in the execution graph. Never shown: Step is the public, redacted view.
import type { Step } from './step.js';
import type { ResourceDecl } from '../decl/resource-decl.js';
import type { AnyResource, Provider } from '../provider/define.js';
import type { DeposedObject, ResourceState } from '../../state/model.js';

/**
 * One unit of apply work. A step has one node, or two for a replacement: delete-first is
 * `delete` then `create`; create-first is `create-replacement` (the old object is deposed) then
 * `delete-deposed`. A noop with nothing to record has none.
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
export type { Resolved } from '../provider/define.js';

export type NodeKind =
  'create' | 'create-replacement' | 'update' | 'record' | 'delete' | 'delete-deposed' | 'forget' | 'forget-deposed';

export type ExecNode = {
  /** Unique in the plan: `<kind>:<step index>`. */
  readonly id: string;
  readonly kind: NodeKind;
  /** Node ids to finish first. */
  readonly waitFor: readonly string[];
};

export type StepWork = {
  readonly step: Step;
  /** The handler for the declared type (creates, updates). */
  readonly def: AnyResource;
  readonly provider: Provider<unknown>;
  /** The handler for the recorded object's type, when it differs (a replacement that changes type deletes through it). */
  readonly priorDef?: AnyResource;
  readonly priorProvider?: Provider<unknown>;
  /** The declaration (refs unresolved: apply resolves them against the live state). */
  readonly decl?: ResourceDecl;
  /** The current object as refresh saw it (or as the state records it without refresh). */
  readonly prior?: ResourceState;
  /** The state's name for the prior object (differs from the address after a rename). */
  readonly priorName?: string;
  /** The deposed object a `delete-deposed` step removes. */
  readonly deposed?: DeposedObject;
  /** Create-first replacement: the key the old object is deposed under. */
  readonly deposedKey?: string;
  /** Secret paths ('inputs.x', 'outputs.y') to record with the resource. */
  readonly secrets: readonly string[];
  /** Names the declaration references or depends on (recorded as the resource's dependencies). */
  readonly deps: readonly string[];
  /** The inputs a create, update or replacement sends, when the plan knew them wholly; else apply resolves them. */
  readonly inputs?: Readonly<Record<string, unknown>>;
  /** A refreshed record to write although the step is a noop (outputs drifted). */
  readonly refreshed?: ResourceState;
  /** A replacement or removal that forgets the old object instead of deleting it (retainOnDelete). */
  readonly retain?: boolean;
  /** The step's nodes, in the order they run. */
  readonly nodes: readonly ExecNode[];
};
