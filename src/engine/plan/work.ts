// What apply needs of each step (internal): the real declaration, the definition, the prior object.
import type { Step } from './step.js';
import type { ResourceDecl } from '../decl/resource-decl.js';
import type { AnyResource, Provider } from '../provider/define.js';
import type { ResourceState } from '../../state/model.js';

export type StepWork = {
  readonly step: Step;
  readonly def: AnyResource;
  readonly provider: Provider<unknown>;
  /** The declaration (refs unresolved: apply resolves them against the live state). */
  readonly decl?: ResourceDecl;
  /** The object as refresh saw it (or as the state records it without refresh). */
  readonly prior?: ResourceState;
  /** The state's name for the prior object (differs from the address after a rename). */
  readonly priorName?: string;
  /** Secret paths ('inputs.x', 'outputs.y') to record with the resource. */
  readonly secrets: readonly string[];
  /** Addresses of the steps to finish first. */
  readonly waitFor: readonly string[];
  /** Names the declaration references or depends on (recorded as the resource's dependencies). */
  readonly deps: readonly string[];
  /** The desired inputs when the plan knew them wholly (no reference left unknown): apply uses them as they are. */
  readonly inputs?: Readonly<Record<string, unknown>>;
  /** A refreshed record to write although the step is a noop (outputs drifted). */
  readonly refreshed?: ResourceState;
};
