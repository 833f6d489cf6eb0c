// Running policies: over a whole plan (after every plan, at load, and at apply for the policies an
// engine has that the plan was not checked with), and again for one step at apply, when a check
// left pending at plan time can see the step's resolved inputs. Pure and synchronous: a policy
// reads the public values (markers for secrets and unknowns) and reports through `report`.
import type { Step } from './step.js';
import type { Policy, PolicyAt, PolicyPlan, PolicyReport, PolicyUse } from './policy.js';
import type { EnforcedLevel, PendingCheck, PolicyFindings, PolicyViolation } from '../violation.js';
import { ConvergeError } from '../errors.js';
import { containsUnknown } from '../values/unknown.js';

/** What checking a plan found, and the uses it was checked with (apply checks only the others). */
export type PolicyOutcome = PolicyFindings & { readonly evaluated: readonly PolicyUse[] };

type Part = 'resource' | 'stack';
type Sink = { violations: PolicyViolation[]; pending: PendingCheck[] };

/** A report for one use: its default address moves from step to step. */
function reporter(policy: string, level: EnforcedLevel, sink: Sink) {
  let address = '';
  let from: Part = 'resource';
  const report = ((message: string, at?: PolicyAt) => {
    sink.violations.push({
      policy,
      level,
      address: at?.address ?? address,
      message: String(message),
      ...(at?.path !== undefined ? { path: at.path } : {}),
    });
  }) as PolicyReport;
  report.pending = (reason: string, at?: PolicyAt) => {
    sink.pending.push({
      policy,
      level,
      address: at?.address ?? address,
      reason: String(reason),
      ...(at?.path !== undefined ? { path: at.path } : {}),
      from,
    });
  };
  return {
    report,
    at(a: string, part: Part) {
      address = a;
      from = part;
    },
  };
}

/** Calls one check of a policy; a throw or a promise is the policy's bug, named. */
function call(policy: Policy, address: string, run: () => unknown): void {
  let result: unknown;
  try {
    result = run();
  } catch (cause) {
    throw new ConvergeError(
      `policy '${policy.name}' failed on ${address || 'the stack'}: ${(cause as Error)?.message ?? String(cause)}\nFix the policy; nothing was changed.`,
      { code: 'CONVERGE_POLICY_ERROR', cause },
    );
  }
  if (result && typeof (result as { then?: unknown }).then === 'function')
    throw new TypeError(`Expected policy '${policy.name}' to be synchronous (it returned a promise)`);
}

const inScope = (policy: Policy, step: Step) => !policy.types || policy.types.includes(step.type);

/** Runs every use that is not disabled over `plan`: violations, and the checks left for apply. */
export function evaluatePolicies(plan: PolicyPlan, uses: readonly PolicyUse[]): PolicyFindings {
  const sink: Sink = { violations: [], pending: [] };
  for (const use of uses) {
    if (use.level === 'disabled') continue;
    const { policy } = use;
    const r = reporter(policy.name, use.level, sink);
    if (policy.resource) {
      const check = policy.resource;
      for (const step of plan.steps) {
        if (!inScope(policy, step)) continue;
        r.at(step.address, 'resource');
        call(policy, step.address, () => check(step, r.report));
      }
    }
    if (policy.stack) {
      const check = policy.stack;
      r.at('', 'stack');
      call(policy, '', () => check(plan, r.report));
    }
  }
  return { violations: sink.violations, pendingChecks: sink.pending };
}

/** The check a new plan runs on itself (Plan's `policies` field); none when no policy is in use. */
export function policyCheck(uses: readonly PolicyUse[]): ((plan: PolicyPlan) => PolicyOutcome) | undefined {
  if (uses.length === 0) return undefined;
  return (plan) => ({ ...evaluatePolicies(plan, uses), evaluated: uses });
}

/**
 * The checks a plan left pending, by step: apply runs each again on the step's resolved inputs
 * (secrets as the sensitive marker) right before its provider call.
 */
export class PendingPolicies {
  readonly #byAddress = new Map<string, PendingCheck[]>();
  readonly #uses: ReadonlyMap<string, PolicyUse>;
  readonly #plan: PolicyPlan;

