// converge/testing/vitest: the plan matchers typed on vitest's `expect` (its `Assertion`). Types
// only, for vitest users alone: converge/testing itself names no runner, so a jest or node:test
// project without vitest type-checks it. Load it once, e.g. in the setup file that runs
// `expect.extend(convergeMatchers)`: `import 'converge/testing/vitest';`.
// Makes 'vitest' a module of the program, so the augmentation below has something to augment.
import type {} from 'vitest';
import type { PlanMatchers } from '../assertions.js';

declare module 'vitest' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type, @typescript-eslint/no-explicit-any, @typescript-eslint/no-unused-vars
  interface Assertion<T = any> extends PlanMatchers<void> {}
}

export type { PlanMatchers };
