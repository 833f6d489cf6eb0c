// Lookups declared in the stack, planned as nodes of the graph (Terraform's data sources): a lookup
// whose arguments are known when the plan is made is read then, and what depends on it plans
// against its answer; one whose arguments wait on values known only after apply, or that
// `dependsOn` something with changes planned, is deferred: a read step in the plan (`<= read`,
// with the reason), run during apply before what depends on it, which sees unknowns until then.
// A `dependsOn` whose targets have nothing to do does not defer it (Terraform's #26383 / #27858).
//
// The planner is pure, so this runs in rounds: plan; read every lookup that has become readable;
// plan again with their answers as if refreshed; until no further lookup can be read. Without
// declared lookups it is one plain planSteps call.
import type { ResourceState, State } from '../../state/model.js';
import type { ResourceDecl } from '../decl/resource-decl.js';
import type { StepWork } from '../plan/work.js';
import type { EngineCore } from './core.js';
import { planSteps } from '../plan/planner.js';
import { collectRefs } from '../decl/ref.js';
import { storedOptions } from '../plan/options.js';
import { instanceFields } from '../provider/instance.js';
import { answerOutputs } from '../provider/lookup-resource.js';

type PlanInput = Parameters<typeof planSteps>[0];
type PlanOutput = ReturnType<typeof planSteps>;

/** Plans `input`, reading the declared lookups that can be read now; marks the deferred ones. */
export async function planWithLookups(core: EngineCore, input: PlanInput, signal: AbortSignal): Promise<PlanOutput> {
  const lookups = input.destroy ? [] : input.decls.filter((d) => core.isLookup(d.type));
  if (!lookups.length) return planSteps(input);
  let state: State = input.state;
  const refreshed = new Map(input.refreshed);
  const read = new Set<string>();
  const deferred = new Map<string, string>();
  for (;;) {
    const planned = planSteps({ ...input, state, refreshed, replace: [...(input.replace ?? []), ...deferred.keys()] });
    const steps = new Map(planned.work.map((w) => [w.step.address, w]));
    const changing = (name: string) => {
      const w = steps.get(name);
      return !!w && w.step.action !== 'noop' && !(w.step.action === 'update' && w.step.cause === 'options_changed');
    };
    const readable: { decl: ResourceDecl; work: StepWork; args: Record<string, unknown> }[] = [];
    let more = false;
    for (const decl of lookups) {
      const work = steps.get(decl.name);
      if (!work || read.has(decl.name) || deferred.has(decl.name)) continue;
      const dep = (decl.options?.dependsOn ?? []).find(changing);
      if (dep !== undefined) {
        deferred.set(decl.name, `it depends on ${dep} (dependsOn), which has changes planned`);
        more = true;
        continue;
      }
      if (work.step.action === 'noop') continue;
      const args = 'inputs' in work ? work.inputs : undefined;
      if (args) readable.push({ decl, work, args: args as Record<string, unknown> });
    }
    if (!readable.length && !more) return marked(planned, lookups, steps, deferred);
    // Each readable lookup is read now, through its instance, and planned again as an answer already recorded.
    const answers = await Promise.all(
      readable.map(async ({ decl, work, args }) => {
        const provider = work.provider;
        const def = provider.lookups.get(decl.type)!;
        const answer = await def.run(core.context(provider, decl.name, decl.type, 'lookup', signal), args);
        return { decl, work, args, outputs: answerOutputs(answer) };
      }),
    );
    const now = new Date(core.now()).toISOString();
    const resources: Record<string, ResourceState> = { ...state.resources };
    for (const { decl, work, args, outputs } of answers) {
      read.add(decl.name);
      const prior = state.resources[decl.name];
      const record: ResourceState = {
        type: decl.type,
        name: decl.name,
        provider: work.provider.name,
        ...instanceFields(work.provider),
        id: decl.type,
        inputs: args,
        outputs,
        dependencies: [...work.deps],
        options: storedOptions(decl.options),
        secrets: [...work.secrets],
        createdAt: prior?.createdAt ?? now,
        updatedAt: now,
      };
      // Recorded as it was, refreshed as read: a noop whose record node writes the answer at apply.
      resources[decl.name] = prior ?? { ...record };
      refreshed.set(decl.name, record);
    }
    state = { ...state, resources };
  }
}

/** Every declared lookup's step says it is a lookup; a deferred one says why. */
function marked(
  planned: PlanOutput,
  lookups: readonly ResourceDecl[],
  steps: ReadonlyMap<string, StepWork>,
  deferred: ReadonlyMap<string, string>,
): PlanOutput {
  const names = new Set(lookups.map((d) => d.name));
  const reasons = new Map<string, string>();
  for (const decl of lookups) {
    const w = steps.get(decl.name);
    if (!w || w.step.action === 'noop') continue;
    const waits = collectRefs(decl.inputs)
      .filter(({ ref }) => {
        const target = steps.get(ref.resource);
        return !!target && target.step.action !== 'noop';
      })
      .map(({ ref, at }) => `${at.join('.')} ← ${ref.resource}.${ref.path}`);
    reasons.set(
      decl.name,
      deferred.get(decl.name) ??
        (waits.length
          ? `its arguments depend on values known only after apply (${waits.join(', ')})`
          : 'its arguments are known only after apply'),
    );
  }
  const work = planned.work.map((w) =>
    names.has(w.step.address)
      ? {
          ...w,
          step: { ...w.step, lookup: reasons.has(w.step.address) ? { deferred: reasons.get(w.step.address)! } : {} },
        }
      : w,
  );
  return { ...planned, work };
}
