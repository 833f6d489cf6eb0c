// The README's node:test example runs under node's own runner: `node --import tsx --test` on
// tests/examples/node-test/testing.test.mts, in a child process, passes every test.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';

const root = join(__dirname, '..', '..');

it('runs the node:test example with node --test, every test passing', async () => {
  const run = promisify(execFile)(
    process.execPath,
    ['--import', 'tsx', '--test', '--test-reporter=tap', join('tests', 'examples', 'node-test', 'testing.test.mts')],
    { cwd: root, env: { ...process.env, NODE_OPTIONS: '' }, timeout: 60_000 },
  );
  // On a failure, the child's whole output is the message.
  const { stdout } = await run.catch((e: { stdout?: string; stderr?: string }) => {
    throw new Error(`node --test failed:\n${e.stdout ?? ''}\n${e.stderr ?? ''}`);
  });
  expect(stdout).toMatch(/^ok 1 - grows the instance in place, and replaces it to shrink it$/m);
  expect(stdout).toMatch(/^# pass 1$/m);
  expect(stdout).toMatch(/^# fail 0$/m);
});
