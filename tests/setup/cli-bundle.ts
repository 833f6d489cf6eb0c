// The `converge` command for the tests that spawn it, built once per run (vitest globalSetup,
// tests/setup/global.ts): src/cli/main.ts and the package's entry points bundled by esbuild into
// one module graph (shared chunks, npm packages inside) in the git-ignored .converge/.
// From source every spawn made tsx resolve and transpile hundreds of modules of src/ (1.5-2 s of
// CPU a command); the bundle loads in a fraction of that. tests/setup/cli-launch.mjs runs it.
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleForNode } from '../helpers/node-bundle.js';

const repo = fileURLToPath(new URL('../..', import.meta.url));

/** The bundle's entries, as paths under src/ without extension (the package's entry points and the command). */
export const CLI_BUNDLE_ENTRIES = [
  'cli/main',
  'index',
  'providers/a/index',
  'providers/b/index',
  'providers/c/index',
  'providers/a/simulator/index',
  'providers/b/simulator/index',
  'providers/c/simulator/index',
  'fleet/index',
  'testing/index',
  'policies/index',
] as const;

/** The environment variable that hands the bundle's directory to the test files (and their children). */
export const CLI_BUNDLE_ENV = 'CONVERGE_TEST_CLI_BUNDLE';

/**
 * Builds the bundle into a fresh directory under .converge/test-cli/ and returns it. Inside the
 * repository, so the bundle resolves `converge/package.json` (`converge init` reads its own
 * version) and the npm packages as the sources do. Directories of runs older than a day are removed.
 */
export async function buildCliBundle(): Promise<string> {
  const parent = join(repo, '.converge', 'test-cli');
  mkdirSync(parent, { recursive: true });
  for (const old of readdirSync(parent)) {
    const path = join(parent, old);
    if (Date.now() - statSync(path).mtimeMs > 86_400_000) rmSync(path, { recursive: true, force: true });
  }
  const out = mkdtempSync(join(parent, 'run-'));
  await bundleForNode(Object.fromEntries(CLI_BUNDLE_ENTRIES.map((e) => [e, join(repo, 'src', `${e}.ts`)])), out);
  writeFileSync(join(out, 'entries.json'), JSON.stringify(CLI_BUNDLE_ENTRIES));
  return out;
}
