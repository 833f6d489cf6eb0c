// Test harness for provider B: a simulator with tiny transition times, a provider pointed at it with
// a tiny poll interval, and contexts whose retries do not wait.
import { afterEach, expect } from 'vitest';
import { startSimulator, type CivoSimulator, type SimulatorOptions } from '../../../src/providers/b/simulator/index.js';
import { provb } from '../../../src/providers/b/index.js';
import type { ProvbConfig, ProvbOptions } from '../../../src/providers/b/config.js';
import { standaloneContext, type OperationContext, type Report } from '../../../src/engine/provider/context.js';
import type { AnyResource, FindHint, Prior } from '../../../src/engine/provider/define.js';
import { answers } from '../../../src/providers/b/wire/answers.js';
import type { CivoClient } from '../../../src/providers/b/client.js';

export const fastTransitions = {
  instance: 3,
  cluster: 3,
  pool: 3,
  database: 3,
  volume: 2,
  ip: 2,
  objectStore: 2,
  credential: 2,
};

export type Harness = {
  readonly sim: CivoSimulator;
  readonly provider: ReturnType<typeof provb>;
  readonly reports: Report[];
  ctx(overrides?: Partial<OperationContext<ProvbConfig>>): OperationContext<ProvbConfig>;
  res(token: string): AnyResource;
};

const open: CivoSimulator[] = [];
afterEach(async () => {
  for (const sim of open.splice(0)) {
    expect(sim.unmatched).toEqual([]);
    await sim.close();
  }
});

export async function harness(simOptions: SimulatorOptions = {}, providerOptions: ProvbOptions = {}): Promise<Harness> {
  const sim = await startSimulator({ transitions: fastTransitions, ...simOptions });
  open.push(sim);
  const provider = provb({
    token: sim.token,
    apiEndpoint: sim.url,
    region: 'LON1',
    pollIntervalMs: 1,
    ...providerOptions,
  });
  checkAnswers(provider.config.client);
  const reports: Report[] = [];
  return {
    sim,
    provider,
    reports,
    ctx: (overrides = {}) =>
      standaloneContext(provider.config, {
        retry: { retries: 6, minTimeoutMs: 1, maxTimeoutMs: 2 },
        report: (r) => reports.push(r),
        ...overrides,
      }),
    res: (token) => {
      const def = provider.resources.get(`provb:index/${token}`);
      if (!def) throw new Error(`no resource ${token}`);
      return def;
    },
  };
}

let operations = 0;

/**
 * Creates with parsed inputs, as the engine does (an operation id of its own); returns id, parsed
 * inputs, the prior a later read takes, and the hint a find for this create gets.
 */
export async function created(h: Harness, token: string, raw: Record<string, unknown>) {
  const def = h.res(token);
  const inputs = def.inputs.parse(raw) as Record<string, unknown>;
  const operationId = `test-op-${++operations}-${Date.now()}`;
  // What the engine does: note what exists before the request (recorded in the pending record), then create.
  const existing = def.existing
    ? [...(await def.existing(h.ctx({ operation: 'read', operationId }), inputs))]
    : undefined;
  const hint: FindHint = { startedAt: new Date().toISOString(), operationId, ...(existing ? { existing } : {}) };
  const { id, outputs } = await def.create(h.ctx({ operation: 'create', operationId }), inputs);
  const prior: Prior = { inputs, outputs };
  return { def, id, inputs, outputs, prior, hint };
}

/**
 * Makes every endpoint of `client` parse its answer with the endpoint's schema (src/providers/b/wire/answers.ts):
 * an answer of the simulator that breaks the shape the code relies on fails the test that got it.
 */
export function checkAnswers(client: CivoClient): void {
  const endpoints = client as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
  for (const [name, schema] of Object.entries(answers)) {
    const call = endpoints[name]!;
    endpoints[name] = async (...args) => {
      const answer = await call(...args);
      const parsed = schema.safeParse(answer);
      if (!parsed.success)
        throw new Error(`the answer of ${name} breaks its schema: ${JSON.stringify(parsed.error.issues.slice(0, 3))}`);
      return answer;
    };
  }
}
