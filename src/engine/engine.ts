// Engine: wires validation, refresh, planning, apply and the state store together and holds the
// providers and options. Two engines in one process never share anything.
import type { ResourceDecl } from './decl/resource-decl.js';
import type { Provider, AnyLookup } from './provider/define.js';
import type { OperationContext, OperationKind } from './provider/context.js';
import type { EventListener, Event } from './events.js';
import type { LookupCall } from './decl/helper.js';
import type { StateStore, Lock } from '../state/store.js';
import type { ResourceState, State } from '../state/model.js';
import { FileStateStore } from '../state/stores/file.js';
import { clearPendingMany, recordResource } from '../state/ops.js';
import { validateStack } from './validate/validate.js';
import { planSteps, type Resolved } from './plan/planner.js';
import { strip } from './plan/secrets.js';
import { ownSignal } from './apply/signal.js';
import { own } from '../state/keys.js';
import { Plan, planSaved, planWork } from './plan/plan.js';
import type { StepWork } from './plan/work.js';
import { findDrift, markDriftRepairs } from './plan/drift.js';
import { refreshOnlyWork } from './plan/refresh-only.js';
import { TARGETING_WARNING, targetsExcluding, unknownNames } from './plan/targets.js';
import { declarationsDigest, providerPrints } from './plan/saved.js';
import { workOf } from './plan/work-of.js';
import {
  forceUnlock,
  listState,
  moveState,
  removeState,
  showState,
  type StateEntry,
  type StateOpsContext,
} from './state-ops.js';
import { Ledger } from './apply/ledger.js';
import { applySteps, emitReport } from './apply/apply.js';
import { recoverPending } from './apply/recover.js';
import { CreateIntents } from './apply/intents.js';
import type { RetryPolicy } from './provider/retry-policy.js';
import { readAll, refreshFailure } from './refresh/read-all.js';
import { applyResult, publicOutputs, recordSecrets, type ApplyResult } from './apply/result.js';
import { redactPaths } from './values/redact.js';
import { ApplyError, ConvergeError, LookupError, StalePlanError, ValidationError } from './errors.js';
import { importDeclared, importedRecord } from './import.js';
import { checkedLookup } from './lookup.js';
import { recordRefresh } from './refresh/record.js';
import {
  checkedOptions,
  type EngineOptions,
  type PlanOptions,
  type ApplyOptions,
  type DestroyOptions,
  type RefreshResult,
  type ImportResult,
} from './engine-options.js';

