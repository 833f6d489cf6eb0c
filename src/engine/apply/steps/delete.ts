// delete and delete-deposed: remove an object converge recorded (a resource removed from the
// stack, the old object of a delete-first replacement, or a deposed one). Never anything else.
//
// Before the provider call: a pending delete naming the object's id (and its deposed key). After
// it: the record removed and the pending record cleared, in one change. A crash in between leaves
// both: the next plan's recovery reads the object and drops the record only if it is gone.
// A 404 counts as done (the object is gone, whoever removed it; a retried delete whose first
// answer was lost gets one): this step is the one layer that absorbs it, providers' deletes throw
// what their vendor says. Any other failure clears the pending mark and keeps the record.
import { priorHandler, type StepRun } from './context.js';
import type { CreateFirstWork } from '../../plan/work.js';
import type { AnyResource, Provider } from '../../provider/define.js';
import { clearPending, markPending, recordDelete, recordDeposedDelete } from '../../../state/ops.js';
import { ProviderError } from '../../errors.js';
import type { ResourceState } from '../../../state/model.js';

/** What a delete removes: the object, the state's name for it (and its deposed key), the handler that deletes it. */
type DeleteTarget = {
  readonly object: ResourceState;
  readonly name: string;
  readonly deposedKey?: string;
  /** The handler of the object's own type (a replacement's old object may be of another type than the declared one). */
  readonly def: AnyResource;
  readonly provider: Provider<unknown>;
};

export async function runDelete(run: StepRun, target: DeleteTarget): Promise<void> {
  const { ctx } = run;
  const { object, name, deposedKey, def, provider } = target;
  // A removed or deposed object's pending delete may be written ahead (intents.ts); a replacement's is its own.
  let pendingId = (await ctx.intents?.take(run.w)) || '';
  if (!pendingId)
    await ctx.ledger.commit((serial) => {
      const m = markPending(serial, {
        kind: 'delete',
        type: object.type,
        name,
        provider: provider.name,
        ...(provider.instanceName !== undefined ? { instance: provider.instanceName } : {}),
        inputs: {},
        resourceId: object.id,
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
          await def.delete(octx, object.id, { inputs: object.inputs, outputs: object.outputs });
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
export async function runDeleteDeposed(run: StepRun, w: CreateFirstWork): Promise<void> {
  const deposed = run.ctx.ledger.getDeposed(w.deposedKey);
  if (!deposed) return; // the create recorded the object anew without deposing (a tainted replace of nothing)
  await runDelete(run, { object: deposed, name: deposed.name, deposedKey: deposed.deposedKey, ...priorHandler(w) });
}
