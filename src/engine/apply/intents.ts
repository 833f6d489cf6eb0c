// Pending records for creates and deletes, written ahead in chunks. A create or a delete must be
// recorded as pending durably before the provider is called; writing one record per step costs
// each step an extra fsync wait. Instead the creates whose inputs the plan knew, and the deletes of
// removed (or deposed) objects, are marked pending CHUNK at a time (one change, one fsync), a chunk
// ahead of the steps that need it; at the end, marks of steps that never called the provider are
// cleared. Recovery after a crash looks at most at the marked chunks' operations (a marked delete
// whose object still exists is simply planned again).
import { stateNameOf, type CreateWork, type DeleteWork, type DeposedWork, type OrderedWork } from '../plan/work.js';
import { instanceFields } from '../provider/instance.js';
import type { Ledger } from '../run/ledger.js';
import { randomUUID } from 'node:crypto';
import { storedOptions } from '../plan/options.js';
import { clearPendingMany, markPendingMany, type NewPending } from '../../state/ops.js';

const CHUNK = 256;

/** A step whose pending record may be written ahead: a create whose inputs the plan knew, the delete of an orphan. */
type Eligible = (CreateWork & { readonly inputs: Readonly<Record<string, unknown>> }) | DeleteWork | DeposedWork;

function eligible(w: OrderedWork): w is Eligible {
  return (w.kind === 'create' && w.inputs !== undefined) || w.kind === 'delete' || w.kind === 'delete-deposed';
}

/** The pending records written ahead for a run's creates and orphan deletes (see the file's opening comment). */
export class PendingIntents {
  readonly #ledger: Ledger;
  readonly #eligible: Eligible[];
  readonly #index = new Map<string, number>();
  readonly #chunks = new Map<number, Promise<Map<string, string>>>();
  /** address → pending id, for marks whose step has not reached the provider yet. */
  readonly #unused = new Map<string, string>();

  constructor(work: readonly OrderedWork[], ledger: Ledger, stamp: string) {
    this.#ledger = ledger;
    this.#eligible = work.filter(eligible);
    this.#eligible.forEach((w, i) => this.#index.set(intentKey(w), i));
    this.#stamp = stamp;
  }

  readonly #stamp: string;

  /** The pending id already written for this step's create or delete, or undefined when it must write its own. */
  async take(w: OrderedWork): Promise<string | undefined> {
    if (!eligible(w)) return undefined;
    const address = intentKey(w);
    const i = this.#index.get(address);
    if (i === undefined) return undefined;
    const chunk = Math.floor(i / CHUNK);
    const ids = await this.#mark(chunk);
    void this.#mark(chunk + 1).catch(() => {}); // one chunk ahead, so the next steps need not wait
    const id = ids.get(address);
    if (id) this.#unused.delete(address);
    return id;
  }

  #mark(chunk: number): Promise<Map<string, string>> {
    let p = this.#chunks.get(chunk);
    if (p) return p;
    const slice = this.#eligible.slice(chunk * CHUNK, (chunk + 1) * CHUNK);
    if (slice.length === 0) return Promise.resolve(new Map());
    const ops: (NewPending & { id: string; startedAt: string })[] = slice.map((w) =>
      w.kind === 'create'
        ? {
            id: randomUUID(),
            startedAt: this.#stamp,
            kind: 'create',
            type: w.step.type,
            name: w.step.address,
            provider: w.provider.name,
            ...instanceFields(w.provider),
            inputs: w.inputs,
            secrets: w.secrets.filter((s) => s.startsWith('inputs.')),
            dependencies: [...w.deps],
            options: storedOptions(w.decl.options),
            ...(w.def.existing ? { existing: null } : {}),
          }
        : {
            id: randomUUID(),
            startedAt: this.#stamp,
            kind: 'delete',
            type: w.step.type,
            name: stateNameOf(w),
            provider: w.provider.name,
            ...instanceFields(w.provider),
            inputs: {},
            resourceId: w.kind === 'delete' ? w.prior.id : w.deposed.id,
            secrets: [],
            ...(w.kind === 'delete-deposed' ? { deposedKey: w.deposed.deposedKey } : {}),
          },
    );
    const ids = new Map(slice.map((w, i) => [intentKey(w), ops[i]!.id]));
    for (const [a, id] of ids) this.#unused.set(a, id);
    p = this.#ledger.commit((serial) => markPendingMany(serial, ops)).then(() => ids);
    this.#chunks.set(chunk, p);
    return p;
  }

  /** Clears the marks of steps that never called the provider (skipped, or never reached). */
  async settle(): Promise<void> {
    await Promise.allSettled(this.#chunks.values());
    const ids = [...this.#unused.values()];
    this.#unused.clear();
    if (ids.length) await this.#ledger.commit((serial) => clearPendingMany(serial, ids));
  }
}

/** A step's key among the intents: creates by address, deletes by address and deposed key. */
function intentKey(w: Eligible): string {
  if (w.kind === 'create') return `create:${w.step.address}`;
  return `delete:${w.step.address}#${w.kind === 'delete-deposed' ? w.deposed.deposedKey : ''}`;
}
