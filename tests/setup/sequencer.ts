// The order test files start in. Three forks share the run; the run ends when the last of them
// ends, so the longest files must start first, not last behind a hundred short ones. vitest orders
// by the durations it cached in the last run, and on a fresh clone (CI), with no cache, by file
// size, which put the package test (the longest, about a minute) two minutes into the run. The
// files below, the longest of a full run on a 2-core machine (durations under load, 2026-11-27, 277 s run),
// start first in this order; every other file follows in vitest's own order.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

export const LONGEST_FIRST = [
  'tests/package/pack.test.ts',
  'tests/integration/lxd/lxc-differential.test.ts',
  'tests/integration/lxd/lxc-refusals.test.ts',
  'tests/integration/crash.test.ts',
  'tests/cli/commands.test.ts',
  'tests/integration/lxd/instance.test.ts',
  'tests/integration/lxd/aprov-lifecycle.test.ts',
  'tests/integration/kill.test.ts',
  'tests/cli/pty.test.ts',
  'tests/fleet/kill.test.ts',
  'tests/fleet/connections.test.ts',
  'tests/docs/tsdoc.test.ts',
  'tests/cli/two-process.test.ts',
  'tests/state/postgres.test.ts',
  'tests/examples/demo.test.ts',
  'tests/fleet/fleet.test.ts',
  'tests/architecture.test.ts',
  'tests/integration/lxd/differential.test.ts',
];

// a renamed or removed file would silently lose its place
const root = fileURLToPath(new URL('../..', import.meta.url));
const gone = LONGEST_FIRST.filter((name) => !existsSync(`${root}${name}`));
if (gone.length > 0) throw new Error(`tests/setup/sequencer.ts names files that do not exist: ${gone.join(', ')}`);

export default class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (f: TestSpecification) => {
      const i = LONGEST_FIRST.findIndex((name) => f.moduleId.endsWith(`/${name}`));
      return i < 0 ? LONGEST_FIRST.length : i;
    };
    return sorted
      .map((f, i) => ({ f, i }))
      .sort((a, b) => rank(a.f) - rank(b.f) || a.i - b.i)
      .map(({ f }) => f);
  }
}
