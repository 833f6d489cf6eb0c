// References between stacks. `stackOutputs(store)` reads another stack's outputs (one consistent
// snapshot, no lock, nothing written: StateStore.readOutputs); `stackRef(store, name)` stands for
// one of them in a declaration's inputs or a stack output, and the plan resolves it before it
// validates anything: a secret output arrives as secret(value), so it stays secret in this stack
// (redacted in its plan, sealed in its state), and a missing output is a validation issue naming
// the stack and the output (ops/stack-links.ts). In JSON: {"@converge":"stack-ref","stack":"<location>","output":"apiUrl"}.
import type { StateStore } from '../../state/store.js';
import { secret } from '../values/secret.js';

/** A reference to another stack's output, as {@link stackRef} makes it; `T` is the value's type (types only). */
export type StackRef<T = unknown> = {
  /** Marks the object as a stack reference: always `'stack-ref'`. */
  readonly '@converge': 'stack-ref';
  /** The other stack's state location (`file:/…/state.json`, `postgres:network`). */
  readonly stack: string;
  /** The output's name. */
  readonly output: string;
  /** Types only: the type of the value referred to. Never set at run time. */
  readonly '@type'?: T;
};

/** Another stack's outputs, as {@link stackOutputs} reads them. */
export type StackOutputs = {
  /** The store's location: names the stack in messages. */
  readonly stack: string;
  /** False when that store holds no state (the stack was never applied). */
  readonly exists: boolean;
  /** The lineage of the state read. */
  readonly lineage: string;
  /** The serial of the state the outputs belong to. */
  readonly serial: number;
  /** The outputs by name; a secret output is a {@link Secret} (`secret(value)`), so it stays secret where it is used. */
  readonly outputs: Readonly<Record<string, unknown>>;
};

const stores = new WeakMap<object, StateStore>();

/**
 * Reads another stack's outputs: read-only, without its lock, one consistent snapshot (its
 * lineage, serial and outputs belong to one committed state). A store that can reads the outputs
 * alone (PostgreSQL: the `converge_stack_outputs` view, so a role with SELECT on that view only
 * suffices; file: the `<state>.outputs` sidecar). Secret outputs come back wrapped in
 * `secret()`: opened with that store's passphrase, and kept secret by any declaration they go into.
 *
 * @example
 * ```ts
 * import { FileStateStore, stackOutputs } from 'converge';
 *
 * const network = await stackOutputs(new FileStateStore('../network/.converge/state.json'));
 * const subnet = network.outputs.subnetId; // a secret output would be secret(value)
 * ```
 */
export async function stackOutputs(store: StateStore): Promise<StackOutputs> {
  if (!store || typeof store.read !== 'function')
    throw new TypeError('Expected `store` to be a StateStore (FileStateStore, PostgresStateStore, …)');
  const snap = store.readOutputs
    ? await store.readOutputs()
    : await store
        .read()
        .then((s) => ({ exists: s.serial > 0, lineage: s.lineage, serial: s.serial, outputs: s.outputs ?? {} }));
  // fromEntries makes every name an own key (`__proto__` too), at a fraction of a defineProperty each.
  const outputs = Object.fromEntries(
    Object.entries(snap.outputs).map(([name, o]) => [name, o.secret ? secret(o.value) : o.value]),
  );
  return Object.freeze({
    stack: store.location,
    exists: snap.exists,
    lineage: snap.lineage,
    serial: snap.serial,
    outputs: Object.freeze(outputs),
  });
}

/**
 * Stands for output `output` of the stack whose state is `store`, in a declaration's inputs (at
 * any depth) or in the plan's `outputs`. The plan reads that stack's outputs (no lock, one
 * snapshot per store) before it validates the declarations; a secret output stays secret in this
 * stack, and a missing one is a validation issue naming the stack and the output.
 *
 * @example
 * ```ts
 * import { PostgresStateStore, stackRef, type ResourceDecl } from 'converge';
 *
 * const network = new PostgresStateStore({ connectionString: 'postgres://reader@db/converge', stack: 'network' });
 * const app: ResourceDecl = {
 *   type: 'provb:index/instance:Instance',
 *   name: 'app',
 *   inputs: { hostname: 'app', networkId: stackRef<string>(network, 'networkId') },
 * };
 * ```
 */
export function stackRef<T = unknown>(store: StateStore, output: string): StackRef<T> {
  if (!store || typeof store.read !== 'function' || typeof store.location !== 'string')
    throw new TypeError('Expected `store` to be a StateStore (FileStateStore, PostgresStateStore, …)');
  if (typeof output !== 'string' || !output) throw new TypeError('Expected `output` to be a non-empty string');
  const r = { '@converge': 'stack-ref' as const, stack: store.location, output };
  stores.set(r, store);
  return Object.freeze(r);
}

/** True when `value` is a reference made by {@link stackRef} (or its JSON form). */
export function isStackRef(value: unknown): value is StackRef {
  return (
    typeof value === 'object' && value !== null && (value as { '@converge'?: unknown })['@converge'] === 'stack-ref'
  );
}

/**
 * True when a stack reference stands anywhere inside `value`. Every plan asks this of every
 * declaration, so the walk remembers nothing while the value is shallow and small; past SHALLOW
 * levels or LOOKS values (a cycle, or an object reached by many paths) it starts a seen-set and
 * looks at each object once from there, so a circular value ends it: it is not JSON, and validation
 * reports it at its path. The set is a plain Set, dropped with the call: a WeakSet cost the
 * collector an ephemeron per object of every declaration, at every plan.
 */
export function hasStackRefs(value: unknown): boolean {
  return refsWithin(value, 0, { left: LOOKS });
}

/** How deep and how many values the walk follows before it keeps a seen-set. */
const SHALLOW = 64;
const LOOKS = 10_000;

/** One hasStackRefs walk: its budget of values left, and its seen-set once it needs one. */
type RefWalk = { left: number; seen?: Set<object> };

function refsWithin(value: unknown, depth: number, walk: RefWalk): boolean {
  if (value === null || typeof value !== 'object') return false;
  if (!walk.seen && (depth > SHALLOW || --walk.left < 0)) walk.seen = new Set();
  if (walk.seen) {
    if (walk.seen.has(value)) return false;
    walk.seen.add(value);
  }
  if (isStackRef(value)) return true;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) if (i in value && refsWithin(value[i], depth + 1, walk)) return true;
    return false;
  }
  for (const k in value) if (refsWithin((value as Record<string, unknown>)[k], depth + 1, walk)) return true;
  return false;
}

/** The store a reference made by {@link stackRef} reads (undefined for one rebuilt from JSON). */
export function storeOf(ref: StackRef): StateStore | undefined {
  return stores.get(ref);
}
