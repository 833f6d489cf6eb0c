// Engine benchmarks: plan at 1k/10k/100k declared resources (half new, half unchanged, reference
// chains of 10, no refresh; each after one warm-up plan of 2,000 in its own process), and apply
// overhead per step with zero and 50 ms provider latency (after a warm-up apply of 1,000).
import {
  Engine,
  MemoryStateStore,
  FileStateStore,
  ref,
  type ResourceDecl,
  type ResourceState,
  type State,
} from '../src/index.js';
import { emptyState } from '../src/state/ops.js';
import { benchProvider, NODE } from './provider.js';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

function decls(n: number): ResourceDecl[] {
  return Array.from({ length: n }, (_, i) => ({
    type: NODE,
    name: `r${i}`,
    inputs: { label: `r${i}`, size: 2, tags: ['a', 'b'], ...(i % 10 ? { upstream: ref(`r${i - 1}`, 'address') } : {}) },
  }));
}

/** State holding the first half of `decls(n)`, as if applied. */
function halfApplied(n: number): State {
  const resources: Record<string, ResourceState> = {};
  for (let i = 0; i < n / 2; i++) {
    resources[`r${i}`] = {
      type: NODE,
      name: `r${i}`,
      provider: 'bench',
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

export async function benchPlan(n: number): Promise<{ ms: number; rssMb: number; creates: number; noops: number }> {
  // Warm-up: one plan of 2,000 in the same process, so the figure is the engine's, not V8's first compile.
  const warm = new MemoryStateStore();
  await new Engine({ providers: [benchProvider().provider], state: warm }).plan(decls(2000), { refresh: false });
  const store = new MemoryStateStore();
  await store.read();
  await store.write(halfApplied(n), 0);
  const engine = new Engine({ providers: [benchProvider().provider], state: store });
  const d = decls(n);
  const t0 = performance.now();
  const plan = await engine.plan(d, { refresh: false });
  const ms = performance.now() - t0;
  return { ms, rssMb: process.memoryUsage().rss / 2 ** 20, creates: plan.summary.create, noops: plan.summary.noop };
}

async function applyIndependent(n: number, latencyMs: number, parallelism: number, durable: boolean): Promise<number> {
  return (await applyThenDestroy(n, latencyMs, parallelism, durable, false)).applyMs;
}

/** Applies n independent creates (and, with `destroy`, then destroys them all), timing each. */
async function applyThenDestroy(
  n: number,
  latencyMs: number,
  parallelism: number,
  durable: boolean,
  destroy: boolean,
): Promise<{ applyMs: number; destroyMs: number }> {
  const dir = durable ? await mkdtemp(join(tmpdir(), 'converge-bench-')) : '';
  const store = durable ? new FileStateStore(join(dir, 'state.json')) : new MemoryStateStore();
  const engine = new Engine({ providers: [benchProvider(latencyMs).provider], state: store, parallelism });
  const d = Array.from({ length: n }, (_, i) => ({ type: NODE, name: `r${i}`, inputs: { label: `r${i}` } }));
  const plan = await engine.plan(d, { refresh: false });
  const t0 = performance.now();
  await engine.apply(plan);
  const applyMs = performance.now() - t0;
  let destroyMs = 0;
  if (destroy) {
    const gone = await engine.planDestroy({ refresh: false });
    const t1 = performance.now();
    await engine.apply(gone);
    destroyMs = performance.now() - t1;
  }
  await store.close();
  if (durable) await rm(dir, { recursive: true, force: true });
  return { applyMs, destroyMs };
}

export async function benchApply(): Promise<Record<string, number>> {
  await applyIndependent(1000, 0, 10, false); // warm-up
  const overhead = await applyIndependent(10_000, 0, 10, false);
  const latency = await applyIndependent(1000, 50, 10, false);
  return {
    apply_10k_overhead_ms_per_step: overhead / 10_000,
    apply_latency_ratio_to_ideal: latency / 5000,
  };
}

export async function benchApplyDurable(): Promise<Record<string, number>> {
  await applyIndependent(1000, 0, 10, true); // warm-up
  const { applyMs, destroyMs } = await applyThenDestroy(10_000, 0, 10, true, true);
  return {
    apply_10k_durable_ms_per_step: applyMs / 10_000,
    destroy_10k_durable_ms_per_step: destroyMs / 10_000,
    destroy_to_create_durable_ratio: destroyMs / applyMs,
  };
}
