// forget and forget-deposed: drop a record without touching the object (retainOnDelete, or an
// object refresh found already gone). One change; a crash before it leaves the record, and the
// next plan forgets it again.
import type { StepRun } from './context.js';
import { recordDelete, recordDeposedDelete } from '../../../state/ops.js';

export async function runForget(run: StepRun, deposed: boolean): Promise<void> {
  const { w, ctx } = run;
  if (deposed) {
    const key = w.deposed?.deposedKey ?? w.deposedKey!;
    await ctx.ledger.commit((serial) => recordDeposedDelete(serial, key));
    return;
  }
  await ctx.ledger.commit((serial) => recordDelete(serial, w.priorName ?? run.address));
}
