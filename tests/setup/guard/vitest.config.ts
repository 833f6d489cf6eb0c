// The warning guard (tests/setup/no-warnings.ts) on files made to trip it, run by
// tests/setup/warning-guard.test.ts in a vitest of its own: forks with --expose-gc, as the suite's.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  // a cache of its own: the suite's run, which starts this one, writes its own when it ends
  cacheDir: 'node_modules/.vite-warning-guard',
  test: {
    include: ['tests/setup/guard/*.fixture.ts'],
    pool: 'forks',
    poolOptions: { forks: { execArgv: ['--expose-gc'] } },
    setupFiles: ['tests/setup/no-warnings.ts'],
    typecheck: { enabled: false },
  },
});
