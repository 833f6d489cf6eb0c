// One simulator, one provc provider and one engine per test, plus what every test checks when it
// ends: every request and answer conforms to the vendor's OpenAPI specs, no request went unmatched,
// and no secret reached an event.
import { afterEach, beforeEach, expect } from 'vitest';
import { Engine, MemoryStateStore, standaloneContext, type Event, type Report } from 'converge';
import { provc, type ProvcOptions } from 'converge/providers/c';
import {
  startSimulator,
  SIM_PROJECT_ID,
  SIM_REGION_ID,
  type GcoreSimulator,
  type SimulatorOptions,
} from 'converge/providers/c/simulator';
import type { OperationKind } from '../../../../src/engine/provider/context.js';
import { gcoreSpecs } from './spec.js';

export type Harness = {
  readonly sim: GcoreSimulator;
  readonly provider: ReturnType<typeof provc>;
  readonly engine: Engine;
  /** Reports of handlers called through ctx(); events of the engine. */
  readonly reports: Report[];
  readonly events: Event[];
  /** A standalone context for calling handlers directly; create and find carry TEST_OPERATION as the engine's operation id. */
  ctx(
    operation?: OperationKind,
    address?: string,
  ): ReturnType<typeof standaloneContext<ReturnType<typeof provc>['config']>>;
  /** Secret strings that must never appear in an error, event or report. */
  readonly secrets: string[];
};

/** The operation id of creates made through Harness.ctx (the same as sinceEpoch's). */
export const TEST_OPERATION = 'test-operation';

export type HarnessOptions = {
  readonly sim?: SimulatorOptions;
  readonly provider?: Partial<ProvcOptions>;
  readonly skipConformance?: boolean;
};

export function makeProvider(sim: GcoreSimulator, extra: Partial<ProvcOptions> = {}) {
  return provc({
    apiKey: sim.apiKey,
    baseUrl: sim.baseUrl,
    cloudProjectId: SIM_PROJECT_ID,
    cloudRegionId: SIM_REGION_ID,
    pollingIntervalSeconds: 0.002,
    pollingTimeoutSeconds: 5,
    env: {},
    ...extra,
  });
}

/** Registers beforeEach/afterEach hooks; call the returned function inside a test. */
export function useHarness(options: HarnessOptions | (() => HarnessOptions) = {}): () => Harness {
  let current: Harness | undefined;
  let opts: HarnessOptions = {};
  beforeEach(async () => {
    opts = typeof options === 'function' ? options() : options;
    const sim = await startSimulator({ taskDurationMs: 6, ...opts.sim });
    const provider = makeProvider(sim, opts.provider);
    const reports: Report[] = [];
    const events: Event[] = [];
    const engine = new Engine({
      providers: [provider],
      state: new MemoryStateStore(),
      retry: { retries: 3, minTimeoutMs: 1, maxTimeoutMs: 5 },
      onEvent: (e) => events.push(e),
    });
    current = {
      sim,
      provider,
      engine,
      reports,
      events,
      secrets: [sim.apiKey],
      ctx: (operation = 'read', address = 'test') =>
        standaloneContext(provider.config, {
          operation,
          address,
          report: (r) => reports.push(r),
          retry: { retries: 3, minTimeoutMs: 1, maxTimeoutMs: 5 },
          ...(operation === 'create' || operation === 'find' ? { operationId: TEST_OPERATION } : {}),
        }),
    };
  });
  afterEach(async () => {
    const h = current!;
    current = undefined;
    try {
      expect(h.sim.unmatched.map((e) => `${e.method} ${e.path}`)).toEqual([]);
      if (!opts.skipConformance) {
        const specs = await gcoreSpecs();
        expect(specs.check(h.sim.requests, opts.sim?.basePath ?? '')).toEqual([]);
      }
      const said = JSON.stringify([h.reports, h.events]);
      for (const s of h.secrets) expect(said).not.toContain(s);
    } finally {
      await h.sim.close();
    }
  });
  return () => {
    if (!current) throw new Error('the harness exists only inside a test');
    return current;
  };
}

/** Runs a promise that must fail and returns its error, checking no secret is in it. */
export async function failure(h: Harness, p: Promise<unknown>): Promise<Error & Record<string, unknown>> {
  const error = await p.then(
    () => undefined,
    (e: unknown) => e as Error & Record<string, unknown>,
  );
  if (!error) throw new Error('expected a failure, but it succeeded');
  const text = `${error.message} ${JSON.stringify(error)} ${String((error as { cause?: unknown }).cause ?? '')}`;
  for (const s of h.secrets) expect(text).not.toContain(s);
  return error;
}
