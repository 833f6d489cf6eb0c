// Provider instances: a plan of 10,000 declared resources (half new, half unchanged, reference
// chains of 10, no refresh, as plan_10k) spread over 4 instances of one provider, beside the same
// plan through a single instance, measured in one process so the ratio compares like with like.
// The instances share their resource definitions, as the shipped factories' instances do
// (provb({ name }) and provb() hold the same definitions). The machine is shared: each round plans
// both back to back (which one first alternates), garbage collected before each, and the ratio is
// the median of the rounds' ratios, so a burst of load elsewhere moves one round, not the figure.
// The CPU time ratio (process.cpuUsage, the plan being CPU work alone) is reported beside it.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import {
  defineProvider,
  Engine,
  MemoryStateStore,
  ref,
  type Provider,
  type ResourceDecl,
  type ResourceState,
} from '../src/index.js';
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
  const resources = [...one.resources.values()];
  return INSTANCES.map((name) => (name ? defineProvider({ name: 'bench', instanceName: name, resources }) : one));
}

// A full collection before each measured plan, so neither pays for the garbage of the one before.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

async function planOnce(spread: boolean): Promise<{ ms: number; cpuMs: number }> {
  const store = new MemoryStateStore();
  await store.read();
  await store.write(halfApplied(N, spread), 0);
  const engine = new Engine({ providers: providers(spread), state: store });
  const d = decls(N, spread);
  gc();
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const plan = await engine.plan(d, { refresh: false });
  const ms = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  if (plan.summary.create !== N / 2 || plan.summary.noop !== N / 2)
    throw new Error('the instance bench planned other steps');
  return { ms, cpuMs: (cpu.user + cpu.system) / 1000 };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const ROUNDS = 11;

export async function benchInstances(): Promise<Record<string, number>> {
  await planOnce(false);
  await planOnce(true);
  const one: number[] = [];
  const four: number[] = [];
  const ratios: number[] = [];
  const cpuRatios: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const first = await planOnce(i % 2 === 1);
    const second = await planOnce(i % 2 === 0);
    const [a, b] = i % 2 === 1 ? [second, first] : [first, second];
    one.push(a.ms);
    four.push(b.ms);
    ratios.push(b.ms / a.ms);
    cpuRatios.push(b.cpuMs / a.cpuMs);
  }
  return {
    plan_10k_1_instance_ms: median(one),
    plan_10k_4_instances_ms: median(four),
    plan_10k_4_instances_ratio_to_1: median(ratios),
    plan_10k_4_instances_cpu_ratio_to_1: median(cpuRatios),
  };
}
