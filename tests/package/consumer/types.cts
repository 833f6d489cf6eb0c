// A CommonJS TypeScript module: `import` here compiles to require(), so tsc resolves the package's
// "require" conditions and their .d.cts declarations.
import { Engine, MemoryStateStore, defineProvider, defineResource } from 'converge';
import { provb } from 'converge/providers/b';
import type { CivoSimulator } from 'converge/providers/b/simulator';

export function engineFor(sim: CivoSimulator): Engine {
  return new Engine({ providers: [provb({ token: sim.token, apiEndpoint: sim.url })], state: new MemoryStateStore() });
}

export const mine = defineProvider({ name: 'mine', resources: [] satisfies ReturnType<typeof defineResource>[] });

// @ts-expect-error a number is not a label: the .d.cts types reached this file
provb.network('n', { label: 42 });
