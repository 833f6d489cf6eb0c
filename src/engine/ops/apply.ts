// engine.apply(): under the lock, a plan whose state has not moved on is carried out step by step
// (independent steps at once), each recorded as it completes; the result holds the outputs with
// secrets as markers, and an ApplyError carries it when a step failed.
import type { ResourceDecl } from '../decl/resource-decl.js';
import type { EngineCore } from './core.js';
import type { ApplyOptions } from '../engine-options.js';
import { Plan, planPolicies, planSaved, planWork } from '../plan/plan.js';
import { policyGate } from '../plan/policy-check.js';
import { workOf } from '../plan/work-of.js';
import { own } from '../../state/keys.js';
import { ApplyError, ConvergeError, PolicyViolationError, StalePlanError } from '../errors.js';
import { ownSignal } from '../run/signal.js';
import { Ledger } from '../run/ledger.js';
import { applySteps } from '../apply/apply.js';
import { PendingIntents } from '../apply/intents.js';
import type { ApplyResult } from '../apply-result.js';
import { applyResult } from '../apply/result.js';
import { recordStackOutputs } from '../apply/outputs.js';

/** Carries out `plan`; see Engine.apply. */
export async function runApply(core: EngineCore, plan: Plan, options: ApplyOptions): Promise<ApplyResult> {
  if (!(plan instanceof Plan) || !(plan[planWork] || plan[planSaved]))
    throw new TypeError('Expected `plan` to be a Plan returned by engine.plan() or Plan.load()');
  const work = workOf(plan, options.declarations, core.providers, core.resolve);
  // Policies before anything is read or changed: every mandatory violation refuses the plan.
  const policies = policyGate(plan, plan[planPolicies], core.policies);
  if (policies.mandatory.length) throw new PolicyViolationError(policies.mandatory, 'plan');
  const started = core.now();
  const lock = await core.lock(plan.destroy ? 'destroy' : 'apply', options.signal, options.onEvent);
  try {
    const state = await core.store.read();
    // A state never written (serial 0) gets a new lineage on every read: a plan made against one in another process is not stale.
    const fresh = plan.serial === 0 && state.serial === 0;
    if ((state.lineage !== plan.lineage && !fresh) || state.serial !== plan.serial)
      throw new StalePlanError(plan.lineage, plan.serial, state.serial, state.lineage);
    const emit = core.emitter(options.onEvent);
    // Before anything is written: secrets this apply would store in clear (no passphrase), unless its plan said so.
    const clear = core.clearTextWarning(work);
    const told = clear !== undefined && plan.warnings.includes(clear);
    for (const message of new Set([
      ...lock.warnings,
      ...(core.store.takeWarnings?.() ?? []),
      ...(clear && !told ? [clear] : []),
    ]))
      emit({ type: 'warning', at: core.now(), message });
    for (const v of policies.advisory)
      emit({
        type: 'warning',
        at: core.now(),
        ...(v.address ? { address: v.address } : {}),
        message: `policy ${v.policy} (advisory): ${v.message}`,
      });
    emit({
      type: 'apply_start',
      at: core.now(),
      steps: work.filter((w) => w.step.action !== 'noop').length,
      ...(plan.destroy ? { destroy: true } : {}),
    });
    const ledger = new Ledger(state, core.store);
    const intents = new PendingIntents(work, ledger, new Date(core.now()).toISOString());
    const signal = ownSignal(options.signal);
    let outcome;
    try {
      outcome = await applySteps(work, {
        ledger,
        parallelism: core.parallelism,
        retry: core.retry,
        signal: signal.signal,
        stop: options.stopSignal,
        emit,
        listening: core.listening || !!options.onEvent,
        now: core.now,
        intents,
        ...(policies.pending ? { policies: policies.pending } : {}),
      });
    } finally {
      signal.dispose();
      await intents.settle();
    }
    // The stack's outputs, against what the steps left: one change, before the journal is folded.
    await recordStackOutputs(plan, ledger, state.outputs ?? {}, (message) =>
      emit({ type: 'warning', at: core.now(), address: '', message }),
    );
    await core.store.compact();
    const elapsedMs = core.now() - started;
    emit({
      type: 'apply_finish',
      at: core.now(),
      succeeded: outcome.succeeded.filter((o) => o.action !== 'noop').length,
      failed: outcome.failed.length,
      skipped: outcome.skipped.length,
      elapsedMs,
    });
    // Secrets only as markers; result.secret(address, path) reads one on purpose.
    const result = applyResult(outcome, ledger.materialize(), elapsedMs);
    Object.defineProperty(result, 'output', {
      enumerable: false,
      value: (d: string | ResourceDecl) => outputOf(result.outputs, typeof d === 'string' ? d : d?.name),
    });
    if (outcome.failed.length) throw new ApplyError(result);
    return result;
  } finally {
    await lock.release();
  }
}

function outputOf(outputs: ApplyResult['outputs'], name: string | undefined): Record<string, unknown> {
  const o = name === undefined ? undefined : own(outputs, name);
  if (!o)
    throw new ConvergeError(`'${String(name)}' is not in the state after this apply, so it has no outputs.`, {
      code: 'CONVERGE_NOT_IN_STATE',
    });
  return o as Record<string, unknown>;
}
