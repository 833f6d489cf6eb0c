// A run: one plan, apply, refresh-only plan or destroy of one stack, as the run history keeps it
// (the fleet_runs table). Its status moves queued -> running -> succeeded | failed | cancelled,
// or queued -> expired | cancelled; a run whose worker died goes back to running on another.
import type { PlanSummary } from '../engine/plan/plan.js';

export const RUN_KINDS = ['plan', 'apply', 'refresh-only', 'destroy'] as const;
/** What a run does: `plan` saves a plan to approve; `apply` plans and applies (or applies an approved plan); `refresh-only` checks drift. */
export type RunKind = (typeof RUN_KINDS)[number];
export const RUN_STATUSES = ['queued', 'running', 'succeeded', 'failed', 'cancelled', 'expired'] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];

/** One run, as the history holds it. Times are ISO strings. */
export type Run = {
  readonly id: string;
  readonly stack: string;
  readonly kind: RunKind;
  readonly status: RunStatus;
  /** What queued it: a person or program (`enqueue`), `approve`, `drift` (the schedule), or `drift-followup`. */
  readonly origin: string;
  readonly queuedAt: string;
  readonly startedAt: string | null;
  readonly finishedAt: string | null;
  /** The worker that ran it last (`host:pid:tag`). */
  readonly worker: string | null;
  /** How many times a worker started it (more than 1: retried after its worker died or stopped). */
  readonly attempts: number;
  /** For an apply queued by `approve`: the plan run whose saved plan it applies. */
  readonly planRunId: string | null;
  /** The plan's summary (create, update, replace, delete, ...). */
  readonly summary: PlanSummary | null;
  /** The plan as JSON, secrets redacted (plan.toJSON()). */
  readonly plan: unknown;
  /** A plan run's saved plan (the Plan.save format, secrets sealed), for approve. */
  readonly hasSavedPlan: boolean;
  readonly errorCode: string | null;
  readonly errorMessage: string | null;
  /** A refresh-only run: whether it found objects changed outside converge. */
  readonly driftFound: boolean | null;
  /** The plan's drift section (JSON `drift`), when any was found. */
  readonly drift: unknown;
};

export type RunRow = {
  id: string;
  stack: string;
  kind: RunKind;
  status: RunStatus;
  origin: string;
  queued_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
  worker: string | null;
  attempts: number;
  plan_run: string | null;
  summary: PlanSummary | null;
  plan_json: unknown;
  has_saved: boolean;
  error_code: string | null;
  error_message: string | null;
  drift_found: boolean | null;
  drift: unknown;
  job_id: string | null;
};

/** The columns a Run is read from (the saved plan itself stays in the database). */
export const RUN_COLUMNS = `id, stack, kind, status, origin, queued_at, started_at, finished_at, worker, attempts, plan_run,
  summary, plan_json, saved_plan IS NOT NULL AS has_saved, error_code, error_message, drift_found, drift, job_id`;

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function runOf(r: RunRow): Run {
  return {
    id: r.id,
    stack: r.stack,
    kind: r.kind,
    status: r.status,
    origin: r.origin,
    queuedAt: r.queued_at.toISOString(),
    startedAt: iso(r.started_at),
    finishedAt: iso(r.finished_at),
    worker: r.worker,
    attempts: r.attempts,
    planRunId: r.plan_run,
    summary: r.summary,
    plan: r.plan_json,
    hasSavedPlan: r.has_saved,
    errorCode: r.error_code,
    errorMessage: r.error_message,
    driftFound: r.drift_found,
    drift: r.drift,
  };
}
