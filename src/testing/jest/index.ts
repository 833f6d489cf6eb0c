// converge/testing/jest: the plan matchers typed on jest's `expect`: the `expect` package's
// `Matchers` (jest 28 and later, `@jest/globals`) and the global `jest.Matchers` of `@types/jest`.
// Types only, for jest users alone: converge/testing itself names no runner. Load it once, e.g. in
// the setup file that runs `expect.extend(convergeMatchers)`: `import 'converge/testing/jest';`.
// Makes 'expect' a module of the program, so the augmentation below has something to augment.
import type {} from 'expect';
import type { PlanMatchers } from '../assertions.js';

declare module 'expect' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type, @typescript-eslint/no-unused-vars
  interface Matchers<R extends void | Promise<void>, T = unknown> extends PlanMatchers<R> {}
}

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace jest {
    // eslint-disable-next-line @typescript-eslint/no-empty-object-type, @typescript-eslint/no-unused-vars
    interface Matchers<R, T = {}> extends PlanMatchers<R> {}
  }
}

export type { PlanMatchers };
