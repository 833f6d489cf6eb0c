// The `converge` command in a real pseudo-terminal (util-linux `script`), on the Civo simulator:
// plan --out → apply plan.json → plan (no changes) → destroy (answering the confirmation), checking
// exit codes and output, the live progress drawn in place, and that no secret is ever printed.
import { describe, it, expect, afterEach } from 'vitest';
import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { startSimulator, type CivoSimulator } from '../../src/providers/b/simulator/index.js';
import { convergeArgv, repo, simEnv, type Env, type Run } from './run.js';

const hasScript = spawnSync('script', ['--version']).status === 0;
if (!hasScript) {
  if (process.env.CI === 'true')
    throw new Error('util-linux `script` is required for the pseudo-terminal test (apt-get install bsdutils)');
  console.warn('SKIPPED: the pseudo-terminal test needs util-linux `script`');
}

const sims: CivoSimulator[] = [];
afterEach(async () => {
  for (const s of sims.splice(0)) await s.close();
});

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** A `converge` command running on a pseudo-terminal: what it has written so far, and its end. */
type Live = { readonly output: () => string; readonly done: Promise<Run> };

/**
 * Runs `converge args` with stdin and stdout on a pseudo-terminal. `answer` is typed into it once
 * the confirmation prompt has appeared (the output is polled, no fixed sleep); without one, stdin
 * is closed at once.
 */
function spawnPty(args: readonly string[], env: Env, answer?: string): Live {
  const command = [process.execPath, ...convergeArgv(), ...args].map(quote).join(' ');
  let stdout = '';
  let stderr = '';
  const child = spawn('script', ['-qfec', command, '/dev/null'], {
    cwd: repo,
    env: { ...process.env, ...env, TERM: 'xterm', COLUMNS: '120' },
  });
  const killer = setTimeout(() => child.kill('SIGKILL'), 60_000);
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const done = new Promise<Run>((resolve) =>
    child.on('close', (code) => {
      clearTimeout(killer);
      resolve({ code: code ?? 1, stdout, stderr });
    }),
  );
  if (answer === undefined) child.stdin.end();
  else
    void waitFor(() => stdout, 'Enter a value:', done).then(
      () => child.stdin.end(answer),
      () => child.stdin.end(),
    );
  return { output: () => stdout, done };
}

/** Resolves once `text` shows in the output; rejects if the command ends first or after 45 s. */
async function waitFor(output: () => string, text: string, done: Promise<Run>): Promise<void> {
  let ended = false;
  void done.then(() => (ended = true));
  const deadline = Date.now() + 45_000;
  while (!plain(output()).includes(text)) {
    if (ended) throw new Error(`the command ended before '${text}' showed:\n${plain(output())}`);
    if (Date.now() > deadline) throw new Error(`'${text}' did not show within 45 s:\n${plain(output())}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const inPty = (args: readonly string[], env: Env, answer?: string) => spawnPty(args, env, answer).done;

// eslint-disable-next-line no-control-regex -- ANSI escape sequences (ESC) are what this strips
const plain = (s: string) => s.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '').replace(/\r/g, '');

describe.skipIf(!hasScript)('converge in a pseudo-terminal (B simulator)', () => {
  it('plan --out, apply plan.json, plan (no changes), destroy', async () => {
    const { sim, env, dir } = await simEnv();
    sims.push(sim);
    const file = join(dir, 'plan.json');

    const planned = await inPty(['plan', '--out', file, '--detailed-exitcode'], env);
    expect(planned.code).toBe(2);
    expect(plain(planned.stdout)).toContain('Plan: 3 to add, 0 to change, 0 to replace, 0 to destroy.');
    expect(plain(planned.stdout)).toContain(`converge apply ${file}`);
    expect(sim.store.instances.size).toBe(0);

    const applied = await inPty(['apply', file], env);
    expect(applied.code).toBe(0);
    expect(applied.stdout).toContain('\x1b['); // drawn in place on the terminal
    expect(plain(applied.stdout)).toMatch(/Apply complete! Resources: 3 added, 0 changed, 0 replaced, 0 destroyed\./);
    expect(sim.store.instances.size).toBe(1);
    const password = [...sim.store.instances.values()][0]!.initial_password as string;

    const again = await inPty(['plan', '--detailed-exitcode'], env);
    expect(again.code).toBe(0);
    expect(plain(again.stdout)).toContain('No changes.');

    const shown = await inPty(['state', 'show', 'web'], env);
    expect(shown.code).toBe(0);
    expect(plain(shown.stdout)).toContain('"initialPassword": "(sensitive value)"');

    const refused = await inPty(['destroy'], env, 'no\n');
    expect(refused.code).toBe(1);
    expect(sim.store.instances.size).toBe(1);

    const destroyed = await inPty(['destroy'], env, 'yes\n');
    expect(destroyed.code).toBe(0);
    expect(plain(destroyed.stdout)).toContain('Do you want to destroy all these resources?');
    expect(plain(destroyed.stdout)).toMatch(
      /Destroy complete! Resources: 0 added, 0 changed, 0 replaced, 3 destroyed\./,
    );
    expect(sim.store.instances.size).toBe(0);

    for (const r of [planned, applied, again, shown, refused, destroyed]) {
      expect(r.stdout + r.stderr).not.toContain(password);
      expect(r.stdout + r.stderr).not.toContain(sim.token);
    }
  }, 120_000);

  it("shows the rate-limit hold live: 'waiting for Civo's rate limit: N s until the window resets' while the apply runs", async () => {
    const { sim: plainSim, env } = await simEnv();
    await plainSim.close();
    // One request a second after a burst of two: the allowance runs out and the provider holds its requests.
    const sim = await startSimulator({
      transitions: { instance: 30, volume: 10, ip: 10 },
      rateLimit: { requestsPerSecond: 1, burst: 2 },
    });
    sims.push(sim);
    const live = spawnPty(['apply', '--auto-approve'], { ...env, WF_SIM_URL: sim.url, WF_SIM_TOKEN: sim.token });
    await waitFor(live.output, "waiting for Civo's rate limit", live.done);
    const shown = plain(live.output());
    expect(shown).toMatch(/waiting for Civo's rate limit: \d+s until the window resets/);
    expect(shown).not.toContain('Apply complete!'); // seen while the apply still runs, not only at its end
    const r = await live.done;
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('\x1b['); // the live display, drawn in place
    expect(plain(r.stdout)).toMatch(/Apply complete! Resources: 3 added, 0 changed, 0 replaced, 0 destroyed\./);
    expect(sim.requests.filter((q) => q.throttled)).toEqual([]);
  }, 90_000);
});
