// The plan/apply family of the `converge` command: plan, apply, destroy, refresh, import, graph.
// Each loads the stack, builds an Engine from it, and prints through Io only: plans are rendered
// (secrets are the sensitive marker in every step), progress is live on a TTY and plain elsewhere.
import { Engine } from '../engine/engine.js';
import { Plan } from '../engine/plan/plan.js';
import { progressReporter } from '../engine/progress/index.js';
import type { ApplyResult } from '../engine/apply-result.js';
import { ValidationError } from '../engine/errors.js';
import { loadStack, type StackModule } from './stack.js';
import { confirm, interrupts, type Io } from './io.js';
import { bothListeners, planWaits } from './plan-waits.js';

export type Common = { readonly stack: string };
type PlanFlags = Common & {
  readonly out?: string;
  readonly target?: string[];
  readonly exclude?: string[];
  readonly replace?: string[];
  readonly refreshOnly?: boolean;
  readonly refresh?: boolean;
  readonly detailedExitcode?: boolean;
  readonly markdown?: boolean;
  readonly json?: boolean;
  readonly destroy?: boolean;
  readonly allowPlaintextSecrets?: boolean;
};
type ApplyFlags = PlanFlags & { readonly autoApprove?: boolean };

export async function openStack(flags: Common, io?: Io): Promise<{ stack: StackModule; engine: Engine }> {
  const stack = await loadStack(flags.stack);
  const { resources: _r, outputs: _o, ...options } = stack;
  // While planning, retries and waits are progress lines on stderr (an apply draws its own).
  const onEvent = io ? bothListeners(options.onEvent, planWaits(process.stderr)) : options.onEvent;
  return { stack, engine: new Engine({ ...options, ...(onEvent ? { onEvent } : {}) }) };
}

async function makePlan(engine: Engine, stack: StackModule, flags: PlanFlags): Promise<Plan> {
  const options = {
    targets: flags.target,
    exclude: flags.exclude,
    replace: flags.replace,
    ...(flags.refresh === false ? { refresh: false } : {}),
    ...(flags.refreshOnly ? { mode: 'refresh-only' as const } : {}),
  };
  return flags.destroy
    ? engine.planDestroy(options)
    : engine.plan(stack.resources, { ...options, ...(stack.outputs ? { outputs: stack.outputs } : {}) });
}

function show(io: Io, plan: Plan, flags: PlanFlags): void {
  if (flags.json) io.out(JSON.stringify(plan.toJSON(), null, 2));
  else if (flags.markdown) io.out(plan.renderMarkdown());
  else io.out(plan.render({ color: io.color }));
}

/**
 * `converge plan`: 0 (no changes, or changes without --detailed-exitcode), 2 (changes with it).
 * State-only changes (options, dependencies, a rename) count as changes: applying records them, as
 * Terraform's -detailed-exitcode says 2 for a plan of moves alone (plans.Changes.Empty() counts a
 * moved resource as a change) though its summary line does not count moves.
 */
export async function planCommand(io: Io, flags: PlanFlags): Promise<number> {
  const { stack, engine } = await openStack(flags, io);
  try {
    const plan = await makePlan(engine, stack, flags);
    show(io, plan, flags);
    if (flags.out) {
      await plan.save(flags.out, { allowPlaintextSecrets: flags.allowPlaintextSecrets });
      if (!flags.json && !flags.markdown)
        io.out(`\nSaved the plan to ${flags.out}. Apply exactly these actions with:\n  converge apply ${flags.out}`);
    }
    if (refused(io, plan)) return 1;
    return flags.detailedExitcode && plan.hasChanges ? 2 : 0;
  } finally {
    await closeAll(stack);
  }
}

