// engine.plan() and engine.planDestroy(): the plan's options checked with the declarations before
// anything is read, then under the lock (when anything is read or pending) the pending operations
// resolved, the state refreshed (all of it, or what the targets need) and the steps planned.
import type { ResourceDecl } from '../decl/resource-decl.js';
import type { ResourceState, State } from '../../state/model.js';
import type { Issue } from '../issue.js';
import type { EngineCore } from './core.js';
import type { PlanOptions } from '../engine-options.js';
import { validateStack } from '../validate/validate.js';
import { ValidationError } from '../errors.js';
import { ownSignal } from '../run/signal.js';
import { Ledger } from '../run/ledger.js';
import { recoverPending } from '../run/recover.js';
import { planWithLookups } from './plan-lookups.js';
import { Plan } from '../plan/plan.js';
import { findDrift, markDriftRepairs } from '../plan/drift.js';
import { refreshOnlyWork } from '../plan/refresh-only.js';
import { TARGETING_WARNING, targetsExcluding, unknownNames } from '../plan/targets.js';
import { declarationPrints, declarationsDigest, providerPrints } from '../plan/saved.js';
import { verifyProviders } from './verify.js';
import { linkStacks, mergeLinkIssues } from './stack-links.js';
import { planOutputs, type OutputWork } from '../plan/outputs.js';
import { checkedPolicies } from '../plan/policy.js';
import { policyCheck } from '../plan/policy-check.js';

/** Plans `decls` (none, for a destroy plan) against the refreshed state. */
export async function runPlan(
  core: EngineCore,
  declared: readonly ResourceDecl[],
  options: PlanOptions,
  destroy: boolean,
): Promise<Plan> {
  const resolve = core.resolve;
  // Other stacks' outputs (stackRef) are read, without their locks, and put in place first.
  const { decls, outputs, issues: links } = await linkStacks(declared, options.outputs, destroy);
  // The engine's policies and the plan's own, checked on the finished plan (every mode).
  const policies = policyCheck(checkedPolicies(core.policies, options.policies));
  // Everything that needs no remote data is checked before the lock, the state and any request.
  const { issues, graph, order, parsed } = validateStack(decls as unknown[], resolve, {
    tokens: core.resources.keys(),
    instancesOf: core.instancesOf,
  });
  issues.push(...planOptionIssues(options, destroy));
  mergeLinkIssues(issues, links);
  if (issues.length) throw new ValidationError(issues);
  const refreshOnly = options.mode === 'refresh-only';
  const refresh = refreshOnly || (options.refresh ?? true);
  // A refreshing plan that names no resources in its options reads the state once, under the lock.
  // Otherwise the state is read first (names in targets, exclude and replace are checked before the
  // lock is taken), and read again under the lock, taken to refresh or to resolve pending operations.
  const operation = destroy ? 'destroy' : 'plan';
  const namesFirst = !!(options.targets?.length || options.exclude?.length || options.replace?.length);
  let lock = refresh && !namesFirst ? await core.lock(operation, options.signal) : undefined;
  let state: State;
  try {
    state = await core.store.read();
    checkNames(decls, state, options, destroy);
    if (!lock && (refresh || Object.keys(state.pending).length > 0)) {
      lock = await core.lock(operation, options.signal);
      state = await core.store.read();
    }
  } catch (e) {
    await lock?.release();
    throw e;
  }
  const signal = ownSignal(options.signal);
  try {
    const warnings = [...(lock?.warnings ?? [])];
    if (Object.keys(state.pending).length) {
      const ledger = new Ledger(state, core.store);
      warnings.push(
        ...(await recoverPending(state, ledger, {
          resolve,
          context: (r, a, op) => core.context(r.provider, a, '', op, signal.signal),
          now: () => new Date(core.now()).toISOString(),
        })),
      );
      await core.store.compact();
      state = await core.store.read();
    }
    const targeting = !!(options.targets?.length || options.exclude?.length);
    const targets = options.exclude?.length
      ? targetsExcluding(options.exclude, options.targets, decls, state, graph, destroy)
      : options.targets;
    const refreshed = refresh
      ? await core.readAll(state, signal.signal, targeting ? refreshScope(state, decls, targets ?? []) : undefined)
      : new Map<string, ResourceState | null>();
    const drift = findDrift(state, refreshed);
    const fields = {
      lineage: state.lineage,
      serial: state.serial,
      refresh,
      targets: options.targets,
      exclude: options.exclude,
      mode: destroy ? ('destroy' as const) : refreshOnly ? ('refresh-only' as const) : ('normal' as const),
      drift,
      policies,
    };
    // The declarations' digest is needed only when the plan is saved or checked: computed on first use.
    let digest: string | undefined;
    let prints: Record<string, string> | undefined;
    // The stack's outputs: declared ones recorded by apply, recorded ones no longer declared removed.
    const recorded = state.outputs ?? {};
    const outputWork: OutputWork | undefined =
      outputs !== undefined || destroy || Object.keys(recorded).length ? { declared: outputs ?? {} } : undefined;
    const origin = {
      providers: providerPrints(core.providers),
      get declarations() {
        return (digest ??= declarationsDigest(declared));
      },
      get resources() {
        return (prints ??= declarationPrints(declared));
      },
      ...(outputWork && !refreshOnly ? { outputs: outputWork } : {}),
    };
    if (targeting) warnings.push(TARGETING_WARNING);
    if (refreshOnly) {
      warnings.push(...(core.store.takeWarnings?.() ?? []));
      const work = refreshOnlyWork(state, refreshed, resolve);
      return new Plan({ ...fields, work, warnings, origin });
    }
    if (targets !== undefined && targets.length === 0 && targeting)
      return new Plan({ ...fields, work: [], warnings, origin });
    // Declared lookups whose arguments are known are read here; the others are deferred to apply.
    const planned = await planWithLookups(
      core,
      { decls, state, refreshed, resolve, targets, replace: options.replace, destroy, graph, order, parsed },
      signal.signal,
    );
    await verifyProviders(core, planned.work, signal.signal);
    warnings.push(...planned.warnings, ...(core.store.takeWarnings?.() ?? []));
    const clear = core.clearTextWarning(planned.work);
    if (clear && !warnings.includes(clear)) warnings.push(clear);
    const outputChanges = outputWork ? planOutputs(outputWork.declared, recorded, planned.source) : undefined;
    return new Plan({ ...fields, work: markDriftRepairs(planned.work, drift), warnings, origin, outputChanges });
  } finally {
    signal.dispose();
    await lock?.release();
  }
}

