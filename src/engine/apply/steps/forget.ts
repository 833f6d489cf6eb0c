// forget and forget-deposed: drop a record without touching the object (retainOnDelete, or an
// object refresh found already gone). One change; a crash before it leaves the record, and the
// next plan forgets it again.
import type { StepRun } from './context.js';
import { recordDelete, recordDeposedDelete } from '../../../state/ops.js';

/** Drops the record the state holds under `name`. */
export async function runForget(run: StepRun, name: string): Promise<void> {
  await run.ctx.ledger.commit((serial) => recordDelete(serial, name));
}

/** Drops the deposed record under `deposedKey`. */
export async function runForgetDeposed(run: StepRun, deposedKey: string): Promise<void> {
  await run.ctx.ledger.commit((serial) => recordDeposedDelete(serial, deposedKey));
}
