// Builds what apply returns (the types are in ../apply-result.ts): outputs and state with secrets as
// markers, the real values reachable only through result.secret(); and the secret strings a record
// holds, for scrubbing errors.
import type { ApplyResult } from '../apply-result.js';
import type { ResourceState, State } from '../../state/model.js';
import { redactPaths, secretStrings } from '../values/redact.js';
import { mapPath, parsePath, type PathSegment } from '../values/path.js';
import { valueOfRecord } from '../decl/resolve.js';
import { strip } from '../plan/secrets.js';
import { own } from '../../state/keys.js';

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
