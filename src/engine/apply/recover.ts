// Recovery of operations an earlier run started but never confirmed (a crash, a kill, a timeout).
// A pending create is looked for through the provider's `find`: adopted when found, dropped when
// not. A pending delete is checked with `read`: the record goes when the object is gone.
import type { State } from '../../state/model.js';
import { clearPending, recordDelete, recordResource } from '../../state/ops.js';
import type { Ledger } from './ledger.js';
import { secretPathsOf, type Resolved } from '../plan/planner.js';
import type { OperationContext } from '../provider/context.js';
import { isCannotTell } from '../provider/define.js';

export type RecoverDeps = {
  readonly resolve: (token: string) => Resolved | undefined;
  readonly context: (resolved: Resolved, address: string, operation: 'find' | 'read') => OperationContext;
  readonly now: () => string;
};

/** Resolves every pending operation; returns the warnings that say what happened. */
export async function recoverPending(state: State, ledger: Ledger, deps: RecoverDeps): Promise<string[]> {
  const warnings: string[] = [];
  for (const op of Object.values(state.pending)) {
    const resolved = deps.resolve(op.type);
    if (!resolved) {
      warnings.push(`${op.name}: an interrupted ${op.kind} of a ${op.type} is pending, but no provider of this engine has that type; the record is kept.`);
      continue;
    }
    const { def, provider } = resolved;
    if (op.kind === 'create') {
      if (!def.find) {
        await ledger.commit((s) => clearPending(s, op.id));
        warnings.push(`${op.name}: an interrupted create could not be checked (${op.type} has no find); if the object exists, import it.`);
        continue;
      }
      const found = await def.find({ ...deps.context(resolved, op.name, 'find'), operationId: op.id }, op.inputs, { startedAt: op.startedAt, operationId: op.id });
      if (isCannotTell(found)) {
        warnings.push(`${op.name}: an interrupted create of a ${op.type} could not be checked (${found.cannotTell}); the pending record is kept. If the object exists, import it; if not, remove the record with forget.`);
        continue;
      }
      const existing = ledger.get(op.name);
      if (found && !(existing && existing.id === found.id)) {
        const at = deps.now();
        await ledger.commit((s) => recordResource(s, {
          type: op.type, name: op.name, provider: provider.name, id: found.id, inputs: op.inputs, outputs: found.outputs,
          dependencies: [], options: {}, secrets: secretPathsOf(def),
          createdAt: at, updatedAt: at,
        }, op.id));
        warnings.push(`${op.name}: an interrupted create had made ${found.id}; it was adopted into the state.`);
      } else {
        await ledger.commit((s) => clearPending(s, op.id));
        warnings.push(`${op.name}: an interrupted create left no object; its pending record was dropped.`);
      }
    } else if (op.kind === 'delete') {
      const existing = ledger.get(op.name);
      if (existing && op.resourceId && existing.id === op.resourceId) {
        const read = await def.read(deps.context(resolved, op.name, 'read'), existing.id, { inputs: existing.inputs, outputs: existing.outputs });
        if (read === null) {
          await ledger.commit((s) => recordDelete(s, op.name, op.id));
          warnings.push(`${op.name}: an interrupted delete had removed ${existing.id}; it was removed from the state.`);
          continue;
        }
      }
      await ledger.commit((s) => clearPending(s, op.id));
      warnings.push(`${op.name}: an interrupted delete left the object in place; the plan decides again.`);
    } else {
      await ledger.commit((s) => clearPending(s, op.id));
      warnings.push(`${op.name}: an interrupted update was dropped; refresh shows what the object holds now.`);
    }
  }
  return warnings;
}
