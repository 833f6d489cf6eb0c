// Engine: wires validation, refresh, planning, apply and the state store together and holds the
// providers and options. Two engines in one process never share anything.
import type { ResourceDecl } from './decl/resource-decl.js';
import type { Provider } from './provider/define.js';
import type { LookupCall } from './decl/helper.js';
import type { ForceUnlockOptions, StateStore } from '../state/store.js';
import type { ResourceState, State } from '../state/model.js';
import { clearPendingMany } from '../state/ops.js';
import { ownSignal } from './run/signal.js';
import type { Plan } from './plan/plan.js';
import { runPlan } from './ops/plan.js';
import { runApply } from './ops/apply.js';
import { runImport } from './ops/import.js';
import { createCore, type EngineCore } from './ops/core.js';
import {
  forceUnlock,
  listState,
  moveState,
  removeState,
  showState,
  type StateEntry,
  type StateOpsContext,
} from './state-ops.js';
import { Ledger } from './run/ledger.js';
import type { ApplyResult } from './apply-result.js';
import { checkedLookup } from './lookup.js';
import { recordRefresh } from './refresh/record.js';
import type { EventListener } from './events.js';
import type {
  EngineOptions,
  PlanOptions,
  ApplyOptions,
  DestroyOptions,
  RefreshResult,
  ImportResult,
} from './engine-options.js';

export type {
  EngineOptions,
  PlanOptions,
  ApplyOptions,
  DestroyOptions,
  RefreshResult,
  ImportResult,
} from './engine-options.js';

/**
 * The engine: validates declarations, plans them against the state, applies plans, refreshes,
 * imports and destroys, with the given providers and state store. Engines share nothing, so a
 * process may hold several (one per stack).
 *
 * @example
 * ```ts
 * import { Engine, FileStateStore } from 'converge';
 * import { provb } from 'converge/providers/b';
 *
 * const engine = new Engine({
 *   providers: [provb({ token: 'your-civo-api-key', region: 'LON1' })],
 *   state: new FileStateStore('.converge/state.json'), // the default
 *   parallelism: 10,
 * });
 * const net = provb.network('net', { label: 'demo' });
 * const plan = await engine.plan([net]);
 * const forReview = plan.render(); // what a reviewer reads
 * await engine.apply(plan);
 * ```
 */
export class Engine {
  readonly #core: EngineCore;

  /** @throws TypeError when the options are malformed (no provider list, two providers of one name, a bad `parallelism` or `lockTimeout`). */
  constructor(options: EngineOptions) {
    this.#core = createCore(options);
  }

  /** The state store this engine reads and writes. */
  get store(): StateStore {
    return this.#core.store;
  }

  /** The providers this engine was given. */
  get providers(): readonly Provider<unknown>[] {
    return this.#core.providers;
  }

