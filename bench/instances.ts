// Provider instances: a plan of 10,000 declared resources (half new, half unchanged, reference
// chains of 10, no refresh, as plan_10k) spread over 4 instances of one provider, beside the same
// plan through a single instance, measured in one process (alternating, median of 5 each after a
// warm-up), so the ratio compares like with like.
import { Engine, MemoryStateStore, ref, type Provider, type ResourceDecl, type ResourceState } from '../src/index.js';
import { emptyState } from '../src/state/ops.js';
import { benchProvider, NODE } from './provider.js';

const N = 10_000;
const INSTANCES = [undefined, 'b', 'c', 'd'] as const;

function decls(n: number, spread: boolean): ResourceDecl[] {
  return Array.from({ length: n }, (_, i) => {
    const provider = spread ? INSTANCES[i % 4] : undefined;
    return {
      type: NODE,
      name: `r${i}`,
      inputs: {
        label: `r${i}`,
        size: 2,
        tags: ['a', 'b'],
        ...(i % 10 ? { upstream: ref(`r${i - 1}`, 'address') } : {}),
      },
      ...(provider ? { options: { provider } } : {}),
    };
  });
}

function halfApplied(n: number, spread: boolean) {
  const resources: Record<string, ResourceState> = {};
  for (let i = 0; i < n / 2; i++) {
    const instance = spread ? INSTANCES[i % 4] : undefined;
    resources[`r${i}`] = {
      type: NODE,
      name: `r${i}`,
      provider: 'bench',
      ...(instance ? { instance } : {}),
      instanceSettings: {},
      id: `n${i}`,
      inputs: { label: `r${i}`, size: 2, tags: ['a', 'b'], ...(i % 10 ? { upstream: `r${i - 1}.bench` } : {}) },
      outputs: { address: `r${i}.bench` },
      dependencies: i % 10 ? [`r${i - 1}`] : [],
      options: {},
      secrets: [],
      createdAt: '2026-01-01T00:00:00.000Z',
      updatedAt: '2026-01-01T00:00:00.000Z',
    };
  }
  return { ...emptyState(), serial: 1, resources };
}

function providers(spread: boolean): Provider<unknown>[] {
  const one = benchProvider().provider;
  if (!spread) return [one];
  return INSTANCES.map((name) =>
    name ? ({ ...benchProvider().provider, instanceName: name } as Provider<unknown>) : one,
  );
}

async function planOnce(spread: boolean): Promise<number> {
  const store = new MemoryStateStore();
  await store.read();
  await store.write(halfApplied(N, spread), 0);
  const engine = new Engine({ providers: providers(spread), state: store });
  const d = decls(N, spread);
  const t0 = performance.now();
  const plan = await engine.plan(d, { refresh: false });
  const ms = performance.now() - t0;
  if (plan.summary.create !== N / 2 || plan.summary.noop !== N / 2)
    throw new Error('the instance bench planned other steps');
  return ms;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export async function benchInstances(): Promise<Record<string, number>> {
  await planOnce(false);
  await planOnce(true);
  const one: number[] = [];
  const four: number[] = [];
  for (let i = 0; i < 5; i++) {
    one.push(await planOnce(false));
    four.push(await planOnce(true));
  }
  const single = median(one);
  const spread = median(four);
  return {
    plan_10k_1_instance_ms: single,
    plan_10k_4_instances_ms: spread,
    plan_10k_4_instances_ratio_to_1: spread / single,
  };
}
