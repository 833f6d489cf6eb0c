import { defineConfig } from 'tsup';

// One build for the library and every provider entry point: ESM + CJS + .d.ts.
const entry = {
  index: 'src/index.ts',
  'providers/a/index': 'src/providers/a/index.ts',
  'providers/b/index': 'src/providers/b/index.ts',
  'providers/c/index': 'src/providers/c/index.ts',
  'providers/a/simulator/index': 'src/providers/a/simulator/index.ts',
  'providers/b/simulator/index': 'src/providers/b/simulator/index.ts',
  'providers/c/simulator/index': 'src/providers/c/simulator/index.ts',
  'fleet/index': 'src/fleet/index.ts',
  'testing/index': 'src/testing/index.ts',
  // Types only: the matchers typed on vitest's and jest's expect, for their users alone.
  'testing/vitest/index': 'src/testing/vitest/index.ts',
  'testing/jest/index': 'src/testing/jest/index.ts',
  'policies/index': 'src/policies/index.ts',
  // The `converge` command (bin/converge.mjs loads it after registering tsx).
  'cli/main': 'src/cli/main.ts',
};

export default defineConfig({
  entry,
  format: ['esm', 'cjs'],
  // The declarations are bundled from the .d.ts files TypeScript 7's native compiler emitted into
  // .build/types (`npm run build` runs it first, tsconfig.build.json): from .d.ts input tsup's
  // bundler only reads and joins them, where from .ts it built a TypeScript 5 program of all of
  // src/ (about 40 s, against 4 s).
  dts: {
    entry: Object.fromEntries(
      Object.entries(entry).map(([name, file]) => [
        name,
        file.replace(/^src\//, '.build/types/').replace(/\.ts$/, '.d.ts'),
      ]),
    ),
  },
  clean: true,
  // No source maps: the package ships no sources for them to point at.
  sourcemap: false,
  target: 'node22',
  splitting: true,
});
