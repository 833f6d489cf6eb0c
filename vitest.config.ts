import { defineConfig } from 'vitest/config';
import { fileURLToPath } from 'node:url';
import LongestFirst from './tests/setup/sequencer.js';

const src = (p: string) => fileURLToPath(new URL(`./src/${p}`, import.meta.url));

export default defineConfig({
  resolve: {
    alias: [
      { find: /^converge\/providers\/([abc])\/simulator$/, replacement: src('providers/$1/simulator/index.ts') },
      { find: /^converge\/providers\/([abc])$/, replacement: src('providers/$1/index.ts') },
      { find: /^converge\/fleet$/, replacement: src('fleet/index.ts') },
      { find: /^converge\/testing$/, replacement: src('testing/index.ts') },
      { find: /^converge\/testing\/(vitest|jest)$/, replacement: src('testing/$1/index.ts') },
      { find: /^converge\/policies$/, replacement: src('policies/index.ts') },
      { find: /^converge$/, replacement: src('index.ts') },
    ],
  },
  test: {
    include: ['tests/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // Most files wait on sockets, child processes and simulated latency, not the CPU: three forks
    // keep a 2-core machine busy (vitest's default is one fork per core minus one, here 1). Files
    // share nothing: the real-LXD tests name their objects per run, PostgreSQL tests use stacks or
    // schemas of their own.
    maxWorkers: 3,
    // The three forks live for the whole run and each runs file after file (isolate: false): a file
    // no longer loads the engine, the providers and their npm packages afresh, which was about half
    // of the suite's CPU (1,020 s of CPU and 586 s isolated, 660 s and 418 s shared, same machine).
    // What a file changes in its process it puts back (process.env, the cwd, timers, spies; the
    // warning guard registers once). Forks that stay (minWorkers = maxWorkers) are never stopped
    // mid-run, which vitest 3 reports as "Terminating worker thread" when isolation is off.
    minWorkers: 3,
    isolate: false,
    // every fork can collect garbage on demand: the warning guard surfaces handles left to the collector
    poolOptions: { forks: { execArgv: ['--expose-gc'] } },
    // the `converge` command bundled once for the tests that spawn it (tests/setup/cli-bundle.ts)
    globalSetup: ['tests/setup/global.ts'],
    setupFiles: ['tests/setup/no-warnings.ts'],
    // the longest files start first (tests/setup/sequencer.ts)
    sequence: { sequencer: LongestFirst },
    // The type tests (and with them the whole project: vitest checks tsconfig.json's program) on
    // TypeScript 7's native compiler, devDependency `typescript-next`: about 6 s against 60 s for
    // TypeScript 5, same diagnostics. The package test still type-checks a consumer on both majors.
    typecheck: {
      enabled: true,
      include: ['tests/**/*.test-d.ts'],
      // (tests/setup/tsc-checker.mjs: that tsc on one thread, 8 s of CPU against 13 s on all cores)
      checker: fileURLToPath(new URL('./tests/setup/tsc-checker.mjs', import.meta.url)),
    },
  },
});
