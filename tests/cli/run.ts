// Runs child processes for the command tests: the `converge` command and the library's two-process
// fixture, with the simulator's address in the environment. Both run on the bundle the run's
// globalSetup built (tests/setup/cli-bundle.ts, through tests/setup/cli-launch.mjs); without it
// (a file run under another config) the bin from source, through tsx. tests/cli/simulator.test.ts
// runs bin/converge.mjs itself.
import { execFile } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createRequire } from 'node:module';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSimulator, type CivoSimulator } from '../../src/providers/b/simulator/index.js';

export const repo = fileURLToPath(new URL('../..', import.meta.url));
export const bin = join(repo, 'bin/converge.mjs');
export const stackB = join(repo, 'tests/cli/fixtures/stack-b.ts');
export const PASS = 'cli-test-passphrase';
const tsxUrl = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
const launcher = join(repo, 'tests/setup/cli-launch.mjs');
const bundled = () => process.env.CONVERGE_TEST_CLI_BUNDLE !== undefined;

/** node's arguments that start `converge` (the test bundle's launcher, else the bin, which registers tsx itself). */
export const convergeArgv = (): string[] => [bundled() ? launcher : bin];

export type Env = Record<string, string>;
export type Run = { code: number; stdout: string; stderr: string };

export async function simEnv(): Promise<{ sim: CivoSimulator; env: Env; dir: string }> {
  const sim = await startSimulator({ transitions: { instance: 30, volume: 10, ip: 10 } });
  const dir = mkdtempSync(join(tmpdir(), 'converge-wf-cli-'));
  const env: Env = {
    WF_SIM_URL: sim.url,
    WF_SIM_TOKEN: sim.token,
    WF_STATE: join(dir, 'state.json'),
    CONVERGE_SECRETS_PASSPHRASE: PASS,
    CONVERGE_STACK: stackB,
    NO_COLOR: '1',
    CONVERGE_CLI_FROM_SOURCE: '1',
  };
  return { sim, env, dir };
}

export function run(file: string, args: readonly string[], env: Env, input?: string, cwd = repo): Promise<Run> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      bundled()
        ? [launcher, ...(file === bin ? [] : ['--script', file]), ...args]
        : // tsx by its resolved address, so a child whose cwd is another project finds it too
          ['--import', tsxUrl, file, ...args],
      { cwd, env: { ...process.env, ...env }, timeout: 60_000 },
      (error, stdout, stderr) => {
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
      },
    );
    if (input !== undefined) child.stdin!.end(input);
    else child.stdin!.end();
  });
}

export const converge = (args: readonly string[], env: Env, input?: string) => run(bin, args, env, input);
