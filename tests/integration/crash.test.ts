// Crash safety end to end: a child process applies 200 creates of disk objects (one O_EXCL file per
// object in a shared "remote" directory) with a FileStateStore and is killed with SIGKILL at a
// random point; the next plan+apply must converge with every remote object in the state exactly
// once and nothing created twice. Then the same with two processes racing for the state's lock,
// and with a PostgresStateStore (group commit) killed at seeded random points.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleForNode } from '../helpers/node-bundle.js';
import { randomBytes } from 'node:crypto';
import { Engine, FileStateStore, PostgresStateStore, type StateStore } from '../../src/index.js';
import { seededRandom } from '../../src/kit/sim/faults.js';
import { decls, diskProvider } from './crash/disk-provider.js';
import { crashPgUrl, dropPgStack, pgProblem } from './crash/pg-env.js';

const COUNT = 200;
// The suite runs a seeded subset (5 kills on the file store, 2 races, 2 kills on PostgreSQL);
// `npm run trials:crash` runs the full count (50, 20, 20) or more.
const TRIALS = Number(process.env.CONVERGE_CRASH_TRIALS ?? 5);
const RACE_TRIALS = Number(process.env.CONVERGE_CRASH_RACE_TRIALS ?? 2);
const PG_TRIALS = Number(process.env.CONVERGE_CRASH_PG_TRIALS ?? 2);
const SEED = Number(process.env.CONVERGE_CRASH_SEED ?? 17);
const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');

// The child, bundled once (tests/helpers/node-bundle.ts): a process starts in a fraction of the
// time tsx takes to load it from source. Split, so that a child on the file store does not load the
// PostgreSQL store.
const childDir = join(root, 'node_modules', '.cache', 'converge-crash', String(process.pid));
beforeAll(async () => {
  await bundleForNode([join(here, 'crash', 'child.ts')], childDir);
}, 60_000);
afterAll(() => rm(childDir, { recursive: true, force: true }));

type Child = {
  proc: ChildProcess;
  applying: Promise<number>;
  done: Promise<number>;
  exit: Promise<{ code: number | null; signal: string | null; out: string; err: string }>;
};

/** Where a trial's state lives: a file under the trial's directory, or a stack of its own in PostgreSQL. */
type Where = { readonly dir: string; readonly pg?: { readonly url: string; readonly stack: string } };

function startChild(where: Where, lockTimeoutMs = 0): Child {
  const { dir, pg } = where;
  const proc = spawn(process.execPath, [join(childDir, 'child.mjs')], {
    cwd: root,
    env: {
      ...process.env,
      CRASH_REMOTE: join(dir, 'remote'),
      CRASH_STATE: join(dir, 'state', 'state.json'),
      CRASH_COUNT: String(COUNT),
      CRASH_LOCK_TIMEOUT_MS: String(lockTimeoutMs),
      ...(pg ? { CRASH_PG_URL: pg.url, CRASH_PG_STACK: pg.stack } : {}),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  let onApplying: (t: number) => void = () => {};
  let onDone: (t: number) => void = () => {};
  const applying = new Promise<number>((r) => (onApplying = r));
  const done = new Promise<number>((r) => (onDone = r));
  proc.stdout!.on('data', (d) => {
    out += d;
    if (out.includes('applying')) onApplying(performance.now());
    if (out.includes('done')) onDone(performance.now());
  });
  proc.stderr!.on('data', (d) => (err += d));
  const exit = new Promise<{ code: number | null; signal: string | null; out: string; err: string }>((resolve) => {
    proc.on('exit', (code, signal) => {
      onApplying(performance.now());
      onDone(performance.now());
      resolve({ code, signal, out, err });
    });
  });
  return { proc, applying, done, exit };
}

async function newTrialDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'converge-crash-'));
  await mkdir(join(dir, 'remote'));
  return dir;
}

function openStore(where: Where): StateStore {
  return where.pg
    ? new PostgresStateStore({ connectionString: where.pg.url, stack: where.pg.stack })
    : new FileStateStore(join(where.dir, 'state', 'state.json'));
}

/** Plan+apply in this process until converged, then check remote and state agree one to one. */
async function convergeAndCheck(where: Where): Promise<string[]> {
  const remote = join(where.dir, 'remote');
  const store = openStore(where);
  const engine = new Engine({ providers: [diskProvider(remote)], state: store, parallelism: 10 });
  try {
    const plan = await engine.plan(decls(COUNT), { refresh: true });
    if (plan.hasChanges) await engine.apply(plan);
    const again = await engine.plan(decls(COUNT), { refresh: true });
    expect(again.hasChanges).toBe(false);
    const state = await store.read();
    expect(state.pending).toEqual({});
    const files = (await readdir(remote))
      .filter((f) => f.endsWith('.obj'))
      .map((f) => f.slice(0, -4))
      .sort();
    const inState = Object.values(state.resources)
      .map((r) => r.id.replace(/^obj-/, ''))
      .sort();
    expect(files).toHaveLength(COUNT);
    expect(inState).toEqual(files);
    expect(new Set(inState).size).toBe(inState.length);
    const dup = join(remote, 'duplicates.log');
    expect(existsSync(dup) ? await readFile(dup, 'utf8') : '').toBe('');
    return plan.warnings as string[];
  } finally {
    await store.close();
  }
}

