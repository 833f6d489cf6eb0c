// "If I change this, what does the plan do?": plan a stack, apply it to an in-memory state through
// the given providers (mocks, or real ones against a simulator), plan the edited stack and hand back
// that second plan, for the matchers to judge.
import { Engine } from '../engine/engine.js';
import type { Plan } from '../engine/plan/plan.js';
import type { PlanOptions } from '../engine/engine-options.js';
import type { Provider } from '../engine/provider/define.js';
import type { ResourceDecl } from '../engine/decl/resource-decl.js';
import type { State } from '../state/model.js';
import type { StateStore } from '../state/store.js';
import { MemoryStateStore } from '../state/stores/memory.js';
import { isMockResource, mocksDrift, type Mocks } from './mock.js';
import { recordCreates } from './record-creates.js';

/** A stack: its declarations (what a stack module's function returns). */
export type Stack = readonly ResourceDecl[];

/** The edit of {@link planChange}: the edited stack, or a function from the stack to it. */
export type StackEdit = Stack | ((stack: Stack) => Stack);

/** Options of {@link planStack} and {@link planChange}. */
export type PlanChangeOptions = {
  /** The providers: what `mockProviders()` returned, or provider instances (e.g. against a simulator). */
  readonly providers: Mocks | readonly Provider<unknown>[];
  /**
   * The state to start from: a store (kept, so a test can read it after), or a state value (copied
   * into a fresh memory store). Default: an empty memory store.
   */
  readonly state?: StateStore | State;
  /**
   * Options of the plan handed back (targets, exclude, replace, mode). `refresh` defaults to true,
   * but with mocks none of which was given a `drift()`: they would read back what they hold.
   */
  readonly plan?: PlanOptions;
  /** Steps run at once while applying the first plan; default 64 (mocks answer at once). */
  readonly parallelism?: number;
};

const isStore = (s: StateStore | State): s is StateStore => typeof (s as StateStore).read === 'function';

/** The engine a test's plans are made with, its store, and whether that store is planChange's own. */
async function engineFor(options: PlanChangeOptions): Promise<{ engine: Engine; store: StateStore; own: boolean }> {
  if (!options || !options.providers)
    throw new TypeError('Expected `providers`: mockProviders(...) or provider instances');
  const providers = 'providers' in options.providers ? options.providers.providers : options.providers;
  let store: StateStore = new MemoryStateStore();
  const own = !(options.state && isStore(options.state));
  if (options.state && isStore(options.state)) store = options.state;
  else if (options.state) {
    const base = await store.read();
    await store.write({ ...options.state, lineage: options.state.lineage || base.lineage }, base.serial);
  }
  const engine = new Engine({ providers: [...providers], state: store, parallelism: options.parallelism ?? 64 });
  return { engine, store, own };
}

/**
 * Plans `stack` against the state given (empty by default) through the providers given, and hands
 * back the plan, for the matchers (`expect(plan).toCreate(...)`).
 *
 * @example
 * ```ts
 * import { provb } from 'converge/providers/b';
 * import { mockProviders, planStack, expectPlan } from 'converge/testing';
 *
 * const mocks = mockProviders(provb({ token: 'unused', region: 'LON1' }));
 * const plan = await planStack([provb.network('net', { label: 'app' })], { providers: mocks });
 * expectPlan(plan).toCreate('net');
 * ```
 */
export async function planStack(stack: Stack, options: PlanChangeOptions): Promise<Plan> {
  const { engine } = await engineFor(options);
  return engine.plan(stack, options.plan);
}

/**
 * Plans `stack`, applies it through the providers given (an in-memory state, unless `state` says
 * otherwise), plans the edited stack and hands back that second plan: what the edit would do.
 *
 * @example
 * ```ts
 * import { provb } from 'converge/providers/b';
 * import { mockProviders, planChange, expectPlan } from 'converge/testing';
 *
 * const stack = (size: string) => [provb.instance('web', { hostname: 'web', diskImage: 'ubuntu-jammy', size })];
 * const mocks = mockProviders(provb({ token: 'unused', region: 'LON1' }));
 * const plan = await planChange(stack('g3.small'), stack('g3.medium'), { providers: mocks });
 * expectPlan(plan).toUpdate('web', { paths: ['size'] });
 * ```
 */
export async function planChange(stack: Stack, edit: StackEdit, options: PlanChangeOptions): Promise<Plan> {
  const { engine, store, own } = await engineFor(options);
  const mocks =
    'providers' in options.providers ? (options.providers as Mocks & { [mocksDrift]?: () => boolean }) : undefined;
  const first = await engine.plan(stack, { refresh: true });
  // A first plan of creates through mocks into planChange's own store is recorded as apply would
  // record it, without the apply machinery (record-creates.ts); anything else is applied.
  const recorded = first.hasChanges && mocks && own && (await recordCreates(first, store, isMockResource));
  if (first.hasChanges && !recorded) await engine.apply(first);
  const edited = typeof edit === 'function' ? edit(stack) : edit;
  // Mocks read back what they hold: without a drift set, a refresh would find nothing, so it is skipped.
  const refresh = options.plan?.refresh ?? (mocks ? (mocks[mocksDrift]?.() ?? true) : true);
  return engine.plan(edited, { ...options.plan, refresh });
}