/** `converge apply [plan.json]`: a saved plan runs as reviewed; else plan, show, ask (unless --auto-approve), apply. */
export async function applyCommand(io: Io, planFile: string | undefined, flags: ApplyFlags): Promise<number> {
  const { stack, engine } = await openStack(flags, io);
  try {
    let plan: Plan;
    if (planFile) {
      if (flags.target?.length || flags.exclude?.length || flags.replace?.length || flags.refreshOnly) {
        throw new ValidationError([
          {
            resource: '',
            path: ['plan'],
            code: 'invalid_value',
            message: 'a saved plan is applied as it was made: plan options cannot be given with it',
          },
        ]);
      }
      plan = await Plan.load(planFile);
    } else {
      plan = await makePlan(engine, stack, flags);
      io.out(plan.render({ color: io.color }));
      if (refused(io, plan)) return 1;
      if (!plan.hasChanges) return 0;
      if (!flags.autoApprove) {
        const verb = plan.destroy ? 'destroy all these resources' : 'perform these actions';
        const ok = await confirm(
          io,
          `\nDo you want to ${verb}?\n  converge will ${plan.destroy ? 'destroy' : 'perform'} the actions described above.\n  Only 'yes' will be accepted to approve.\n`,
        );
        if (!ok) {
          io.err(plan.destroy ? 'Destroy cancelled.' : 'Apply cancelled.');
          return 1;
        }
      }
    }
    if (planFile && !plan.hasChanges) {
      io.out('No changes. The saved plan has nothing to apply.');
    }
    return await runApply(io, engine, plan, planFile ? stack.resources : undefined);
  } finally {
    await closeAll(stack);
  }
}

/** A plan with mandatory policy violations: says so on stderr (apply would refuse it) and the command fails. */
function refused(io: Io, plan: Plan): boolean {
  const n = plan.violations.filter((v) => v.level === 'mandatory').length;
  if (n === 0) return false;
  io.err(
    `\nError: ${n} mandatory polic${n === 1 ? 'y' : 'ies'} failed (see "Policy checks" above); apply will refuse this plan.`,
  );
  return true;
}

async function runApply(
  io: Io,
  engine: Engine,
  plan: Plan,
  declarations: StackModule['resources'] | undefined,
): Promise<number> {
  const progress = progressReporter({ stream: io.stdout, mode: io.isTTY ? 'tty' : 'plain', color: io.color });
  const stop = interrupts(io);
  try {
    const result: ApplyResult = await engine.apply(plan, {
      onEvent: progress,
      stopSignal: stop.stop,
      signal: stop.abort,
      ...(declarations && !plan.destroy ? { declarations } : {}),
    });
    if (result.skipped.length) {
      io.err(
        `Stopped: ${result.skipped.length} step${result.skipped.length === 1 ? '' : 's'} did not run. Plan again to see what is left.`,
      );
      return 1;
    }
    return 0;
  } finally {
    progress.close();
    stop.dispose();
  }
}

export async function destroyCommand(io: Io, flags: ApplyFlags): Promise<number> {
  return applyCommand(io, undefined, { ...flags, destroy: true, refresh: flags.refresh ?? false });
}

export async function refreshCommand(io: Io, flags: Common): Promise<number> {
  const { stack, engine } = await openStack(flags);
  try {
    const r = await engine.refresh();
    for (const d of r.drifted)
      io.out(`~ ${d.address}: changed outside converge (${d.changes.map((c) => c.path).join(', ')})`);
    for (const g of r.gone) io.out(`- ${g}: deleted outside converge; forgotten`);
    io.out(`Refresh complete: ${r.drifted.length} changed, ${r.gone.length} gone, ${r.unchanged.length} unchanged.`);
    return 0;
  } finally {
    await closeAll(stack);
  }
}

export async function importCommand(io: Io, name: string, id: string, flags: Common): Promise<number> {
  const { stack, engine } = await openStack(flags);
  try {
    const decl = stack.resources.find((d) => d.name === name);
    if (!decl)
      throw new ValidationError([
        {
          resource: name,
          path: ['name'],
          code: 'unknown_name',
          message: `the stack declares no resource '${name}'; declare it first, then import`,
        },
      ]);
    const r = await engine.import(decl, id);
    io.out(`Imported ${r.address} (id ${r.id}). Run converge plan to see how it differs from its declaration.`);
    return 0;
  } finally {
    await closeAll(stack);
  }
}

export async function graphCommand(io: Io, flags: PlanFlags): Promise<number> {
  const { stack, engine } = await openStack(flags);
  try {
    const plan = await makePlan(engine, stack, { ...flags, refresh: flags.refresh ?? false });
    io.out(plan.toMermaid());
    return 0;
  } finally {
    await closeAll(stack);
  }
}

export async function closeAll(stack: StackModule): Promise<void> {
  await stack.state?.close().catch(() => {});
}
