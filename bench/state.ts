// State store benchmarks, measured on FileStateStore directly (no engine): the durable cost of one
// step with 100,000 vs 1,000 resources in state, a whole-file rewrite per step vs the journal, and
// group commit (10,000 commits issued without awaiting each). Called by bench/run.ts.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileStateStore } from '../src/state/stores/file.js';
import { writeAtomic } from '../src/state/stores/file-io.js';
import { emptyState, recordResource } from '../src/state/ops.js';
import { replay } from '../src/state/patch.js';
import type { ResourceState, State } from '../src/state/model.js';

function resource(name: string): ResourceState {
  return {
    type: 'bench:index/thing:Thing',
    name,
    provider: 'bench',
    id: `id-${name}`,
    inputs: { size: 2, region: 'LON1', tags: ['a', 'b'] },
    outputs: { address: `${name}.example`, status: 'ACTIVE' },
    dependencies: [],
    options: {},
    secrets: [],
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
  };
}

function stateWith(n: number): State {
  const resources: Record<string, ResourceState> = {};
  for (let i = 0; i < n; i++) resources[`r${i}`] = resource(`r${i}`);
  return { ...emptyState(), serial: 1, resources };
}

async function storeWith(dir: string, name: string, n: number): Promise<{ store: FileStateStore; serial: number }> {
  const store = new FileStateStore(join(dir, name, 'state.json'));
  await store.read();
  await store.write(stateWith(n), 0);
  let serial = 1;
  for (let i = 0; i < 5; i++) await store.commit(recordResource(serial++, resource(`warm${i}`))); // warm-up
  return { store, serial };
}

/** Mean ms of `steps` durable commits, each awaited before the next (one fsync each). */
async function stepCost(s: { store: FileStateStore; serial: number }, steps: number, tag: string): Promise<number> {
  const changes = Array.from({ length: steps }, (_, i) => recordResource(s.serial + i, resource(`${tag}${i}`)));
  const t0 = performance.now();
  for (const c of changes) await s.store.commit(c);
  s.serial += steps;
  return (performance.now() - t0) / steps;
}

export async function benchState(): Promise<Record<string, number>> {
  const dir = await mkdtemp(join(tmpdir(), 'converge-bench-state-'));
  try {
    const small = await storeWith(dir, 'small', 1_000);
    const large = await storeWith(dir, 'large', 100_000);
    // interleave rounds so disk noise hits both sizes alike
    const per1k: number[] = [];
    const per100k: number[] = [];
    for (let round = 0; round < 6; round++) {
      per1k.push(await stepCost(small, 50, `s${round}-`));
      per100k.push(await stepCost(large, 50, `l${round}-`));
    }
    const journal1k = median(per1k);
    const journal100k = median(per100k);

    // naive: apply the step to the whole state and rewrite the whole file atomically, per step
    let state = await large.store.read();
    const naivePath = join(dir, 'naive', 'state.json');
    const naiveSteps = 5;
    const t0 = performance.now();
    for (let i = 0; i < naiveSteps; i++) {
      state = replay(state, recordResource(state.serial, resource(`naive${i}`)));
      await writeAtomic(naivePath, JSON.stringify(state));
    }
    const naive100k = (performance.now() - t0) / naiveSteps;
    await small.store.close();
    await large.store.close();

    // group commit: 10,000 commits issued without awaiting each
    const group = new FileStateStore(join(dir, 'group', 'state.json'));
    await group.read();
    const changes = Array.from({ length: 10_000 }, (_, i) => recordResource(i, resource(`g${i}`)));
    const g0 = performance.now();
    await Promise.all(changes.map((c) => group.commit(c)));
    const groupMs = (performance.now() - g0) / changes.length;
    const c0 = performance.now();
    await group.compact();
    const compactMs = performance.now() - c0;
    await group.close();

    return {
      state_step_ms_1k: round3(journal1k),
      state_step_ms_100k: round3(journal100k),
      state_step_ratio_100k_to_1k: round3(journal100k / journal1k),
      state_naive_step_ms_100k: round3(naive100k),
      state_naive_to_journal_ratio: round3(naive100k / journal100k),
      file_commit_group_ms_per_step: round3(groupMs),
      file_compact_10k_ms: round3(compactMs),
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

function round3(x: number): number {
  return Math.round(x * 1000) / 1000;
}
