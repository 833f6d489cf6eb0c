// engine.refresh(): what the reads found, recorded (gone objects dropped, drifted ones rewritten)
// and reported as people see it (secret paths carry the sensitive marker, as in a plan).
import type { ResourceState, State } from '../../state/model.js';
import type { StateStore } from '../../state/store.js';
import type { RefreshResult } from '../engine-options.js';
import { Ledger } from '../run/ledger.js';
import { recordDelete, recordResource } from '../../state/ops.js';
import { own } from '../../state/keys.js';
import { diffValues, type Change, type KeyedLists } from '../diff/diff.js';
import { secretInputPatterns } from '../plan/secrets.js';
import { formatPath, pathCovers } from '../values/path.js';
import { sensitive } from '../values/secret.js';

/** Drift as people see it: secret paths carry the sensitive marker, as in a plan. */
function driftChanges(
  changes: Change[],
  secrets: readonly string[],
): { path: string; before: unknown; after: unknown }[] {
  const ins = secretInputPatterns(secrets);
  return changes.map((c) => {
    const secret = ins.some((s) => pathCovers(s, c.path));
    return { path: formatPath(c.path), before: secret ? sensitive : c.before, after: secret ? sensitive : c.after };
  });
}

/** Records what `read` found against `state` and says which resources drifted, went or stayed. */
export async function recordRefresh(
  state: State,
  read: ReadonlyMap<string, ResourceState | null>,
  store: StateStore,
  keyedListsOf: (type: string) => KeyedLists | undefined,
): Promise<RefreshResult> {
  const ledger = new Ledger(state, store);
  const drifted: { address: string; changes: { path: string; before: unknown; after: unknown }[] }[] = [];
  const gone: string[] = [];
  const unchanged: string[] = [];
  for (const [name, r] of read) {
    const prior = own(state.resources, name)!;
    if (r === null) {
      gone.push(name);
      await ledger.commit((s) => recordDelete(s, name));
    } else if (r !== prior) {
      const changes = diffValues(prior.inputs, r.inputs, keyedListsOf(prior.type));
      if (changes.length) drifted.push({ address: name, changes: driftChanges(changes, prior.secrets) });
      else unchanged.push(name);
      await ledger.commit((s) => recordResource(s, r));
    } else unchanged.push(name);
  }
  return { drifted, gone, unchanged };
}
