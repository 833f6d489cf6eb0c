// Drift: what changed outside converge, found by refresh. A plan lists it in a section of its own
// ("Objects changed outside converge", Terraform's), before the actions; steps that repair it carry
// cause 'drift'. Values at secret paths are the sensitive marker, as everywhere in a plan.
import type { ResourceState, State } from '../../state/model.js';
import { own } from '../../state/keys.js';
import { diffValues } from '../diff/diff.js';
import { formatPath, parsePath, pathCovers } from '../values/path.js';
import { sensitive } from '../values/secret.js';
import { secretInputPatterns } from './secrets.js';
import { stateNameOf, type StepWork } from './work.js';

/** One input that changed outside converge. */
export type DriftChange = {
  /** The input path, e.g. `rules[0].cidrs[1]`. */
  readonly path: string;
  /** The value recorded in the state. */
  readonly before: unknown;
  /** The value refresh found. */
  readonly after: unknown;
};

/** One object refresh found different from its record: changed (inputs) or deleted outside converge. */
export type DriftEntry = {
  /** The resource's address. */
  readonly address: string;
  /** Its type token. */
  readonly type: string;
  /** The object's id. */
  readonly id: string;
  /** `update`: its inputs changed; `delete`: it is gone. */
  readonly action: 'update' | 'delete';
  /** The inputs that differ, recorded → found (empty for a deletion). */
  readonly changes: readonly DriftChange[];
};

/** The drift refresh found: every recorded object whose inputs changed, or that is gone. */
export function findDrift(state: State, refreshed: ReadonlyMap<string, ResourceState | null>): DriftEntry[] {
  const out: DriftEntry[] = [];
  for (const [name, r] of refreshed) {
    const prior = own(state.resources, name);
    if (!prior) continue;
    if (r === null) {
      out.push({ address: name, type: prior.type, id: prior.id, action: 'delete', changes: [] });
      continue;
    }
    if (r === prior) continue;
    const changes = redactDrift(
      diffValues(prior.inputs, r.inputs).map((c) => ({ path: formatPath(c.path), before: c.before, after: c.after })),
      prior.secrets,
    );
    if (changes.length) out.push({ address: name, type: prior.type, id: prior.id, action: 'update', changes });
  }
  return out.sort((a, b) => a.address.localeCompare(b.address));
}

/** Drift changes with secret input paths replaced by the sensitive marker. */
function redactDrift(changes: readonly DriftChange[], secrets: readonly string[]): DriftChange[] {
  const ins = secretInputPatterns(secrets);
  return changes.map((c) => {
    const secret = ins.some((s) => pathCovers(s, parsePath(c.path)));
    return secret
      ? {
          path: c.path,
          before: c.before === undefined ? undefined : sensitive,
          after: c.after === undefined ? undefined : sensitive,
        }
      : c;
  });
}

/** Marks the update steps that put a drifted object back as it is declared with cause 'drift'. */
export function markDriftRepairs(work: readonly StepWork[], drift: readonly DriftEntry[]): StepWork[] {
  const drifted = new Set(drift.filter((d) => d.action === 'update').map((d) => d.address));
  return work.map((w) => {
    const name = stateNameOf(w);
    if (!drifted.has(name) || w.step.action !== 'update' || w.step.cause !== 'changed') return w;
    return { ...w, step: { ...w.step, cause: 'drift' } };
  });
}
