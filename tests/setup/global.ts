// vitest globalSetup: work done once per run, before any test file, for all of them.
// - The `converge` command's bundle (cli-bundle.ts), rebuilt on every run since the sources change;
//   its directory reaches the test files and the commands they spawn through the environment.
// - Node's compile cache for the processes the tests spawn (and the forks): V8 keeps the code it
//   compiled of unchanged modules (npm packages, the bundle) between processes, keyed by content.
// - One random draw for the run (CONVERGE_TEST_RUN_DRAW), for per-fork names on the real daemon.
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildCliBundle, CLI_BUNDLE_ENV } from './cli-bundle.js';

export default async function setup(): Promise<() => void> {
  const dir = await buildCliBundle();
  process.env[CLI_BUNDLE_ENV] = dir;
  // one draw for the run, which each fork offsets by its pool id: the real-LXD tests' names and
  // forward addresses (tests/integration/lxd/lxd-env.ts) differ between the forks of one run
  process.env.CONVERGE_TEST_RUN_DRAW ??= String(Math.floor(Math.random() * 1800));
  process.env.NODE_COMPILE_CACHE ??= join(tmpdir(), `converge-test-compile-cache-${process.getuid?.() ?? 0}`);
  return () => rmSync(dir, { recursive: true, force: true });
}
