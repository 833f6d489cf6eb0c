// What apply returns (and ApplyError carries): every step that succeeded, failed (with its cause)
// or was skipped because something it depends on failed.
import type { Action } from '../action.js';
import type { TypedDecl } from '../decl/helper.js';
import type { ResourceDecl } from '../decl/resource-decl.js';
import type { ResourceState, State } from '../../state/model.js';
import { redactPaths, secretStrings } from '../values/redact.js';
import { mapPath, parsePath, type PathSegment } from '../values/path.js';
import { valueOfRecord } from '../decl/resolve.js';
import { strip } from '../plan/secrets.js';
import { own } from '../../state/keys.js';

/** A step that completed: its result is in the state. */
export type StepOutcome = {
  /** The resource's address. */
  readonly address: string;
  /** What the step did. */
  readonly action: Action;
  /** How long it took, retries and polls included. */
  readonly elapsedMs: number;
  /** An update whose inputs, resolved at apply, were exactly the recorded ones: no provider call was made. */
  readonly unchanged?: boolean;
};
/** A step that failed, with its error (a {@link ProviderError}, {@link TimeoutError}, {@link PartialCreateError}, …; secrets redacted). */
export type FailedStep = StepOutcome & {
  /** Why it failed. */
  readonly error: Error;
};

/** A step that was not run because a step it depends on failed, or the apply was stopped. */
export type SkippedStep = {
  /** The resource's address. */
  readonly address: string;
  /** What the step would have done. */
  readonly action: Action;
  /** The address of the failed step it waited for, or why the apply stopped. */
  readonly because: string;
};

/**
 * What `engine.apply()` and `engine.destroy()` return (and {@link ApplyError} carries as `result`):
 * every step that succeeded, failed or was skipped, and the outputs and state afterwards, secrets
 * redacted.
 */
export type ApplyResult = {
  /** Steps that completed, in the order they finished. */
  readonly succeeded: readonly StepOutcome[];
  /** Steps that failed. */
  readonly failed: readonly FailedStep[];
  /** Steps not run. */
  readonly skipped: readonly SkippedStep[];
  /** Outputs of every resource in the state after apply, secrets redacted. */
  readonly outputs: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
  /**
   * The state after apply with every secret path (the schema's, a secret(), a reference to a secret)
   * holding the sensitive marker: safe to log or serialise. `engine.state()` reads the real one.
   */
  readonly state: State;
  /** How long the apply took. */
  readonly elapsedMs: number;
  /**
   * One resource's outputs (and id) after apply, typed from its helper's declaration:
   * `result.output(web).publicIp`. Secret outputs hold the sensitive marker. Throws when the
   * resource is not in the state.
   */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  output<O>(decl: TypedDecl<any, O>): Readonly<O> & {
    /** The object's id. */
    readonly id: string;
  };
  /** One resource's outputs (and id) after apply, by name or by an untyped declaration. */
  output(declOrName: ResourceDecl | string): Readonly<Record<string, unknown>> & {
    /** The object's id. */
    readonly id: string;
  };
  /**
   * The real value at `path` of resource `address` (an output, else an input; 'id' is the id),
   * for a caller who needs a secret on purpose: `result.secret('db', 'password')`. Undefined when
   * the resource or path is absent. Not enumerable: JSON and util.inspect never show it.
   */
  secret(address: string, path: string): unknown;
};

type Outcome = Pick<ApplyResult, 'succeeded' | 'failed' | 'skipped'>;

/**
 * Builds what apply returns: `outputs` and `state` redacted (built on first read: a 10,000-resource
 * apply need not pay unless someone looks), the real state reachable only through `secret()`.
 */
export function applyResult(outcome: Outcome, finalState: State, elapsedMs: number): ApplyResult {
  const result = { ...outcome, elapsedMs } as Record<string, unknown>;
  let outputs: ApplyResult['outputs'] | undefined;
  let state: State | undefined;
  Object.defineProperty(result, 'outputs', { enumerable: true, get: () => (outputs ??= publicOutputs(finalState)) });
  Object.defineProperty(result, 'state', { enumerable: true, get: () => (state ??= redactState(finalState)) });
  Object.defineProperty(result, 'secret', {
    enumerable: false,
    value: (address: string, path: string): unknown => {
      if (typeof address !== 'string' || typeof path !== 'string' || !path)
        throw new TypeError('Expected `address` and `path` to be non-empty strings');
      const r = own(finalState.resources, address);
      return r ? valueOfRecord(r, parsePath(path)) : undefined;
    },
  });
  return result as unknown as ApplyResult;
}

/** Outputs of every resource, secrets replaced by the sensitive marker. */
export function publicOutputs(state: State): Record<string, Record<string, unknown>> {
  const out: Record<string, Record<string, unknown>> = {};
  for (const [name, r] of Object.entries(state.resources)) {
    out[name] = { id: r.id, ...(redactPaths(r.outputs, strip('outputs.', r.secrets)) as Record<string, unknown>) };
  }
  return out;
}

/** The state with every record's secret inputs and outputs replaced by the sensitive marker. */
function redactState(state: State): State {
  const redact = <T extends { inputs: unknown; outputs?: unknown; secrets: readonly string[] }>(r: T): T => ({
    ...r,
    inputs: redactPaths(r.inputs, strip('inputs.', r.secrets ?? [])),
    ...(r.outputs !== undefined ? { outputs: redactPaths(r.outputs, strip('outputs.', r.secrets ?? [])) } : {}),
  });
  const map = <T extends { inputs: unknown; outputs?: unknown; secrets: readonly string[] }>(
    o: Readonly<Record<string, T>>,
  ) => Object.fromEntries(Object.entries(o).map(([k, v]) => [k, redact(v)]));
  return {
    ...state,
    resources: map(state.resources),
    deposed: map(state.deposed),
    pending: map(state.pending),
  } as State;
}

/** The secret strings a record holds (for scrubbing a read's errors): the values at its secret paths. */
export function recordSecrets(r: Pick<ResourceState, 'inputs' | 'outputs' | 'secrets'>): string[] {
  const out = new Set<string>();
  for (const p of r.secrets ?? []) {
    const [root, ...rest] = parsePath(p);
    if (root === 'inputs' || root === 'outputs') collectAt(r[root], rest, out);
  }
  return [...out];
}

function collectAt(value: unknown, path: readonly PathSegment[], into: Set<string>): void {
  mapPath(value, path, (v) => {
    secretStrings(v, into);
    return v;
  });
}
