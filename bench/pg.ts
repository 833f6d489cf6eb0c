// PostgreSQL store benchmark: 10,000 independent creates at parallelism 10 with PostgresStateStore
// (group commit), beside the same apply with one transaction per step (1,000 steps, as the store
// committed before group commit). Needs CONVERGE_TEST_PG_URL or /tmp/converge-pg-env; else empty.
import { readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { Engine, PostgresStateStore } from '../src/index.js';
import { benchProvider, NODE } from './provider.js';

function pgUrl(): string | undefined {
  if (process.env.CONVERGE_TEST_PG_URL) return process.env.CONVERGE_TEST_PG_URL;
  try {
    return /^CONVERGE_TEST_PG_URL=(.+)$/m.exec(readFileSync('/tmp/converge-pg-env', 'utf8'))?.[1].trim();
  } catch {
    return undefined;
  }
}

async function applyPg(
  connectionString: string,
  n: number,
  maxCommitGroup?: number,
): Promise<{ ms: number; groups: number }> {
  const stack = `bench-${randomBytes(6).toString('hex')}`;
  let groups = 0;
  const store = new PostgresStateStore({
    connectionString,
    stack,
    maxCommitGroup,
    onFlush: () => {
      groups++;
    },
  });
  const engine = new Engine({ providers: [benchProvider(0).provider], state: store, parallelism: 10 });
  const d = Array.from({ length: n }, (_, i) => ({ type: NODE, name: `r${i}`, inputs: { label: `r${i}` } }));
  try {
    const plan = await engine.plan(d, { refresh: false });
    groups = 0;
    const t0 = performance.now();
    await engine.apply(plan);
    return { ms: performance.now() - t0, groups };
  } finally {
    await store.close();
    const admin = new pg.Client({ connectionString });
    await admin.connect();
    await admin.query('DELETE FROM converge_stacks WHERE stack = $1', [stack]);
    await admin.end();
  }
}

export async function benchPg(): Promise<Record<string, number>> {
  const url = pgUrl();
  if (!url) return {};
  await applyPg(url, 1000); // warm-up
  const grouped = await applyPg(url, 10_000);
  const single = await applyPg(url, 1000, 1);
  return {
    apply_10k_pg_ms_per_step: grouped.ms / 10_000,
    apply_10k_pg_commits_per_transaction: (10_000 + 2) / Math.max(1, grouped.groups),
    apply_1k_pg_one_transaction_per_step_ms_per_step: single.ms / 1000,
  };
}
