// update: change an object in place.
//
// Before the provider call nothing is recorded (the object exists and is recorded already; a
// rename through aliases moves its record first, in one change). After it: the new inputs and
// outputs, the declaration's options and dependencies. A crash in between leaves the old record:
// the next plan's refresh reads what the object holds and plans the rest of the change again.
// When the inputs, resolved now, are exactly the recorded ones, no provider call is made and the
// step is reported unchanged (an upstream update that left the referenced value as it was).
import type { StepRun } from './context.js';
import type { UpdateWork } from '../../plan/work.js';
import { ConvergeError } from '../../errors.js';
import { recordRename, recordResource } from '../../../state/ops.js';
import { diffValues } from '../../diff/diff.js';

type UpdateOutcome = { readonly id: string; readonly unchanged: boolean };

export async function runUpdate(run: StepRun, w: UpdateWork): Promise<UpdateOutcome> {
  const { ctx } = run;
  const { prior, priorName } = w;
  const update = w.def.update;
  if (!update) throw new ConvergeError(`${run.address}: its type ${w.step.type} cannot be updated in place.`);
  // Resolved (and any policy check left pending, run) before anything is recorded, the rename included.
  const inputs = run.desired(w, prior);
  if (priorName !== run.address) {
    await ctx.ledger.commit((serial) => recordRename(serial, { ...prior, name: run.address }, priorName));
  }
  if (diffValues(prior.inputs, inputs, w.def.keyedLists).length === 0) {
    await run.last(
      ctx.ledger.commit((serial) =>
        recordResource(
          serial,
          run.record(
            run.address,
            prior.id,
            prior.inputs as Record<string, unknown>,
            prior.outputs as Record<string, unknown>,
            prior,
          ),
        ),
      ),
    );
    return { id: prior.id, unchanged: true };
  }
  const result = await run.operate('update', 'update', (octx) =>
    update(octx, prior.id, { inputs: prior.inputs, outputs: prior.outputs }, inputs),
  );
  // An update may move the object's id (an LXD rename): the record follows it at once.
  const id = result.id ?? prior.id;
  await run.last(
    ctx.ledger.commit((serial) => recordResource(serial, run.record(run.address, id, inputs, result.outputs, prior))),
  );
  return { id, unchanged: false };
}