async function calibrate(pg?: Where['pg']): Promise<number> {
  const dir = await newTrialDir();
  try {
    const c = startChild({ dir, pg });
    const t0 = await c.applying;
    const t1 = await c.done;
    const r = await c.exit;
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    return t1 - t0;
  } finally {
    await rm(dir, { recursive: true, force: true });
    if (pg) await dropPgStack(pg.url, pg.stack);
  }
}

describe('crash safety with FileStateStore', () => {
  it(`loses no object and creates none twice when the applying process is killed (${TRIALS} kills)`, async () => {
    const applyMs = await calibrate();
    const random = seededRandom(SEED);
    let kills = 0;
    let attempts = 0;
    let recovered = 0;
    while (kills < TRIALS && attempts < TRIALS * 2) {
      attempts++;
      const dir = await newTrialDir();
      try {
        const c = startChild({ dir });
        await c.applying;
        await new Promise((r) => setTimeout(r, random() * applyMs * 0.9));
        c.proc.kill('SIGKILL');
        const r = await c.exit;
        if (r.signal === 'SIGKILL') kills++;
        else expect(r.code, r.err).toBe(0);
        const warnings = await convergeAndCheck({ dir });
        if (warnings.some((w) => /interrupted create/.test(w))) recovered++;
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    }
    expect(kills).toBeGreaterThanOrEqual(TRIALS);
    console.info(
      `crash test: ${kills} kills in ${attempts} runs, ${recovered} with an interrupted create resolved (apply ≈ ${applyMs.toFixed(0)} ms)`,
    );
  }, 900_000);

  it(`keeps one writer at a time when two processes race for the lock (${RACE_TRIALS} trials)`, async () => {
    const applyMs = await calibrate();
    const random = seededRandom(SEED + 1);
    for (let trial = 0; trial < RACE_TRIALS; trial++) {
      const dir = await newTrialDir();
      try {
        const a = startChild({ dir }, 30_000);
        const b = startChild({ dir }, 30_000);
        await Promise.race([a.applying, b.applying]);
        const victim = trial % 3 === 2 ? [a, b] : [trial % 2 ? a : b];
        await new Promise((r) => setTimeout(r, random() * applyMs * 1.5));
        for (const v of victim) v.proc.kill('SIGKILL');
        const results = await Promise.all([a.exit, b.exit]);
        for (const r of results) if (r.signal !== 'SIGKILL') expect(r.code, r.err).toBe(0);
        await convergeAndCheck({ dir });
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    }
  }, 900_000);
});

const pgUrl = crashPgUrl();
const pgDown = await pgProblem(pgUrl);
if (pgDown && process.env.CI === 'true') {
  describe('crash safety with PostgresStateStore', () => {
    it('has a PostgreSQL server to test against (required in CI)', () => {
      throw new Error(`PostgreSQL is required in CI: ${pgDown}. Run scripts/pg-test-env.sh.`);
    });
  });
} else if (pgDown) {
  console.warn(
    `\n!!! SKIPPING the PostgreSQL crash test: ${pgDown}.\n!!! Run scripts/pg-test-env.sh or set CONVERGE_TEST_PG_URL.\n`,
  );
  describe.skip('crash safety with PostgresStateStore', () => {
    it('needs a server', () => {});
  });
} else {
  describe('crash safety with PostgresStateStore', () => {
    it(`loses no record under group commit when the applying process is killed at seeded points (${PG_TRIALS} kills, seed ${SEED})`, async () => {
      const url = pgUrl!;
      const stackFor = () => `crash-${randomBytes(6).toString('hex')}`;
      const applyMs = await calibrate({ url, stack: stackFor() });
      const random = seededRandom(SEED);
      let kills = 0;
      let attempts = 0;
      let recovered = 0;
      while (kills < PG_TRIALS && attempts < PG_TRIALS * 2) {
        attempts++;
        const where: Where = { dir: await newTrialDir(), pg: { url, stack: stackFor() } };
        try {
          const c = startChild(where);
          await c.applying;
          await new Promise((r) => setTimeout(r, random() * applyMs * 0.9));
          c.proc.kill('SIGKILL');
          const r = await c.exit;
          if (r.signal === 'SIGKILL') kills++;
          else expect(r.code, r.err).toBe(0);
          const warnings = await convergeAndCheck(where);
          if (warnings.some((w) => /interrupted create/.test(w))) recovered++;
        } finally {
          await rm(where.dir, { recursive: true, force: true });
          await dropPgStack(url, where.pg!.stack);
        }
      }
      expect(kills).toBeGreaterThanOrEqual(PG_TRIALS);
      console.info(
        `PostgreSQL crash test: ${kills} kills in ${attempts} runs, ${recovered} with an interrupted create resolved (apply ≈ ${applyMs.toFixed(0)} ms)`,
      );
    }, 900_000);
  });
}
