// Crash safety for every action: a child process applies a scenario (create, in-place update,
// delete-first replacement, create-first replacement, delete, a mixed plan) against the Civo
// simulator living in this process, with the file or the PostgreSQL store, some trials with
// injected faults, and is SIGKILLed after a seeded number of its events. Then this process plans
// and applies until converged, and checks: exactly one object per declaration in the simulator,
// every object in the simulator recorded, nothing pending or deposed, and a final plan with no
// changes. CONVERGE_KILL_TRIALS sets the number of trials (default 200 per run).
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { beforeAll, describe, expect, it } from 'vitest';
import { Engine, FileStateStore, PostgresStateStore, type StateStore } from '../../src/index.js';
import { provb } from '../../src/providers/b/index.js';
import { startSimulator, type CivoSimulator } from '../../src/providers/b/simulator/index.js';
import { scenarios, stacksOf, type Scenario } from './kill/stacks.js';
import { seededRandom } from '../../src/kit/sim/faults.js';

const TRIALS = Number(process.env.CONVERGE_KILL_TRIALS ?? 200);
const CONCURRENCY = 4;
const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');
const childJs = join(root, 'node_modules', '.cache', 'converge-kill', 'child.mjs');
const pgUrl = process.env.CONVERGE_TEST_PG_URL;

type Trial = { n: number; scenario: Scenario; store: 'file' | 'pg'; faults: boolean; killAfter: number };
type Outcome = { trial: Trial; killed: boolean; events: number; warnings: string[] };