  constructor(plan: PolicyPlan, uses: readonly PolicyUse[], pending: readonly PendingCheck[]) {
    this.#plan = plan;
    this.#uses = new Map(uses.map((u) => [u.policy.name, u]));
    for (const c of pending) {
      if (!this.#uses.has(c.policy)) continue;
      const list = this.#byAddress.get(c.address) ?? [];
      list.push(c);
      this.#byAddress.set(c.address, list);
    }
  }

  /** True when some check waits for the step at `address`. */
  has(address: string): boolean {
    return this.#byAddress.has(address);
  }

  /**
   * Runs again the checks pending on `step`, its `after` now the resolved inputs. A check still
   * pending now counts as a violation at its level: apply cannot wait any longer.
   */
  recheck(step: Step, after: Readonly<Record<string, unknown>>): PolicyViolation[] {
    const checks = this.#byAddress.get(step.address);
    if (!checks) return [];
    const known: Step = { ...step, after };
    const sink: Sink = { violations: [], pending: [] };
    const done = new Set<string>();
    for (const c of checks) {
      const from = c.from;
      const key = `${c.policy}\u0000${from}`;
      if (done.has(key)) continue;
      done.add(key);
      const use = this.#uses.get(c.policy)!;
      if (use.level === 'disabled') continue;
      const r = reporter(use.policy.name, use.level, sink);
      r.at(step.address, from);
      if (from === 'stack' && use.policy.stack) {
        const check = use.policy.stack;
        const plan = { ...this.#plan, steps: this.#plan.steps.map((s) => (s.address === step.address ? known : s)) };
        call(use.policy, step.address, () => check(plan, r.report));
      } else if (use.policy.resource) {
        const check = use.policy.resource;
        call(use.policy, step.address, () => check(known, r.report));
      }
    }
    const mine = (a: string) => a === step.address;
    return [
      ...sink.violations.filter((v) => mine(v.address)),
      ...sink.pending
        .filter((p) => mine(p.address))
        .map((p) => ({
          policy: p.policy,
          level: p.level,
          address: p.address,
          message: `still undecided at apply: ${p.reason}`,
          ...(p.path !== undefined ? { path: p.path } : {}),
        })),
    ];
  }
}

/** What apply makes of a plan's policies before it starts (see {@link policyGate}). */
type PolicyGate = {
  /** Every mandatory violation: apply refuses the plan when there is one. */
  readonly mandatory: readonly PolicyViolation[];
  /** Advisory violations found only now (policies of the applying engine the plan was not checked with). */
  readonly advisory: readonly PolicyViolation[];
  /** The checks to run before their steps, when values become known; undefined when none. */
  readonly pending: PendingPolicies | undefined;
};

/**
 * Apply's policy gate: the plan's findings, plus those of the applying engine's policies the plan
 * was not checked with (a loaded plan, a plan another engine made; a use of the same name the plan
 * was checked with keeps the plan's level). Checks left pending on steps whose values are all
 * known already (no unknown marker in `after`) are run now; the others wait for their steps.
 */
export function policyGate(
  plan: PolicyPlan & PolicyFindings,
  evaluated: readonly PolicyUse[],
  engine: readonly PolicyUse[],
): PolicyGate {
  const names = new Set(evaluated.map((u) => u.policy.name));
  const others = engine.filter((u) => !names.has(u.policy.name));
  const extra = others.length ? evaluatePolicies(plan, others) : { violations: [], pendingChecks: [] };
  const uses = [...evaluated, ...others];
  const pending = [...plan.pendingChecks, ...extra.pendingChecks];
  const steps = new Map(plan.steps.map((s) => [s.address, s]));
  const now: PendingCheck[] = [];
  const later: PendingCheck[] = [];
  for (const c of pending) {
    const step = steps.get(c.address);
    (step && !containsUnknown(step.after) ? now : later).push(c);
  }
  const decidedNow: PolicyViolation[] = [];
  if (now.length) {
    const checks = new PendingPolicies(plan, uses, now);
    for (const address of new Set(now.map((c) => c.address))) {
      const step = steps.get(address)!;
      decidedNow.push(...checks.recheck(step, step.after ?? {}));
    }
  }
  const found = [...plan.violations, ...extra.violations, ...decidedNow];
  return {
    mandatory: found.filter((v) => v.level === 'mandatory'),
    advisory: [...extra.violations, ...decidedNow].filter((v) => v.level === 'advisory'),
    pending: later.length ? new PendingPolicies(plan, uses, later) : undefined,
  };
}
