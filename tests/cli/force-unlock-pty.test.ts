// `converge force-unlock` on a terminal (util-linux `script`): a lock whose holder is alive is
// released only after the question is answered 'yes'; any other answer leaves it held.
import { describe, it, expect, afterEach } from 'vitest';
import { execFile, spawnSync } from 'node:child_process';
import type { CivoSimulator } from '../../src/providers/b/simulator/index.js';
import { FileStateStore } from '../../src/index.js';
import { convergeArgv, repo, simEnv, type Env, type Run } from './run.js';

const hasScript = spawnSync('script', ['--version']).status === 0;
if (!hasScript && process.env.CI === 'true')
  throw new Error('util-linux `script` is required for the pseudo-terminal test (apt-get install bsdutils)');

const sims: CivoSimulator[] = [];
afterEach(async () => {
  for (const s of sims.splice(0)) await s.close();
});

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** Runs `converge args` with stdin and stdout on a pseudo-terminal; `input` is typed once the question shows. */
function inPty(args: readonly string[], env: Env, input: string): Promise<Run> {
  const command = [process.execPath, ...convergeArgv(), ...args].map(quote).join(' ');
  return new Promise((resolve) => {
    let typed = false;
    const child = execFile(
      'script',
      ['-qfec', command, '/dev/null'],
      { cwd: repo, env: { ...process.env, ...env, TERM: 'xterm', COLUMNS: '120' }, timeout: 60_000 },
      (error, stdout, stderr) => {
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
      },
    );
    child.stdout!.on('data', (d) => {
      if (!typed && String(d).includes('Enter a value')) {
        typed = true;
        child.stdin!.write(input);
        setTimeout(() => child.stdin!.end(), 500);
      }
    });
  });
}

describe.skipIf(!hasScript)('converge force-unlock on a terminal', () => {
  it("asks before releasing a live holder's lock: 'no' keeps it, 'yes' releases it", async () => {
    const { sim, env } = await simEnv();
    sims.push(sim);
    const store = new FileStateStore(env.WF_STATE!);
    const lock = await store.lock({ operation: 'apply' }); // this test process: alive
    const no = await inPty(['force-unlock', lock.info.id], env, 'no\r');
    expect(no.code).toBe(1);
    expect(no.stdout).toContain(`Refused to force-unlock lock ${lock.info.id}`);
    expect(no.stdout).toContain('Do you really want to release it?');
    expect(no.stdout).toContain('Force-unlock cancelled; the lock is still held.');
    const yes = await inPty(['force-unlock', lock.info.id], env, 'yes\r');
    expect(yes.code).toBe(0);
    expect(yes.stdout).toContain(`Lock ${lock.info.id} released (confirmed)`);
    await expect(store.lock({ operation: 'plan' }).then((l) => l.release())).resolves.toBeUndefined();
  }, 120_000);
});
