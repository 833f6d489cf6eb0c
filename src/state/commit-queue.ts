// The one order every store keeps: its reads, writes and commits run one at a time in call order,
// and a run of consecutive commits goes to the store together, so it can make them durable with one
// write (the file store's group commit: one fsync; Postgres: one statement).
import type { StateChange } from './patch.js';

/** How a queued call's promise is settled. */
type Settle<T = void> = { resolve(v: T): void; reject(e: unknown): void };

/** A commit waiting in the queue: the store settles `done` once the change is durable, or refused. */
export type QueuedCommit = { readonly change: StateChange; readonly done: Settle };

type Task = ({ kind: 'commit' } & QueuedCommit) | { kind: 'other'; run: () => Promise<unknown>; done: Settle<unknown> };

export class CommitQueue {
  readonly #queue: Task[] = [];
  readonly #commitGroup: (group: QueuedCommit[]) => Promise<void>;
  readonly #onError: () => void;
  readonly #maxGroup: number;
  #draining: Promise<void> | undefined;

  /**
   * `commitGroup` makes a run of consecutive commits durable and settles each (it never throws);
   * `onError` runs when another call fails (a store forgets what it knew of its files or rows).
   */
  constructor(options: {
    readonly commitGroup: (group: QueuedCommit[]) => Promise<void>;
    readonly onError: () => void;
    readonly maxGroup?: number;
  }) {
    this.#commitGroup = options.commitGroup;
    this.#onError = options.onError;
    this.#maxGroup = options.maxGroup ?? Infinity;
  }

  /** Queues a commit; resolves when the store has made it durable. */
  commit(change: StateChange): Promise<void> {
    return this.#enqueue<void>((done) => ({ kind: 'commit', change, done }));
  }

  /** Runs `fn` after everything queued before it. */
  run<T>(fn: () => Promise<T>): Promise<T> {
    return this.#enqueue<T>((done) => ({ kind: 'other', run: fn, done: done as Settle<unknown> }));
  }

  /** Resolves once everything queued so far has run. */
  async drained(): Promise<void> {
    await this.#draining;
  }

  #enqueue<T>(make: (done: Settle<T>) => Task): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.#queue.push(make({ resolve, reject }));
      this.#draining ??= this.#drain();
    });
  }

  async #drain(): Promise<void> {
    while (this.#queue.length > 0) {
      const head = this.#queue[0]!;
      if (head.kind === 'commit') {
        let n = 1;
        while (n < this.#queue.length && n < this.#maxGroup && this.#queue[n]!.kind === 'commit') n++;
        await this.#commitGroup(this.#queue.splice(0, n) as QueuedCommit[]);
        continue;
      }
      this.#queue.shift();
      try {
        head.done.resolve(await head.run());
      } catch (e) {
        this.#onError();
        head.done.reject(e);
      }
    }
    this.#draining = undefined;
  }
}
