// The `converge` command in a real pseudo-terminal (util-linux `script`), on the Civo simulator:
// plan --out → apply plan.json → plan (no changes) → destroy (answering the confirmation), checking
// exit codes and output, the live progress drawn in place, and that no secret is ever printed.
import { describe, it, expect, afterEach } from 'vitest';
import { execFile, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import type { CivoSimulator } from '../../src/providers/b/simulator/index.js';
import { bin, repo, simEnv, type Env, type Run } from './run.js';

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

/** Runs `converge args` with stdin and stdout on a pseudo-terminal; `input` is typed into it. */
function inPty(args: readonly string[], env: Env, input = ''): Promise<Run> {
  const command = [process.execPath, bin, ...args].map(quote).join(' ');
  return new Promise((resolve) => {
    const child = execFile(
      'script',
      ['-qfec', command, '/dev/null'],
      { cwd: repo, env: { ...process.env, ...env, TERM: 'xterm', COLUMNS: '120' }, timeout: 60_000 },
      (error, stdout, stderr) => {
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
      },
    );
    // Typed after the prompt has had time to appear; `script` passes it to the terminal.
    if (input) setTimeout(() => child.stdin!.write(input), 2500);
    setTimeout(() => child.stdin!.end(), input ? 3500 : 0);
  });
}

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
});
