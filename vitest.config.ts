import { defineConfig } from 'vitest/config';
import { fileURLToPath } from 'node:url';

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
    minWorkers: 1,
    // every fork can collect garbage on demand: the warning guard surfaces handles left to the collector
    poolOptions: { forks: { execArgv: ['--expose-gc'] } },
    // the `converge` command bundled once for the tests that spawn it (tests/setup/cli-bundle.ts)
    globalSetup: ['tests/setup/global.ts'],
    setupFiles: ['tests/setup/no-warnings.ts'],
    typecheck: { enabled: true, include: ['tests/**/*.test-d.ts'] },
  },
});
