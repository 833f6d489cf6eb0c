// Policy benchmark: a set of 10 rules (nine per-step checks, one whole-stack check; some read values
// known only after apply and report pending) over a 10,000-step plan, evaluated as every plan
// evaluates them (plan/policy-check.ts). The figure is the median of 20 runs after 5 warm-ups, so it
// is the rules' cost and not V8's first compile. Target: <= 50 ms.
import { Engine, MemoryStateStore, isUnknown, ref, type Policy, type ResourceDecl } from '../src/index.js';
import { evaluatePolicies } from '../src/engine/plan/policy-check.js';
import { benchProvider, NODE } from './provider.js';

const N = 10_000;

function decls(n: number): ResourceDecl[] {
  return Array.from({ length: n }, (_, i) => ({
    type: NODE,
    name: `r${i}`,
    inputs: { label: `r${i}`, size: 2, tags: ['a', 'b'], ...(i % 10 ? { upstream: ref(`r${i - 1}`, 'address') } : {}) },
  }));
}

/** Ten rules of the kinds a platform team writes: field checks, lists, lookups, unknowns, a count. */
function rules(): Policy[] {
  const field = (name: string, test: (after: Readonly<Record<string, unknown>>) => string | undefined): Policy => ({
    name,
    types: [NODE],
    resource: (step, report) => {
      if (!step.after) return;
      const problem = test(step.after);
      if (problem) report(problem);
    },
  });
  return [
    field('size-at-most-8', (a) => (typeof a.size === 'number' && a.size > 8 ? 'size above 8' : undefined)),
    field('label-prefix', (a) => (typeof a.label === 'string' && !a.label.startsWith('r') ? 'bad label' : undefined)),
    field('tags-present', (a) => (Array.isArray(a.tags) && a.tags.length ? undefined : 'no tags')),
    field('no-tag-x', (a) => (Array.isArray(a.tags) && a.tags.includes('x') ? 'tag x' : undefined)),
    field('label-length', (a) => (typeof a.label === 'string' && a.label.length > 63 ? 'label too long' : undefined)),
    field('size-even', (a) => (typeof a.size === 'number' && a.size % 2 ? 'odd size' : undefined)),
    {
      name: 'upstream-known',
      types: [NODE],
      resource: (step, report) => {
        const up = step.after?.upstream;
        if (isUnknown(up)) report.pending('upstream is known only after apply', { path: 'upstream' });
        else if (typeof up === 'string' && up.endsWith('.evil')) report('evil upstream', { path: 'upstream' });
      },
    },
    {
      name: 'no-deletes',
      resource: (step, report) => {
        if (step.action === 'delete') report('no deletes');
      },
    },
    {
      name: 'no-replace-without-reason',
      resource: (step, report) => {
        if (step.action === 'replace' && step.reasons.length === 0) report('replace without a reason');
      },
    },
    {
      name: 'at-most-20k-creates',
      stack: (plan, report) => {
        if (plan.summary.create > 20_000) report('too many creates');
      },
    },
  ];
}

export async function benchPolicy(): Promise<Record<string, number>> {
  const engine = new Engine({ providers: [benchProvider().provider], state: new MemoryStateStore() });
  const plan = await engine.plan(decls(N), { refresh: false });
  const uses = rules().map((policy) => ({ policy, level: 'mandatory' as const }));
  let pending = 0;
  for (let i = 0; i < 5; i++) pending = evaluatePolicies(plan, uses).pendingChecks.length;
  const times: number[] = [];
  for (let i = 0; i < 20; i++) {
    const t0 = performance.now();
    evaluatePolicies(plan, uses);
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  if (plan.steps.length !== N || pending !== N - N / 10) throw new Error('policy bench: unexpected plan');
  return { policy_10k_ms: times[times.length >> 1]! };
}
