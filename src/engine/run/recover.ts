// Recovery of operations an earlier run started but never confirmed (a crash, a kill, a timeout),
// at the start of the next plan. What it does, per pending operation:
//
//   pending create    a type that notes what existed before the request (`existing`) and whose
//                     record holds no note yet: the request was never sent, the record is dropped;
//                     otherwise find(inputs, {startedAt, operationId, existing}):
//                       found      → adopted under its name; for a create-first replacement the
//                                    current (old) object moves to `deposed` first, so the next
//                                    plan deletes it, as the uninterrupted path would have
//                       null       → nothing was made: the record is dropped
//                       cannotTell → the record is kept and the plan says so: the user decides
//                                    (import the object, or drop the record)
//                       no find    → the same as cannotTell
//   pending delete    read the object: gone → its record (or deposed record) is removed;
//                     still there → the mark is dropped and the plan decides again
//   pending update    dropped: refresh shows what the object holds now
import type { State } from '../../state/model.js';
import { clearPending, recordDelete, recordDeposed, recordDeposedDelete, recordResource } from '../../state/ops.js';
import type { Ledger } from './ledger.js';
import type { Resolved } from '../provider/define.js';
import { secretPathsOf } from '../provider/secret-paths.js';
import type { OperationContext } from '../provider/context.js';
import { isCannotTell } from '../provider/define.js';
import { instanceFields } from '../provider/instance.js';

export type RecoverDeps = {
  readonly resolve: (token: string, instance?: string) => Resolved | undefined;
  readonly context: (resolved: Resolved, address: string, operation: 'find' | 'read') => OperationContext;
  readonly now: () => string;
};

/** Resolves every pending operation; returns the warnings that say what happened. */
export async function recoverPending(state: State, ledger: Ledger, deps: RecoverDeps): Promise<string[]> {
  const warnings: string[] = [];
  for (const op of Object.values(state.pending)) {
    const resolved = deps.resolve(op.type, op.instance);
    if (!resolved) {
      warnings.push(
        op.instance === undefined
          ? `${op.name}: an interrupted ${op.kind} of a ${op.type} is pending, but no provider of this engine has that type; the record is kept.`
          : `${op.name}: an interrupted ${op.kind} of a ${op.type} is pending, but this engine has no ${op.provider} instance '${op.instance}' to check it with; the record is kept.`,
      );
      continue;
    }
    const { def, provider } = resolved;
    if (op.kind === 'create') {
      if (!def.find) {
        warnings.push(
          `${op.name}: an interrupted create of a ${op.type} cannot be checked (the type has no find); the pending record is kept. If the object exists, import it; then drop the record.`,
        );
        continue;
      }
      if (def.existing && op.existing === null) {
        // The evidence is written before the request: without it, the request was never sent.
        await ledger.commit((s) => clearPending(s, op.id));
        warnings.push(`${op.name}: an interrupted create never sent its request; its pending record was dropped.`);
        continue;
      }
      const found = await def.find({ ...deps.context(resolved, op.name, 'find'), operationId: op.id }, op.inputs, {
        startedAt: op.startedAt,
        operationId: op.id,
        ...(op.existing ? { existing: op.existing } : {}),
      });
      if (isCannotTell(found)) {
        const ids = found.candidates ?? [];
        warnings.push(
          `${op.name}: an interrupted create of a ${op.type} could not be checked (${found.cannotTell}); the pending record is kept. ` +
            (ids.length
              ? `If ${ids.length === 1 ? `${ids[0]} is` : `one of ${ids.join(', ')} is`} this stack's, adopt it with engine.import(decl, id) (the record then goes); otherwise drop the record with engine.forgetPending('${op.name}').`
              : `If the object exists, import it; then drop the record with engine.forgetPending('${op.name}').`),
        );
        continue;
      }
      const current = ledger.get(op.name);
      if (found && current?.id === found.id) {
        await ledger.commit((s) => clearPending(s, op.id));
        continue;
      }
      if (!found) {
        await ledger.commit((s) => clearPending(s, op.id));
        warnings.push(`${op.name}: an interrupted create left no object; its pending record was dropped.`);
        continue;
      }
      const at = deps.now();
      const made = {
        type: op.type,
        name: op.name,
        provider: provider.name,
        ...instanceFields(provider),
        id: found.id,
        inputs: op.inputs,
        outputs: found.outputs,
        dependencies: [...(op.dependencies ?? [])],
        options: op.options ?? {},
        secrets: [...new Set([...secretPathsOf(def), ...(op.secrets ?? [])])],
        createdAt: at,
        updatedAt: at,
      };
      if (op.deposedKey && current && current.id !== found.id) {
        await ledger.commit((s) =>
          recordDeposed(s, made, { ...current, deposedKey: op.deposedKey!, deposedAt: at }, op.id),
        );
        warnings.push(
          `${op.name}: an interrupted create-before-destroy replacement had made ${found.id}; it was adopted, and the old object ${current.id} is deposed (this plan deletes it).`,
        );
      } else {
        await ledger.commit((s) => recordResource(s, made, op.id));
        warnings.push(`${op.name}: an interrupted create had made ${found.id}; it was adopted into the state.`);
      }
    } else if (op.kind === 'delete') {
      const existing = op.deposedKey ? ledger.getDeposed(op.deposedKey) : ledger.get(op.name);
      if (existing && op.resourceId && existing.id === op.resourceId) {
        const read = await def.read(deps.context(resolved, op.name, 'read'), existing.id, {
          inputs: existing.inputs,
          outputs: existing.outputs,
        });
        if (read === null) {
          await ledger.commit((s) =>
            op.deposedKey ? recordDeposedDelete(s, op.deposedKey, op.id) : recordDelete(s, op.name, op.id),
          );
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
