// Small builders for tests: declarations and engines over the test provider.
import { Engine, MemoryStateStore, type ResourceDecl, type ResourceOptions, type Event } from 'converge';
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
