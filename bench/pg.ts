// PostgreSQL store benchmark: 10,000 independent creates at parallelism 10 with PostgresStateStore
// (group commit), beside the same apply with one transaction per step (1,000 steps, as the store
// committed before group commit); and another stack reading 1,000 outputs of one (100 of them
// secret) through the outputs view. Needs CONVERGE_TEST_PG_URL or /tmp/converge-pg-env; else empty.
import { readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { Engine, PostgresStateStore, stackOutputs } from '../src/index.js';
import { recordOutputs } from '../src/state/ops.js';
import { benchProvider, NODE } from './provider.js';

export function pgUrl(): string | undefined {
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

/**
 * The median time of stackOutputs() on a stack holding 1,000 outputs (100 secret), its reader warm,
 * and the median CPU time of this process for one read (what the client itself spends, whatever
 * else the machine runs).
 */
export async function readOutputsPg(connectionString: string): Promise<{ ms: number; cpuMs: number }> {
  const stack = `bench-out-${randomBytes(6).toString('hex')}`;
  const secretsPassphrase = 'bench outputs passphrase';
  const writer = new PostgresStateStore({ connectionString, stack, secretsPassphrase });
  const reader = new PostgresStateStore({ connectionString, stack, secretsPassphrase });
  try {
    await writer.read();
    const outputs = Array.from({ length: 1000 }, (_, i) => ({
      name: `output${i}`,
      value: { url: `https://10.0.${i >> 8}.${i & 255}:8443/api`, port: 8443, tags: ['a', 'b'] },
      secret: i % 10 === 0,
    }));
    await writer.commit(recordOutputs(0, outputs, []));
    await stackOutputs(reader); // connects, derives the key once
    const times: number[] = [];
    const cpu: number[] = [];
    for (let i = 0; i < 30; i++) {
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      const read = await stackOutputs(reader);
      times.push(performance.now() - t0);
      const c = process.cpuUsage(c0);
      cpu.push((c.user + c.system) / 1000);
      if (Object.keys(read.outputs).length !== 1000) throw new Error('expected 1,000 outputs');
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    return { ms: median(times), cpuMs: median(cpu) };
  } finally {
    await writer.close();
    await reader.close();
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
    ...(await readOutputsPg(url).then((r) => ({
      outputs_1k_pg_read_ms: r.ms,
      outputs_1k_pg_read_cpu_ms: r.cpuMs,
    }))),
  };
}
