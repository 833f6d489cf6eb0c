// The first apply of planChange() without the apply machinery: when every step of the base plan is
// a create through a mock resource, the objects are made one after another in the plan's order and
// recorded through the engine's own pieces (StepRun.desired resolves and parses each step's inputs
// against what is recorded so far, StepRun.record makes the record, recordResource the change, the
// stack's outputs as apply records them), so the state is the one a real apply would leave. What
// is skipped is what a mock cannot need: the lock, pending records written ahead (a mock create
// knows its outcome), the scheduler, time limits, events and the apply's result. A real apply is
// the reference: tests/testing/record-creates.test.ts holds the two states equal.
import type { Plan } from '../engine/plan/plan.js';
import { planWork } from '../engine/plan/plan.js';
import type { CreateWork, StepWork } from '../engine/plan/work.js';

/** A create of the plan, with its nodes. */
type Create = CreateWork & Pick<StepWork, 'nodes'>;
import type { AnyResource } from '../engine/provider/define.js';
import { StepRun, type ApplyContext } from '../engine/apply/steps/context.js';
import { recordStackOutputs } from '../engine/apply/outputs.js';
import { Ledger } from '../engine/run/ledger.js';
import { defaultRetryPolicy } from '../engine/run/retry.js';
import { recordResource } from '../state/ops.js';
import type { StateStore } from '../state/store.js';

/**
 * Applies `plan` by recording its creates directly, when every step is a create through a mock
 * resource (`isMock`) or a no-op with nothing to record, and it has no policy findings; resolves
 * false, having done nothing, when it is not such a plan (the caller applies it the real way).
 */
export async function recordCreates(
  plan: Plan,
  store: StateStore,
  isMock: (def: AnyResource) => boolean,
  now: () => number = Date.now,
): Promise<boolean> {
  const work = plan[planWork];
  if (!work || plan.destroy || plan.violations.length || plan.pendingChecks.length) return false;
  const creates: Create[] = [];
  for (const w of work) {
    if (w.kind === 'noop' && w.nodes.length === 0) continue;
    if (w.kind !== 'create' || !isMock(w.def)) return false;
    creates.push(w);
  }
  const order = inOrder(creates);
  if (!order) return false;
  const state = await store.read();
  if (state.lineage !== plan.lineage || state.serial !== plan.serial || Object.keys(state.pending).length) return false;
  const ledger = new Ledger(state, store);
  const ctx: ApplyContext = {
    ledger,
    parallelism: 1,
    retry: defaultRetryPolicy,
    signal: new AbortController().signal,
    emit: () => {},
    listening: false,
    now,
  };
  const commits: Promise<void>[] = [];
  for (const w of order) {
    const run = new StepRun(w, ctx);
    // The state is the plan's (same lineage and serial, nothing pending), so references read what
    // the plan read or were unknown to it: the plan's parse is filled in, not made again.
    const inputs = run.desired(w, undefined, w.planned);
    const made = await w.def.create(run.context('create', ctx.signal, undefined), inputs);
    const record = run.record(run.address, made.id, inputs, made.outputs);
    commits.push(ledger.commit((serial) => recordResource(serial, record)));
  }
  await Promise.all(commits);
  await recordStackOutputs(plan, ledger, state.outputs ?? {}, () => {});
  await store.compact();
  return true;
}

/** The creates in an order where each comes after the nodes it waits for (the plan's order, mostly); undefined if none is. */
function inOrder(creates: readonly Create[]): Create[] | undefined {
  const done = new Set<string>();
  const out: Create[] = [];
  let left: readonly Create[] = creates;
  while (left.length) {
    const later: Create[] = [];
    for (const w of left)
      if (w.nodes.every((n) => n.waitFor.every((id) => done.has(id)))) {
        out.push(w);
        for (const n of w.nodes) done.add(n.id);
      } else later.push(w);
    if (later.length === left.length) return undefined;
    left = later;
  }
  return out;
}