export type {
  EngineOptions,
  PlanOptions,
  ApplyOptions,
  DestroyOptions,
  RefreshResult,
  ImportResult,
} from './engine-options.js';
import type { Issue } from './validate/issue.js';

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
 * console.log(plan.render());
 * await engine.apply(plan);
 * ```
 */
export class Engine {
  readonly #providers: readonly Provider<unknown>[];
  readonly #resources = new Map<string, Resolved>();
  readonly #lookups = new Map<string, { def: AnyLookup; provider: Provider<unknown> }>();
  readonly #store: StateStore;
  readonly #parallelism: number;
  readonly #retry: RetryPolicy;
  readonly #lockTimeoutMs: number;
  readonly #onEvent: EventListener | undefined;
  readonly #now: () => number;

  /** @throws TypeError when the options are malformed (no provider list, two providers of one name, a bad `parallelism` or `lockTimeout`). */
  constructor(options: EngineOptions) {
    const { parallelism, lockTimeoutMs, retry } = checkedOptions(options);
    for (const p of options.providers) {
      for (const [token, def] of p.resources) {
        if (this.#resources.has(token)) throw new TypeError(`Resource type ${token} is served by two providers`);
        this.#resources.set(token, { def, provider: p });
      }
      for (const [token, def] of p.lookups) this.#lookups.set(token, { def, provider: p });
    }
    this.#providers = options.providers;
    this.#store = options.state ?? new FileStateStore('.converge/state.json');
    this.#parallelism = parallelism;
    this.#retry = retry;
    this.#lockTimeoutMs = lockTimeoutMs;
    this.#onEvent = options.onEvent;
    this.#now = options.now ?? Date.now;
  }

  /** The state store this engine reads and writes. */
  get store(): StateStore {
    return this.#store;
  }

  /** The providers this engine was given. */
  get providers(): readonly Provider<unknown>[] {
    return this.#providers;
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
   *   console.log(plan.summary, plan.render());
   * } catch (e) {
   *   if (e instanceof ValidationError) for (const i of e.issues) console.error(i.resource, i.path, i.code);
   *   else throw e;
   * }
   * ```
   */
  async plan(decls: readonly ResourceDecl[], options: PlanOptions = {}): Promise<Plan> {
    return this.#plan(decls, options, false);
  }

  async #plan(decls: readonly ResourceDecl[], options: PlanOptions, destroy: boolean): Promise<Plan> {
    const resolve = (t: string) => this.#resources.get(t);
    // Everything that needs no remote data is checked before the lock, the state and any request.
    const { issues, graph, order, parsed } = validateStack(decls as unknown[], resolve, {
      tokens: this.#resources.keys(),
    });
    if (options.targets !== undefined && !Array.isArray(options.targets))
      issues.push({
        resource: '',
        field: 'plan',
        path: ['targets'],
        code: 'invalid_type',
        message: 'targets must be a list of resource names',
      });
    else
      (options.targets ?? []).forEach((t, i) => {
        if (typeof t !== 'string' || !t)
          issues.push({
            resource: '',
            field: 'plan',
            path: ['targets', i],
            code: 'invalid_type',
            message: 'targets must be resource names',
          });
      });
    const refreshOnly = options.mode === 'refresh-only';
    if (options.mode !== undefined && options.mode !== 'normal' && !refreshOnly)
      issues.push({
        resource: '',
        field: 'plan',
        path: ['mode'],
        code: 'invalid_value',
        message: "mode must be 'normal' or 'refresh-only'",
      });
    if (refreshOnly && options.refresh === false)
      issues.push({
        resource: '',
        field: 'plan',
        path: ['refresh'],
        code: 'invalid_value',
        message: 'a refresh-only plan must refresh',
      });
    if (issues.length) throw new ValidationError(issues);
    const refresh = refreshOnly || (options.refresh ?? true);
    let state = await this.#store.read();
    this.#checkNames(decls, state, options, destroy);
    const needsLock = refresh || Object.keys(state.pending).length > 0;
    const lock = needsLock ? await this.#lock(destroy ? 'destroy' : 'plan', options.signal) : undefined;
    const signal = ownSignal(options.signal);
    try {
      const warnings = [...(lock?.warnings ?? [])];
      if (lock) state = await this.#store.read();
      if (Object.keys(state.pending).length) {
        const ledger = new Ledger(state, this.#store);
        warnings.push(
          ...(await recoverPending(state, ledger, {
            resolve,
            context: (r, a, op) => this.#context(r.provider, a, '', op, signal.signal),
            now: () => new Date(this.#now()).toISOString(),
          })),
        );
        await this.#store.compact();
        state = await this.#store.read();
      }
      const targeting = !!(options.targets?.length || options.exclude?.length);
      const targets = options.exclude?.length
        ? targetsExcluding(options.exclude, options.targets, decls, state, graph, destroy)
        : options.targets;
      const refreshed = refresh
        ? await this.#readAll(
            state,
            signal.signal,
            targeting ? this.#refreshScope(state, decls, targets ?? []) : undefined,
          )
        : new Map<string, ResourceState | null>();
      const drift = findDrift(state, refreshed);
      const fields = {
        lineage: state.lineage,
        serial: state.serial,
        refresh,
        targets: options.targets,
        exclude: options.exclude,
        destroy,
        drift,
      };
      // The declarations' digest is needed only when the plan is saved or checked: computed on first use.
      let digest: string | undefined;
      const origin = {
        providers: providerPrints(this.#providers),
        get declarations() {
          return (digest ??= declarationsDigest(decls));
        },
      };
      if (targeting) warnings.push(TARGETING_WARNING);
      if (refreshOnly) {
        warnings.push(...(this.#store.takeWarnings?.() ?? []));
        return new Plan({
          ...fields,
          work: refreshOnlyWork(state, refreshed, resolve),
          warnings,
          mode: 'refresh-only',
          origin,
        });
      }
      if (targets !== undefined && targets.length === 0 && targeting)
        return new Plan({ ...fields, work: [], warnings, origin });
      const { work, warnings: planWarnings } = planSteps({
        decls,
        state,
        refreshed,
        resolve,
        targets,
        replace: options.replace,
        destroy,
        graph,
        order,
        parsed,
      });
      warnings.push(...planWarnings, ...(this.#store.takeWarnings?.() ?? []));
      const clear = this.#clearTextWarning(work);
      if (clear && !warnings.includes(clear)) warnings.push(clear);
      return new Plan({ ...fields, work: markDriftRepairs(work, drift), warnings, origin });
    } finally {
      signal.dispose();
      await lock?.release();
    }
  }

  /** Targets, excludes and replacements must name something: a typo is a ValidationError with a suggestion. */
  #checkNames(decls: readonly ResourceDecl[], state: State, options: PlanOptions, destroy: boolean): void {
    if (!options.targets?.length && !options.exclude?.length && !options.replace?.length) return;
    const everything = new Set([...decls.map((d) => d.name), ...Object.keys(state.resources)]);
    const issues = [
      ...unknownNames('targets', options.targets, everything, 'in the stack or the state'),
      ...unknownNames('exclude', options.exclude, everything, 'in the stack or the state'),
      ...(destroy ? [] : unknownNames('replace', options.replace, new Set(decls.map((d) => d.name)), 'in the stack')),
    ];
    if (issues.length) throw new ValidationError(issues);
  }

  #refreshScope(
    state: State,
    decls: readonly ResourceDecl[],
    targets: readonly string[] | undefined,
  ): Set<string> | undefined {
    if (!targets?.length) return undefined;
    const scope = new Set(targets);
    const byName = new Map(decls.map((d) => [d.name, d]));
    const stack = [...targets];
    while (stack.length) {
      const n = stack.pop()!;
      const d = byName.get(n);
      for (const dep of [...(d?.options?.dependsOn ?? []), ...(state.resources[n]?.dependencies ?? [])])
        if (!scope.has(dep)) {
          scope.add(dep);
          stack.push(dep);
        }
      for (const a of d?.options?.aliases ?? []) scope.add(a);
    }
    return scope;
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
   *   const result = await engine.apply(plan, { onEvent: (e) => console.log(e.type) });
   *   console.log(result.outputs.net);
   * } catch (e) {
   *   if (e instanceof ApplyError) for (const f of e.result.failed) console.error(f.address, f.error.message);
   *   else throw e;
   * }
   * ```
   */
  async apply(plan: Plan, options: ApplyOptions = {}): Promise<ApplyResult> {
    if (!(plan instanceof Plan) || !(plan[planWork] || plan[planSaved]))
      throw new TypeError('Expected `plan` to be a Plan returned by engine.plan() or Plan.load()');
    const work = workOf(plan, options.declarations, this.#providers, (t) => this.#resources.get(t));
    const started = this.#now();
    const lock = await this.#lock(plan.destroy ? 'destroy' : 'apply', options.signal);
    try {
      const state = await this.#store.read();
      // A state never written (serial 0) gets a new lineage on every read: a plan made against one in another process is not stale.
      const fresh = plan.serial === 0 && state.serial === 0;
      if ((state.lineage !== plan.lineage && !fresh) || state.serial !== plan.serial)
        throw new StalePlanError(plan.lineage, plan.serial, state.serial, state.lineage);
      const emit = this.#emitter(options.onEvent);
      // Before anything is written: secrets this apply would store in clear (no passphrase).
      const clear = this.#clearTextWarning(work);
      for (const message of new Set([
        ...lock.warnings,
        ...(this.#store.takeWarnings?.() ?? []),
        ...(clear ? [clear] : []),
      ]))
        emit({ type: 'warning', at: this.#now(), address: '', message });
      emit({ type: 'apply_start', at: this.#now(), steps: work.filter((w) => w.step.action !== 'noop').length });
      const ledger = new Ledger(state, this.#store);
      const listening = !!(this.#onEvent || options.onEvent);
      const intents = new CreateIntents(work, ledger, new Date(this.#now()).toISOString());
      const signal = ownSignal(options.signal);
      let outcome;
      try {
        outcome = await applySteps(work, {
          ledger,
          parallelism: this.#parallelism,
          retry: this.#retry,
          signal: signal.signal,
          stop: options.stopSignal,
          emit,
          listening,
          now: this.#now,
          intents,
        });
      } finally {
        signal.dispose();
        await intents.settle();
      }
      await this.#store.compact();
      const finalState = ledger.materialize();
      const elapsedMs = this.#now() - started;
      emit({
        type: 'apply_finish',
        at: this.#now(),
        succeeded: outcome.succeeded.length,
        failed: outcome.failed.length,
        skipped: outcome.skipped.length,
        elapsedMs,
      });
      // Secrets only as markers; result.secret(address, path) reads one on purpose.
      const result = applyResult(outcome, finalState, elapsedMs);
      Object.defineProperty(result, 'output', {
        enumerable: false,
        value: (d: string | ResourceDecl) => outputOf(result.outputs, typeof d === 'string' ? d : d?.name),
      });
      if (outcome.failed.length) throw new ApplyError(result);
      return result;
    } finally {
      await lock.release();
    }
  }

  /** The work a plan runs: its own, or a loaded plan's with the handlers of this engine's providers. */

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
   * for (const d of drifted) console.log(d.address, d.changes.map((c) => c.path));
   * console.log('deleted outside converge:', gone);
   * ```
   */
  async refresh(options: { readonly signal?: AbortSignal } = {}): Promise<RefreshResult> {
    const lock = await this.#lock('refresh', options.signal);
    try {
      const state = await this.#store.read();
      const signal = ownSignal(options.signal);
      const read = await this.#readAll(state, signal.signal).finally(() => signal.dispose());
      const result = await recordRefresh(state, read, this.#store, (type) => this.#resources.get(type)?.def.keyedLists);
      await this.#store.compact();
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
   * const { id, outputs } = await engine.import(legacy, 'legacy.example');
   * console.log(id, outputs);
   * ```
   */
  async import(decl: ResourceDecl, id: string): Promise<ImportResult> {
    const resolve = (t: string) => this.#resources.get(t);
    const issues: Issue[] = validateStack([decl], resolve).issues.filter(
      (i) => i.code !== 'missing_reference' && i.code !== 'missing_output',
    );
    if (typeof id !== 'string' || !id)
      issues.push({
        resource: decl?.name ?? '',
        path: ['id'],
        code: 'invalid_type',
        message: 'the import id must be a non-empty string',
      });
    if (issues.length) throw new ValidationError(issues);
    const resolved = resolve(decl.type)!;
    const { def, provider } = resolved;
    const lock = await this.#lock('import');
    try {
      const state = await this.#store.read();
      const { declared, secrets } = importDeclared(decl, def, state);
      const existing = own(state.resources, decl.name);
      if (existing)
        throw new ValidationError([
          {
            resource: decl.name,
            path: [],
            code: 'duplicate_name',
            message: `'${decl.name}' is already in the state (id ${existing.id}); remove it from the state or import under another name`,
          },
        ]);
      let realId = id;
      if (def.importId) {
        try {
          realId = def.importId(id, provider.config);
        } catch (error) {
          throw new ValidationError([
            { resource: decl.name, path: ['id'], code: 'invalid_value', message: (error as Error).message },
          ]);
        }
      }
      const read = await def.read(this.#context(provider, decl.name, decl.type, 'import'), realId, {
        inputs: declared,
        outputs: {},
      });
      if (!read) throw new LookupError(decl.type, 'not_found', [], `import id '${id}'`);
      const at = new Date(this.#now()).toISOString();
      const resource = importedRecord(
        decl,
        provider.name,
        read.id ?? realId,
        { ...declared, ...read.inputs },
        read.outputs,
        secrets,
        at,
      );
      const ledger = new Ledger(state, this.#store);
      // An unresolved create of this name is resolved by the import.
      const pendingCreate = Object.values(state.pending).find((p) => p.kind === 'create' && p.name === decl.name);
      await ledger.commit((s) => recordResource(s, resource, pendingCreate?.id));
      await this.#store.compact();
      return {
        address: decl.name,
        id: resource.id,
        inputs: redactPaths(resource.inputs, strip('inputs.', resource.secrets)) as Record<string, unknown>,
        outputs: publicOutputs({ resources: { [decl.name]: resource } } as unknown as State)[decl.name]!,
      };
    } finally {
      await lock.release();
    }
  }

  /**
   * Drops the pending record of an interrupted create of `name` that recovery could not check
   * (`find` could not tell): use it once you know no object was made, or after deleting it by hand.
   * Returns how many records were dropped. Nothing remote is touched.
   */
  async forgetPending(name: string): Promise<number> {
    if (typeof name !== 'string' || !name) throw new TypeError('Expected `name` to be a non-empty string');
    const lock = await this.#lock('forget-pending');
    try {
      const state = await this.#store.read();
      const ids = Object.values(state.pending)
        .filter((p) => p.kind === 'create' && p.name === name)
        .map((p) => p.id);
      if (ids.length) {
        const ledger = new Ledger(state, this.#store);
        await ledger.commit((s) => clearPendingMany(s, ids));
        await this.#store.compact();
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
   * console.log(result.succeeded.map((s) => s.address));
   * ```
   */
  async destroy(options: DestroyOptions = {}): Promise<ApplyResult> {
    const plan = await this.#plan(
      [],
      { refresh: options.refresh ?? false, targets: options.targets, signal: options.signal },
      true,
    );
    return this.apply(plan, options);
  }

  /** Plans the deletion of everything, without applying it. */
  async planDestroy(options: PlanOptions = {}): Promise<Plan> {
    return this.#plan([], options, true);
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
   * try {
   *   const net = await engine.lookup(provb.getNetwork({ label: 'default' }));
   *   console.log(net);
   * } catch (e) {
   *   if (e instanceof LookupError) console.error(e.reason, e.matches);
   *   else throw e;
   * }
   * ```
   */
  async lookup<R = unknown>(
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- any helper's call, whatever its argument type
    call: string | LookupCall<any, R>,
    args?: Record<string, unknown>,
    options: { readonly signal?: AbortSignal } = {},
  ): Promise<R> {
    const { token, found, data } = checkedLookup(this.#lookups, call, args);
    const emit = this.#emitter(undefined);
    for (const w of found.def.warnings?.(data, found.provider.config) ?? [])
      emit({ type: 'warning', at: this.#now(), address: token, message: w });
    return (await found.def.run(this.#context(found.provider, token, token, 'lookup', options.signal), data)) as R;
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

  /** Releases a lock whose holder is known to be gone (`converge force-unlock`). */
  async forceUnlock(lockId: string): Promise<void> {
    return forceUnlock(this.#stateOps(), lockId);
  }

  #stateOps(onEvent?: EventListener): StateOpsContext {
    return { store: this.#store, lock: (op) => this.#lock(op), emit: this.#emitter(onEvent), now: this.#now };
  }

  /** The current state (read from the store). */
  async state(): Promise<State> {
    return this.#store.read();
  }

  /** The store's clear-text warning when the work records any secret and the store does not encrypt. */
  #clearTextWarning(work: readonly StepWork[]): string | undefined {
    const records = work.some((w) => w.secrets.length > 0 && w.step.action !== 'delete' && w.step.action !== 'forget');
    return records ? this.#store.secretsWarning?.() : undefined;
  }

  async #lock(operation: string, signal?: AbortSignal): Promise<Lock> {
    return this.#store.lock({ operation, timeoutMs: this.#lockTimeoutMs, signal });
  }

  #emitter(extra: EventListener | undefined): (e: Event) => void {
    const a = this.#onEvent;
    if (a && extra)
      return (e) => {
        a(e);
        extra(e);
      };
    return a ?? extra ?? (() => {});
  }

  #context(
    provider: Provider<unknown>,
    address: string,
    token: string,
    operation: OperationKind,
    signal: AbortSignal = new AbortController().signal,
    secrets?: readonly string[],
  ): OperationContext {
    const started = this.#now();
    const emit = this.#emitter(undefined);
    return {
      config: provider.config,
      provider: provider.name,
      address,
      token,
      operation,
      signal,
      ...(secrets?.length ? { secrets } : {}),
      retry: this.#retry,
      report: (r) => emitReport({ emit, now: this.#now }, address, operation, started, r),
    };
  }

  /** Reads resources concurrently; returns name → refreshed record (same object when nothing changed) or null when gone. */
  async #readAll(state: State, signal: AbortSignal, scope?: Set<string>): Promise<Map<string, ResourceState | null>> {
    const { out, failures } = await readAll({
      state,
      names: Object.keys(state.resources).filter((n) => !scope || scope.has(n)),
      resolve: (t) => this.#resources.get(t),
      parallelism: this.#parallelism,
      context: (r, address, token, prior) =>
        this.#context(r.provider, address, token, 'read', signal, prior ? recordSecrets(prior) : undefined),
      emit: this.#emitter(undefined),
      now: this.#now,
    });
    if (failures.length) throw refreshFailure(failures);
    return out;
  }
}

function outputOf(outputs: ApplyResult['outputs'], name: string | undefined): Record<string, unknown> {
  const o = name === undefined ? undefined : own(outputs, name);
  if (!o)
    throw new ConvergeError(`'${String(name)}' is not in the state after this apply, so it has no outputs.`, {
      code: 'CONVERGE_NOT_IN_STATE',
    });
  return o as Record<string, unknown>;
}
