// record: a step that changes the state only, never the object. It records a rename through
// aliases, option or dependency changes (protect, retainOnDelete, dependsOn, ...) and outputs a
// refresh found drifted, as one change. A crash before it leaves the old record, which the next
// plan compares again; nothing remote is touched either way.
import type { StepRun } from './context.js';
import { recordRename, recordResource } from '../../../state/ops.js';

export async function runRecord(run: StepRun): Promise<string | undefined> {
  const { w, ctx } = run;
  const prior = w.refreshed ?? w.prior;
  if (!prior) return undefined;
  const next = {
    ...run.record(
      run.address,
      prior.id,
      prior.inputs as Record<string, unknown>,
      prior.outputs as Record<string, unknown>,
      prior,
    ),
    createdAt: prior.createdAt,
    updatedAt: run.stamp,
  };
  const from = w.priorName ?? run.address;
  await run.last(
    ctx.ledger.commit((serial) =>
      from !== run.address ? recordRename(serial, next, from) : recordResource(serial, next),
    ),
  );
  return prior.id;
}
