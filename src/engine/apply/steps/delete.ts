// delete and delete-deposed: remove an object converge recorded (a resource removed from the
// stack, the old object of a delete-first replacement, or a deposed one). Never anything else.
//
// Before the provider call: a pending delete naming the object's id (and its deposed key). After
// it: the record removed and the pending record cleared, in one change. A crash in between leaves
// both: the next plan's recovery reads the object and drops the record only if it is gone.
// A 404 counts as done (the object is gone, whoever removed it; a retried delete whose first
// answer was lost gets one). Any other failure clears the pending mark and keeps the record.
import { StepRun, priorHandler } from './context.js';
import { clearPending, markPending, recordDelete, recordDeposedDelete } from '../../../state/ops.js';
import { ProviderError } from '../../errors.js';
import type { ResourceState } from '../../../state/model.js';

export async function runDelete(run: StepRun): Promise<void> {
  const { w, ctx } = run;
  const target: ResourceState = w.deposed ?? w.prior!;
  const name = w.deposed ? w.deposed.name : (w.priorName ?? run.address);
  const deposedKey = w.deposed?.deposedKey;
  // A declared step's old object (a replacement's) is deleted through its own type's handler, which
  // differs from the declared one after a type change; an orphan's handler is its recorded type's.
  const { def, provider } = w.decl ? priorHandler(w) : { def: w.def, provider: w.provider };
  // A removed or deposed object's pending delete may be written ahead (intents.ts); a replacement's is its own.
  let pendingId = (w.step.action === 'delete' && (await ctx.intents?.take(w))) || '';
  if (!pendingId)
    await ctx.ledger.commit((serial) => {
      const m = markPending(serial, {
        kind: 'delete',
        type: target.type,
        name,
        provider: provider.name,
        inputs: {},
        resourceId: target.id,
        secrets: [],
        startedAt: run.stamp,
        ...(deposedKey ? { deposedKey } : {}),
      });
      pendingId = m.pending.id;
      return m.change;
    });
  try {
    await run.operate(
      'delete',
      'delete',
      async (octx) => {
        try {
          await def.delete(octx, target.id, { inputs: target.inputs, outputs: target.outputs });
        } catch (error) {
          if (!(error instanceof ProviderError && error.notFound)) throw error;
        }
      },
      { def, provider },
    );
  } catch (error) {
    await ctx.ledger.commit((serial) => clearPending(serial, pendingId));
    throw error;
  }
  // The final record: awaited by the nodes that wait for this one, else at the end of the apply
  // (its pending mark keeps a crash in between recoverable: recovery reads the object, finds it gone).
  await run.last(
    ctx.ledger.commit((serial) =>
      deposedKey ? recordDeposedDelete(serial, deposedKey, pendingId) : recordDelete(serial, name, pendingId),
    ),
  );
}

/** A create-first replacement's old object, once the new one is recorded: deleted from `deposed`. */
export async function runDeleteDeposed(run: StepRun): Promise<void> {
  const { w } = run;
  const key = w.deposedKey!;
  const deposed = run.ctx.ledger.getDeposed(key);
  if (!deposed) return; // the create recorded the object anew without deposing (a tainted replace of nothing)
  await runDelete(new StepRun({ ...w, deposed }, run.ctx, run.defer));
}
