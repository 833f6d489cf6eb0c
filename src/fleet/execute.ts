// One run carried out by the engine: the stack module loaded, an Engine over the stack's
// PostgresStateStore on the worker's shared pool (the module's own `state` is set aside: a fleet
// stack's state is its row in the fleet's schema), then plan, apply, refresh-only plan or destroy.
// What happened comes back as an outcome for the run history; nothing here writes the history.
import type pg from 'pg';
import { Engine } from '../engine/engine.js';
import { Plan } from '../engine/plan/plan.js';
import type { PlanSummary } from '../engine/plan/plan.js';
import type { ApplyResult } from '../engine/apply-result.js';
import { StalePlanError } from '../engine/errors.js';
import { PostgresStateStore } from '../state/stores/postgres.js';
import { loadStackModule } from './stack-module.js';
import type { RunKind } from './run.js';

/** What a run needs besides the engine. */
export type RunInput = {
  readonly pool: pg.Pool;
  readonly schema: string;
  readonly stack: string;
  readonly module: string;
  readonly kind: RunKind;
  /** An approved plan to apply exactly (the Plan.save text). */
  readonly savedPlan: string | null;
  readonly secretsPassphrase: string | undefined;
  readonly allowPlaintextSecrets: boolean;
  /** How long to wait for the stack's state lock (another process applying it outside the fleet). */
  readonly lockTimeoutMs: number;
  /** Cancels the run: the engine's signal (steps in flight are aborted and found by the next plan's recovery). */
  readonly signal: AbortSignal;
  /** The worker stops: no further step starts, the run goes back to the queue. */
  readonly stopSignal: AbortSignal;
};

export type RunOutcome = {
  readonly status: 'succeeded' | 'failed' | 'cancelled' | 'stopped';
  /** A failed run holds its stack's queue until resumed; a stale approved plan does not (nothing was changed). */
  readonly blocking: boolean;
  readonly summary?: PlanSummary;
  readonly planJson?: unknown;
  readonly savedPlan?: string | null;
  readonly errorCode?: string;
  readonly errorMessage?: string;
  readonly drift?: readonly { readonly address: string }[];
};

/** Carries out one run. Never throws: a failure is an outcome. */
export async function executeRun(input: RunInput): Promise<RunOutcome> {
  let store: PostgresStateStore | undefined;
  try {
    const { resources, state: _ignored, ...options } = await loadStackModule(input.module);
    store = new PostgresStateStore({
      pool: input.pool,
      shareLockSession: true, // every run's lock on one connection of the worker's pool: runs never pin connections
      schema: input.schema,
      stack: input.stack,
      secretsPassphrase: input.secretsPassphrase,
      lockTimeoutMs: input.lockTimeoutMs,
    });
    const engine = new Engine({ ...options, state: store });
    const { signal, stopSignal } = input;
    const applied = (r: ApplyResult): RunOutcome | undefined =>
      stopSignal.aborted && r.skipped.length > 0 ? { status: 'stopped', blocking: false } : undefined;
    switch (input.kind) {
      case 'plan': {
        const plan = await engine.plan(resources, { signal });
        const saved = plan.hasChanges
          ? await plan.serialize({
              passphrase: input.secretsPassphrase,
              allowPlaintextSecrets: input.allowPlaintextSecrets,
            })
          : null;
        return {
          status: 'succeeded',
          blocking: false,
          summary: plan.summary,
          planJson: plan.toJSON(),
          savedPlan: saved,
        };
      }
      case 'refresh-only': {
        const plan = await engine.plan(resources, { mode: 'refresh-only', signal });
        return {
          status: 'succeeded',
          blocking: false,
          summary: plan.summary,
          planJson: plan.toJSON(),
          drift: plan.drift,
        };
      }
      case 'apply': {
        const plan = input.savedPlan
          ? await Plan.parse(input.savedPlan, { passphrase: input.secretsPassphrase }, 'the approved plan')
          : await engine.plan(resources, { signal });
        const base = { summary: plan.summary, planJson: plan.toJSON() };
        if (!plan.hasChanges && !input.savedPlan) return { status: 'succeeded', blocking: false, ...base };
        const r = await engine.apply(plan, {
          signal,
          stopSignal,
          ...(input.savedPlan ? { declarations: resources } : {}),
        });
        return applied(r) ?? { status: 'succeeded', blocking: false, ...base };
      }
      case 'destroy': {
        const plan = await engine.planDestroy({ signal });
        const r = await engine.apply(plan, { signal, stopSignal });
        return applied(r) ?? { status: 'succeeded', blocking: false, summary: plan.summary, planJson: plan.toJSON() };
      }
      default:
        throw new TypeError(`Expected a run kind, not '${String(input.kind)}'`);
    }
  } catch (e) {
    if (input.signal.aborted) return { status: 'cancelled', blocking: false };
    if (input.stopSignal.aborted && !(e instanceof StalePlanError)) return { status: 'stopped', blocking: false };
    const code = (e as { code?: unknown })?.code;
    return {
      status: 'failed',
      blocking: !(e instanceof StalePlanError),
      errorCode: typeof code === 'string' && code.startsWith('CONVERGE_') ? code : 'CONVERGE_ERROR',
      errorMessage: String((e as Error)?.message ?? e).slice(0, 4000),
    };
  } finally {
    await store?.close().catch(() => {});
  }
}