/**
 * The plan options' own problems: targets that are not names, an unknown mode, a refresh-only plan
 * that may not refresh, a destroy plan asked to be refresh-only (one plan has one mode, as
 * Terraform refuses -destroy with -refresh-only).
 */
function planOptionIssues(options: PlanOptions, destroy: boolean): Issue[] {
  const issue = (path: (string | number)[], code: Issue['code'], message: string): Issue => ({
    resource: '',
    field: 'plan',
    path,
    code,
    message,
  });
  const issues: Issue[] = [];
  if (options.targets !== undefined && !Array.isArray(options.targets))
    issues.push(issue(['targets'], 'invalid_type', 'targets must be a list of resource names'));
  else
    (options.targets ?? []).forEach((t, i) => {
      if (typeof t !== 'string' || !t)
        issues.push(issue(['targets', i], 'invalid_type', 'targets must be resource names'));
    });
  const refreshOnly = options.mode === 'refresh-only';
  if (options.mode !== undefined && options.mode !== 'normal' && !refreshOnly)
    issues.push(issue(['mode'], 'invalid_value', "mode must be 'normal' or 'refresh-only'"));
  else if (destroy && refreshOnly)
    issues.push(issue(['mode'], 'invalid_value', "a destroy plan has mode 'destroy'; it cannot also be refresh-only"));
  else if (refreshOnly && options.refresh === false)
    issues.push(issue(['refresh'], 'invalid_value', 'a refresh-only plan must refresh'));
  return issues;
}

/** Targets, excludes and replacements must name something: a typo is a ValidationError with a suggestion. */
function checkNames(decls: readonly ResourceDecl[], state: State, options: PlanOptions, destroy: boolean): void {
  if (!options.targets?.length && !options.exclude?.length && !options.replace?.length) return;
  const everything = new Set([...decls.map((d) => d.name), ...Object.keys(state.resources)]);
  const issues = [
    ...unknownNames('targets', options.targets, everything, 'in the stack or the state'),
    ...unknownNames('exclude', options.exclude, everything, 'in the stack or the state'),
    ...(destroy ? [] : unknownNames('replace', options.replace, new Set(decls.map((d) => d.name)), 'in the stack')),
  ];
  if (issues.length) throw new ValidationError(issues);
}

/** What a targeted plan reads: the targets, what they depend on (declared or recorded), and their aliases. */
function refreshScope(
  state: State,
  decls: readonly ResourceDecl[],
  targets: readonly string[],
): Set<string> | undefined {
  if (!targets.length) return undefined;
  const scope = new Set(targets);
  const byName = new Map(decls.map((d) => [d.name, d]));
  const stack = [...targets];
  while (stack.length) {
    const n = stack.pop()!;
    const d = byName.get(n);
    for (const dep of [...(d?.options?.dependsOn ?? []), ...(state.resources[n]?.dependencies ?? [])])
      if (!scope.has(dep)) {
        scope.add(dep);
        stack.push(dep);
      }
    for (const a of d?.options?.aliases ?? []) scope.add(a);
  }
  return scope;
}
