// record: a step that changes the state only, never the object. It records a rename through
// aliases, option or dependency changes (protect, retainOnDelete, dependsOn, ...) and outputs a
// refresh found drifted, as one change. A crash before it leaves the old record, which the next
// plan compares again; nothing remote is touched either way.
import type { StepRun } from './context.js';
import type { NoopWork, UpdateWork } from '../../plan/work.js';
import { recordRename, recordResource } from '../../../state/ops.js';

export async function runRecord(run: StepRun, w: UpdateWork | NoopWork): Promise<string> {
  const { ctx } = run;
  const prior = (w.kind === 'noop' && w.refreshed) || w.prior;
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
  const from = w.priorName;
  await run.last(
    ctx.ledger.commit((serial) =>
      from !== run.address ? recordRename(serial, next, from) : recordResource(serial, next),
    ),
  );
  return prior.id;
}