  /**
   * Diffs the declarations against the (refreshed) state and returns the plan. Changes nothing
   * remote; may resolve pending operations an interrupted apply left. Every invalid input is
   * reported at once, before any request, as a {@link ValidationError}; a plan that would delete
   * or replace a protected resource throws {@link ProtectedResourceError}.
   *
   * @example
   * ```ts
   * import { Engine, ValidationError } from 'converge';
   * import { provb } from 'converge/providers/b';
   *
   * const engine = new Engine({ providers: [provb({ token: 'your-civo-api-key', region: 'LON1' })] });
   * const net = provb.network('net', { label: 'demo' });
   * try {
   *   const plan = await engine.plan([net], { targets: ['net'] });
   *   const { summary } = plan; // { create: 1, ... }
   * } catch (e) {
   *   if (e instanceof ValidationError) throw new Error(e.issues.map((i) => `${i.resource}: ${i.code}`).join('\n'));
   *   else throw e;
   * }
   * ```
   */
  async plan(decls: readonly ResourceDecl[], options: PlanOptions = {}): Promise<Plan> {
    return runPlan(this.#core, decls, options, false);
  }

  /**
   * Carries out a plan's steps, independent ones concurrently, and records each in the state as
   * it completes. Throws {@link StalePlanError} (and changes nothing) if the state moved on since the
   * plan, and {@link ApplyError} if any step failed (what succeeded is recorded; dependents of a
   * failed step are skipped).
   *
   * @example
   * ```ts
   * import { ApplyError, Engine } from 'converge';
   * import { provb } from 'converge/providers/b';
   *
   * const engine = new Engine({ providers: [provb({ token: 'your-civo-api-key', region: 'LON1' })] });
   * const plan = await engine.plan([provb.network('net', { label: 'demo' })]);
   * try {
   *   const seen: string[] = [];
   *   const result = await engine.apply(plan, { onEvent: (e) => seen.push(e.type) });
   *   const net = result.outputs.net;
   * } catch (e) {
   *   if (e instanceof ApplyError) throw new Error(e.result.failed.map((f) => `${f.address}: ${f.error.message}`).join('\n'));
   *   else throw e;
   * }
   * ```
   */
  async apply(plan: Plan, options: ApplyOptions = {}): Promise<ApplyResult> {
    return runApply(this.#core, plan, options);
  }

  /**
   * Reads every resource; records new outputs and inputs, and forgets what is gone. Changes no
   * remote object.
   *
   * @example
   * ```ts
   * import { Engine } from 'converge';
   * import { provb } from 'converge/providers/b';
   *
   * const engine = new Engine({ providers: [provb({ token: 'your-civo-api-key', region: 'LON1' })] });
   * const { drifted, gone } = await engine.refresh();
   * // What drifted, and what was deleted outside converge, for a report of your own:
   * export const driftReport = { drifted: drifted.map((d) => [d.address, d.changes.map((c) => c.path)]), gone };
   * ```
   */
  async refresh(options: { readonly signal?: AbortSignal } = {}): Promise<RefreshResult> {
    const lock = await this.#core.lock('refresh', options.signal);
    try {
      const state = await this.#core.store.read();
      const signal = ownSignal(options.signal);
      const read = await this.#core.readAll(state, signal.signal).finally(() => signal.dispose());
      const result = await recordRefresh(
        state,
        read,
        this.#core.store,
        (type) => this.#core.resources.get(type)?.def.keyedLists,
      );
      await this.#core.store.compact();
      return result;
    } finally {
      await lock.release();
    }
  }

  /**
   * Adopts an existing object into the state under the declaration's name, reading it by `id`
   * (the import id format each resource documents). Throws {@link ValidationError} for an invalid
   * declaration or id.
   *
   * @example
   * ```ts
   * import { Engine } from 'converge';
   * import { provb } from 'converge/providers/b';
   *
   * const engine = new Engine({ providers: [provb({ token: 'your-civo-api-key', region: 'LON1' })] });
   * const legacy = provb.dnsDomainName('legacy', { name: 'legacy.example' });
   * export const { id, outputs } = await engine.import(legacy, 'legacy.example');
   * ```
   */
  async import(decl: ResourceDecl, id: string): Promise<ImportResult> {
    return runImport(this.#core, decl, id);
  }

  /**
   * Drops the pending record of an interrupted create of `name` that recovery could not check
   * (`find` could not tell): use it once you know no object was made, or after deleting it by hand.
   * Returns how many records were dropped. Nothing remote is touched.
   */
  async forgetPending(name: string): Promise<number> {
    if (typeof name !== 'string' || !name) throw new TypeError('Expected `name` to be a non-empty string');
    const lock = await this.#core.lock('forget-pending');
    try {
      const state = await this.#core.store.read();
      const ids = Object.values(state.pending)
        .filter((p) => p.kind === 'create' && p.name === name)
        .map((p) => p.id);
      if (ids.length) {
        const ledger = new Ledger(state, this.#core.store);
        await ledger.commit((s) => clearPendingMany(s, ids));
        await this.#core.store.compact();
      }
      return ids.length;
    } finally {
      await lock.release();
    }
  }

  /**
   * Plans and applies the deletion of everything in the state (honouring `protect` and
   * `retainOnDelete`), dependents first. Throws like {@link Engine.apply}.
   *
   * @example
   * ```ts
   * import { Engine, MemoryStateStore } from 'converge';
   * import { provb } from 'converge/providers/b';
   *
   * const engine = new Engine({ providers: [provb({ token: 'your-civo-api-key', region: 'LON1' })], state: new MemoryStateStore() });
   * const result = await engine.destroy({ refresh: true });
   * export const destroyed = result.succeeded.map((s) => s.address);
   * ```
   */
  async destroy(options: DestroyOptions = {}): Promise<ApplyResult> {
    const plan = await runPlan(
      this.#core,
      [],
      { refresh: options.refresh ?? false, targets: options.targets, signal: options.signal },
      true,
    );
    return this.apply(plan, options);
  }

  /** Plans the deletion of everything, without applying it: a plan whose mode is 'destroy' (so it takes no `mode`). */
  async planDestroy(options: Omit<PlanOptions, 'mode'> = {}): Promise<Plan> {
    return runPlan(this.#core, [], options, true);
  }

  /**
   * Runs a provider lookup (a data source): validates the arguments, then asks the provider. Takes
   * a typed call from a provider's helper (`provb.getNetwork({...})`) or a token and arguments.
   * Throws {@link ValidationError} for unknown tokens or invalid arguments and {@link LookupError}
   * when no object, or more than one, matches.
   *
   * @example
   * ```ts
   * import { Engine, LookupError } from 'converge';
   * import { provb } from 'converge/providers/b';
   *
   * const engine = new Engine({ providers: [provb({ token: 'your-civo-api-key', region: 'LON1' })] });
   * export const net = await engine.lookup(provb.getNetwork({ label: 'default' })).catch((e: unknown) => {
   *   // none or several matched: the reason and the candidates, to show or decide on
   *   if (e instanceof LookupError) return { notFound: e.reason, candidates: e.matches };
   *   throw e;
   * });
   * ```
   */
  async lookup<R = unknown>(
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- any helper's call, whatever its argument type
    call: string | LookupCall<any, R>,
    args?: Record<string, unknown>,
    options: { readonly signal?: AbortSignal } = {},
  ): Promise<R> {
    const { token, found, data } = checkedLookup(this.#core.lookups, call, args, this.#core.lookupInstances);
    const emit = this.#core.emitter(undefined);
    for (const w of found.def.warnings?.(data, found.provider.config) ?? [])
      emit({ type: 'warning', at: this.#core.now(), address: token, message: w });
    return (await found.def.run(this.#core.context(found.provider, token, token, 'lookup', options.signal), data)) as R;
  }

  /** Every record in the state (`converge state list`). */
  async stateList(): Promise<StateEntry[]> {
    return listState(this.#stateOps());
  }

  /** One record, secrets redacted (`converge state show`). */
  async stateShow(address: string): Promise<ResourceState> {
    return showState(this.#stateOps(), address);
  }

  /** Forgets records without deleting their objects, under the lock, journaled (`converge state rm`). */
  async stateRm(addresses: string | readonly string[]): Promise<string[]> {
    return removeState(this.#stateOps(), typeof addresses === 'string' ? [addresses] : addresses);
  }

  /** Renames a record, under the lock, journaled; the object is untouched (`converge state mv`). */
  async stateMv(from: string, to: string): Promise<void> {
    return moveState(this.#stateOps(), from, to);
  }

  /**
   * Releases a lock whose holder is gone (`converge force-unlock`). A holder still alive — or one the
   * store cannot check (a lock file of another host) — is released only with `{ force: true }`;
   * else a `LockHolderAliveError` says who holds it and how that was checked.
   */
  async forceUnlock(lockId: string, options?: ForceUnlockOptions): Promise<void> {
    return forceUnlock(this.#stateOps(), lockId, options);
  }

  #stateOps(onEvent?: EventListener): StateOpsContext {
    return {
      store: this.#core.store,
      lock: (op) => this.#core.lock(op),
      emit: this.#core.emitter(onEvent),
      now: this.#core.now,
    };
  }

  /** The current state (read from the store). */
  async state(): Promise<State> {
    return this.#core.store.read();
  }
}