beforeAll(async () => {
  // One bundle of the child (dependencies stay in node_modules): a process starts in a fraction of tsx's time.
  await build({
    entryPoints: [join(here, 'kill', 'child.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    outfile: childJs,
    logLevel: 'silent',
  });
}, 60_000);

function storeOf(t: Trial, dir: string): StateStore {
  return t.store === 'pg'
    ? new PostgresStateStore({ connectionString: pgUrl!, stack: `kill-${process.pid}-${t.n}` })
    : new FileStateStore(join(dir, 'state.json'));
}

function engineOf(sim: CivoSimulator, state: StateStore): Engine {
  return new Engine({
    providers: [provb({ token: sim.token, apiEndpoint: sim.url, region: 'LON1', pollIntervalMs: 5 })],
    state,
    parallelism: 4,
    retry: { retries: 8, minTimeoutMs: 1, maxTimeoutMs: 5 },
  });
}

/** Objects of the stack's kinds the simulator holds (its default network left out). */
function census(sim: CivoSimulator): Record<string, string[]> {
  const s = sim.store;
  return {
    'provb:index/sshKey:SshKey': [...s.sshkeys.keys()],
    'provb:index/network:Network': [...s.networks.values()]
      .filter((n) => n.default !== true)
      .map((n) => n.id as string),
    'provb:index/dnsDomainName:DnsDomainName': [...s.domains.keys()],
    'provb:index/dnsDomainRecord:DnsDomainRecord': [...s.records.keys()],
  };
}

async function runTrial(t: Trial): Promise<Outcome> {
  const dir = await mkdtemp(join(tmpdir(), 'converge-kill-'));
  const sim = await startSimulator({ latencyMs: 2, seed: t.n + 1 });
  const [before, after] = stacksOf(t.scenario);
  try {
    const setupStore = storeOf(t, dir);
    if (before.length) await engineOf(sim, setupStore).apply(await engineOf(sim, setupStore).plan(before));
    await setupStore.close();
    if (t.faults) sim.setFaults({ rate: 0.1 });

    const child = spawn(process.execPath, [childJs], {
      cwd: root,
      env: {
        ...process.env,
        KILL_URL: sim.url,
        KILL_TOKEN: sim.token,
        KILL_STORE: t.store,
        KILL_STATE: join(dir, 'state.json'),
        KILL_STACK: `kill-${process.pid}-${t.n}`,
        KILL_SCENARIO: t.scenario,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let events = 0;
    let killed = false;
    let err = '';
    child.stderr.on('data', (d) => (err += d));
    child.stdout.on('data', (d: Buffer) => {
      events += (d.toString().match(/^event /gm) ?? []).length;
      if (!killed && events >= t.killAfter) {
        killed = true;
        child.kill('SIGKILL');
      }
    });
    const exit = await new Promise<{ code: number | null; signal: string | null }>((r) =>
      child.on('exit', (code, signal) => r({ code, signal })),
    );
    if (!killed) expect(exit.code, `child failed: ${err}`).toBe(0);

    // Recovery: this process plans and applies until nothing is left to do (faults off).
    sim.setFaults(undefined);
    const store = storeOf(t, dir);
    const engine = engineOf(sim, store);
    const warnings: string[] = [];
    try {
      for (let round = 0; round < 3; round++) {
        const plan = await engine.plan(after);
        warnings.push(...plan.warnings);
        if (!plan.hasChanges) break;
        await engine.apply(plan);
      }
      const final = await engine.plan(after);
      expect(
        final.hasChanges,
        `trial ${JSON.stringify(t)}: ${JSON.stringify(final.steps.filter((s) => s.action !== 'noop'))}`,
      ).toBe(false);
      const state = await store.read();
      expect(state.pending, `trial ${JSON.stringify(t)}`).toEqual({});
      expect(state.deposed, `trial ${JSON.stringify(t)}`).toEqual({});
      const remote = census(sim);
      for (const [type, ids] of Object.entries(remote)) {
        const declared = after.filter((d) => d.type === type).length;
        // A record's state id is '<domain id>:<record id>' (its import form); the rest are the vendor's id.
        const recorded = Object.values(state.resources)
          .filter((r) => r.type === type)
          .map((r) => r.id.split(':').pop()!)
          .sort();
        expect(ids.length, `trial ${JSON.stringify(t)}: ${type} objects in the simulator`).toBe(declared);
        expect(recorded, `trial ${JSON.stringify(t)}: ${type} recorded`).toEqual([...ids].sort());
      }
    } finally {
      await store.close();
    }
    return { trial: t, killed, events, warnings };
  } finally {
    await sim.close();
    await rm(dir, { recursive: true, force: true });
  }
}

function trials(): Trial[] {
  const random = seededRandom(20261123);
  const stores: ('file' | 'pg')[] = pgUrl ? ['file', 'pg'] : ['file'];
  return Array.from({ length: TRIALS }, (_, n) => ({
    n,
    scenario: scenarios[n % scenarios.length]!,
    store: stores[Math.floor(n / scenarios.length) % stores.length]!,
    faults: random() < 0.3,
    // Events of a scenario's apply number roughly 10 to 50: kill anywhere in that range.
    killAfter: 1 + Math.floor(random() * 45),
  }));
}

describe('crash safety for every action', () => {
  it(`loses nothing and makes nothing twice when the applying process is killed (${TRIALS} trials)`, async () => {
    if (!pgUrl && process.env.CI === 'true')
      throw new Error(
        'CONVERGE_TEST_PG_URL is not set: the PostgreSQL half of the kill test cannot run in CI without it',
      );
    const all = trials();
    const outcomes: Outcome[] = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < all.length) outcomes.push(await runTrial(all[next++]!));
      }),
    );
    const killed = outcomes.filter((o) => o.killed);
    const recovered = outcomes.filter((o) => o.warnings.some((w) => /interrupted/.test(w)));
    const byScenario = Object.fromEntries(
      scenarios.map((s) => [s, killed.filter((o) => o.trial.scenario === s).length]),
    );
    console.log(
      `kill test: ${outcomes.length} trials, ${killed.length} killed mid-apply (${JSON.stringify(byScenario)}), ${recovered.length} with an interrupted operation resolved; stores ${pgUrl ? 'file+pg' : 'file only'}`,
    );
    expect(outcomes).toHaveLength(TRIALS);
    for (const s of scenarios) expect(byScenario[s], `kills during ${s}`).toBeGreaterThan(0);
  }, 600_000);
});
