// Small builders for tests: declarations and engines over the test provider.
import {
  Engine,
  MemoryStateStore,
  isCannotTell,
  type ResourceDecl,
  type ResourceOptions,
  type Event,
  type FindHint,
  type FindResult,
  type CreateResult,
} from 'converge';
import { TestCloud, testProvider, THING, BLOB } from './test-provider.js';

export function thing(name: string, inputs: Record<string, unknown> = {}, options?: ResourceOptions): ResourceDecl {
  return { type: THING, name, inputs: { name, ...inputs }, ...(options ? { options } : {}) };
}

export function blob(name: string, inputs: Record<string, unknown>, options?: ResourceOptions): ResourceDecl {
  return { type: BLOB, name, inputs, ...(options ? { options } : {}) };
}

export function setup(opts: { parallelism?: number; store?: MemoryStateStore } = {}) {
  const cloud = new TestCloud();
  const events: Event[] = [];
  const store = opts.store ?? new MemoryStateStore();
  const engine = new Engine({
    providers: [testProvider(cloud)],
    state: store,
    parallelism: opts.parallelism ?? 10,
    retry: { retries: 3, minTimeoutMs: 1, maxTimeoutMs: 2 },
    onEvent: (e) => events.push(e),
  });
  return { cloud, engine, events, store };
}

/** A find hint that claims nothing about time: every object counts as made after it (unit tests of find). */
export const sinceEpoch: FindHint = Object.freeze({
  startedAt: '1970-01-01T00:00:00.000Z',
  operationId: 'test-operation',
});

/** A find answer as the object or null; fails the test when find could not tell. */
export async function found(answer: Promise<FindResult>): Promise<CreateResult | null> {
  const a = await answer;
  if (isCannotTell(a)) throw new Error(`find could not tell: ${a.cannotTell}`);
  return a;
}
