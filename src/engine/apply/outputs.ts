// The last thing an apply records: the stack's outputs, each declared one resolved against the
// state its steps left (ref() as valueOfRecord reads it, a secret() or a reference to a secret
// making the output secret), in one change with its own serial, before the journal is folded. An
// output whose resource is not in that state (its create failed) keeps its recorded value, with a
// warning; the next apply records it.
import { planOrigin, planSaved, type Plan } from '../plan/plan.js';
import { outputsToRecord } from '../plan/outputs.js';
import type { StackOutput } from '../../state/model.js';
import { recordOutputs } from '../../state/ops.js';
import type { Ledger } from '../run/ledger.js';

/** Records the plan's outputs through the ledger; `warn` hears of those left as they were. */
export async function recordStackOutputs(
  plan: Plan,
  ledger: Ledger,
  recorded: Readonly<Record<string, StackOutput>>,
  warn: (message: string) => void,
): Promise<void> {
  const work = plan[planOrigin]?.outputs ?? plan[planSaved]?.work.outputs;
  if (!work) return;
  const { set, remove, unresolved } = outputsToRecord(work, recorded, (name) => ledger.get(name));
  for (const name of unresolved)
    warn(`Output '${name}' keeps its recorded value: a resource it refers to is not in the state after this apply.`);
  if (set.length || remove.length) await ledger.commit((base) => recordOutputs(base, set, remove));
}
