// The pure choice of a step's action: the prior object, the declaration (references resolved, with
// unknowns where values are not known yet) and the resource's schema facts → action, cause,
// reasons and changes. No I/O, no state, no order: Terraform's plans/objchange in spirit.
//
//   prior      condition                                             action    cause
//   none       declared, refresh found it deleted outside            create    gone
//   none       declared                                              create    new
//   any        replacement requested by the caller                   replace   replace_requested
//   tainted    (a create made it, then failed)                       replace   tainted
//   any        recorded under another type                           replace   type_changed
//   any        made by another provider instance                     replace   provider_changed
//   any        an input change at a replaceOn path, or no update     replace   replace_forced
//   any        other input changes (ignoreChanges applied)           update    changed
//   any        only options, dependencies or instance settings differ update    options_changed (state only)
//   any        nothing differs, recorded under an alias              noop      moved
//   any        nothing differs                                       noop      unchanged
//
// ignoreChanges hides changes from updates only: a replacement creates its new object from the
// declaration as written (Terraform's rule), so `inputs` is then the unignored declaration.
import type { ResourceState, StoredOptions } from '../../state/model.js';
import type { Action } from '../action.js';
import type { StepCause } from './reason.js';
import { diffValues, type Change } from '../diff/diff.js';
import type { KeyedLists } from '../diff/diff.js';
import { applyIgnoreChanges } from '../diff/ignore.js';
import { formatPath, parsePath, pathCovers } from '../values/path.js';
import { stateChanges } from './options.js';

type ChooseInput = {
  /** The object as refresh saw it (or as recorded); undefined when there is none. */
  readonly prior: ResourceState | undefined;
  /** Refresh found the recorded object deleted outside converge. */
  readonly gone: boolean;
  readonly type: string;
  /** The declared inputs, defaulted, references resolved (unknown markers where not yet known). */
  readonly desired: Record<string, unknown>;
  /** Input paths whose change forces replacement: the schema's replaceOn and the replaceOnChanges option. */
  readonly replaceOn: readonly string[];
  /** False when the resource has no update: every input change is a replacement. */
  readonly canUpdate: boolean;
  readonly ignoreChanges: readonly string[] | undefined;
  readonly options: StoredOptions;
  readonly dependencies: readonly string[];
  /** The record is under another name (aliases). */
  readonly moved: boolean;
  readonly replaceRequested?: boolean;
  /** Lists whose elements are matched by a key field ('devices' → 'name'), not by position. */
  readonly keyedLists?: KeyedLists;
  /** Another provider instance makes it than the one that made the prior object. */
  readonly instanceMoved?: boolean;
  /** The instance's settings that differ from those recorded with the object (`provider.region`): recorded, never sent. */
  readonly settingChanges?: readonly Change[];
};

export type Choice = {
  readonly action: Action;
  readonly cause: StepCause;
  /** The input paths that force the replacement. */
  readonly reasons: readonly string[];
  /** Input changes, prior → what the step sends. */
  readonly changes: readonly Change[];
  /** Option and dependency changes (`options.protect`, `dependencies`): recorded, never sent. */
  readonly stateChanges: readonly Change[];
  /** What a create, update or replacement sends (and noop keeps). */
  readonly inputs: Record<string, unknown>;
};

export function chooseAction(input: ChooseInput): Choice {
  const { prior, desired } = input;
  if (!prior)
    return {
      action: 'create',
      cause: input.gone ? 'gone' : 'new',
      reasons: [],
      changes: diffValues({}, desired, input.keyedLists),
      stateChanges: [],
      inputs: desired,
    };
  const ownChanges = stateChanges(prior, input.options, input.dependencies);
  const optionChanges = input.settingChanges?.length ? [...ownChanges, ...input.settingChanges] : ownChanges;
  if (input.replaceRequested) return replace(input, prior, optionChanges, 'replace_requested', []);
  if (prior.tainted) return replace(input, prior, optionChanges, 'tainted', []);
  if (prior.type !== input.type) return replace(input, prior, optionChanges, 'type_changed', ['type']);
  if (input.instanceMoved) return replace(input, prior, optionChanges, 'provider_changed', ['provider']);

  const kept = applyIgnoreChanges(desired, prior.inputs as Record<string, unknown>, input.ignoreChanges);
  const changes = diffValues(prior.inputs, kept, input.keyedLists);
  if (changes.length > 0) {
    const forcing = input.replaceOn.map(parsePath);
    const forced = changes.filter((c) => forcing.some((f) => pathCovers(f, c.path)));
    if (forced.length > 0 || !input.canUpdate) {
      return replace(
        input,
        prior,
        optionChanges,
        'replace_forced',
        unique((forced.length ? forced : changes).map((c) => formatPath(c.path))),
      );
    }
    return { action: 'update', cause: 'changed', reasons: [], changes, stateChanges: optionChanges, inputs: kept };
  }
  if (optionChanges.length > 0)
    return {
      action: 'update',
      cause: 'options_changed',
      reasons: [],
      changes: [],
      stateChanges: optionChanges,
      inputs: kept,
    };
  return {
    action: 'noop',
    cause: input.moved ? 'moved' : 'unchanged',
    reasons: [],
    changes: [],
    stateChanges: [],
    inputs: kept,
  };
}

/** A replacement of `prior`: the new object is made from the declaration as written. */
function replace(
  input: ChooseInput,
  prior: ResourceState,
  stateChanges: readonly Change[],
  cause: StepCause,
  reasons: readonly string[],
): Choice {
  return {
    action: 'replace',
    cause,
    reasons,
    changes: diffValues(prior.inputs, input.desired, input.keyedLists),
    stateChanges,
    inputs: input.desired,
  };
}

function unique(list: readonly string[]): string[] {
  return [...new Set(list)];
}
