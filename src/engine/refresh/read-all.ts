// Refresh: read every recorded object (or the ones in scope) and say which drifted or are gone.
// A resource type with `readMany` is read by the page: one call for all of its objects (grouped
// by the provider, by region or parent as its API lists them), the rest one `read` each. A type
// with no more objects than `parallelism` is read one by one all the same: one round of reads
// waits as long as one listing, and asks for the stack's objects only, where a listing returns the
// whole region's (a fleet of 1,000 stacks in one Civo account: 10 GETs of one network each instead
// of one listing of 10,000 networks, 4 MB, per drift check). Absence
// from a listing is never proof: a list read page by page can skip an object that exists (another
// object deleted between two page requests shifts the rest), so an id the batched answer leaves
// out or answers null for is read alone before it is called gone (one GET per missing object;
// nothing extra when nothing went). Both ways give the same results (drift, gone, unchanged).
// Reads run concurrently up to `parallelism`.
import type { ResourceState, State } from '../../state/model.js';
import { own } from '../../state/keys.js';
import type { ReadResult, Resolved } from '../provider/define.js';
import type { OperationContext } from '../provider/context.js';
import type { Event } from '../events.js';
import { schedule } from '../run/scheduler.js';
import { diffValues } from '../diff/diff.js';
import { RefreshError } from '../errors.js';

type ReadAllDeps = {
  readonly state: State;
  readonly names: readonly string[];
  /** The handler of a type through a provider instance (undefined: the default one). */
  readonly resolve: (token: string, instance?: string) => Resolved | undefined;
  readonly parallelism: number;
  /** The operation context; `prior` is the record read, whose secret values the context scrubs from what it reports. */
  readonly context: (resolved: Resolved, address: string, token: string, prior?: ResourceState) => OperationContext;
  readonly emit: (event: Event) => void;
  readonly now: () => number;
};

type ReadAllResult = {
  /** name → the refreshed record (the same object when nothing changed), or null when it is gone. */
  readonly out: Map<string, ResourceState | null>;
  readonly failures: { address: string; error: Error }[];
};

export async function readAll(deps: ReadAllDeps): Promise<ReadAllResult> {
  const out = new Map<string, ResourceState | null>();
  const failures: { address: string; error: Error }[] = [];
  // Batched per type and provider instance (each instance is its own account or server). An object
  // whose instance this engine lacks is not read: the plan says which instance it needs.
  const batches = new Map<Resolved, string[]>();
  const singles: string[] = [];
  for (const name of deps.names) {
    const prior = own(deps.state.resources, name)!;
    const resolved = deps.resolve(prior.type, prior.instance);
    if (!resolved) continue;
    if (resolved.def.readMany) {
      const list = batches.get(resolved);
      if (list) list.push(name);
      else batches.set(resolved, [name]);
    } else singles.push(name);
  }
  for (const [resolved, names] of batches)
    if (names.length <= deps.parallelism) {
      singles.push(...names);
      batches.delete(resolved);
    }

  const settle = (name: string, r: ReadResult | null, started: number) => {
    const prior = own(deps.state.resources, name)!;
    if (r === null) {
      out.set(name, null);
      deps.emit({ type: 'refresh', at: deps.now(), address: name, outcome: 'gone', elapsedMs: deps.now() - started });
      return;
    }
    const keyed = deps.resolve(prior.type, prior.instance)?.def.keyedLists;
    const same =
      diffValues(prior.inputs, r.inputs, keyed).length === 0 &&
      diffValues(prior.outputs, r.outputs).length === 0 &&
      (r.id ?? prior.id) === prior.id;
    out.set(
      name,
      same
        ? prior
        : {
            ...prior,
            id: r.id ?? prior.id,
            inputs: r.inputs,
            outputs: r.outputs,
            updatedAt: new Date(deps.now()).toISOString(),
          },
    );
    deps.emit({
      type: 'refresh',
      at: deps.now(),
      address: name,
      outcome: same ? 'unchanged' : 'drifted',
      elapsedMs: deps.now() - started,
    });
  };
  const readOne = async (name: string) => {
    const prior = own(deps.state.resources, name)!;
    const resolved = deps.resolve(prior.type, prior.instance)!;
    const started = deps.now();
    try {
      settle(
        name,
        await resolved.def.read(deps.context(resolved, name, prior.type, prior), prior.id, {
          inputs: prior.inputs,
          outputs: prior.outputs,
        }),
        started,
      );
    } catch (error) {
      failures.push({ address: name, error: error as Error });
    }
  };
  /** Names a batched read did not find: read one by one after the listings. */
  const unseen: string[] = [];
  const readBatch = async (resolved: Resolved, names: readonly string[]) => {
    const { def } = resolved;
    const first = own(deps.state.resources, names[0]!)!;
    const started = deps.now();
    let answers: ReadonlyMap<string, ReadResult | null>;
    try {
      const items = names.map((n) => {
        const r = own(deps.state.resources, n)!;
        return { id: r.id, prior: { inputs: r.inputs, outputs: r.outputs } };
      });
      answers = await def.readMany!(deps.context(resolved, first.type, first.type), items);
    } catch (error) {
      for (const n of names) failures.push({ address: n, error: error as Error });
      return;
    }
    for (const n of names) {
      const seen = answers.get(own(deps.state.resources, n)!.id);
      // Not in the listing (left out, or null): its own read says whether it is gone.
      if (seen) settle(n, seen, started);
      else unseen.push(n);
    }
  };

  type Task = { id: string; waitFor: readonly string[]; run: () => Promise<void> };
  const tasks: Task[] = [
    ...[...batches].map(([resolved, names]): Task => ({
      id: `batch:${resolved.def.token}:${resolved.provider.instanceName ?? ''}`,
      waitFor: [],
      run: () => readBatch(resolved, names),
    })),
    ...singles.map((n): Task => ({ id: n, waitFor: [], run: () => readOne(n) })),
  ];
  await schedule(
    tasks,
    deps.parallelism,
    (t) => t.run(),
    () => {},
  );
  if (unseen.length)
    await schedule(
      unseen.map((n): Task => ({ id: n, waitFor: [], run: () => readOne(n) })),
      deps.parallelism,
      (t) => t.run(),
      () => {},
    );
  return { out, failures };
}

/** The error a refresh with failed reads throws: each failed read, the first one's error as the cause. */
export function refreshFailure(failures: readonly { address: string; error: Error }[]): RefreshError {
  return new RefreshError(
    failures.map((f) => ({ address: f.address, message: f.error.message.split('\n')[0] ?? '' })),
    { cause: failures[0]?.error },
  );
}
