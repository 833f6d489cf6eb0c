// What every operation of an engine shares: its providers' handlers by token, the state store, the
// options, and the few services built on them (the lock, the event emitter, a provider call's
// context, the refresh of every resource). Engine builds one; plan, apply and import run on it.
import type { Provider, AnyLookup, AnyResource } from '../provider/define.js';
import { lookupResource } from '../provider/lookup-resource.js';
import type { OperationContext, OperationKind } from '../provider/context.js';
import type { EventListener, Event } from '../events.js';
import type { StateStore, Lock } from '../../state/store.js';
import type { ResourceState, State } from '../../state/model.js';
import type { Resolved } from '../provider/define.js';
import type { StepWork } from '../plan/work.js';
import type { RetryPolicy } from '../provider/retry-policy.js';
import { FileStateStore } from '../../state/stores/file.js';
import { emitReport } from '../apply/apply.js';
import { readAll, refreshFailure } from '../refresh/read-all.js';
import { recordSecrets } from '../apply/result.js';
import { checkedOptions, type EngineOptions } from '../engine-options.js';
import { lockWaitReporter } from '../run/lock-wait.js';
import { secretsWritten } from './clear-text.js';
import { checkedPolicies, type PolicyUse } from '../plan/policy.js';

export type EngineCore = {
  readonly providers: readonly Provider<unknown>[];
  /** Each resource type's handler, by token (through the default instance, else the first named one). */
  readonly resources: ReadonlyMap<string, Resolved>;
  /** Each lookup by token, through its default instance, else the first named one. */
  readonly lookups: ReadonlyMap<string, { def: AnyLookup; provider: Provider<unknown> }>;
  /** The instances serving a lookup, by instance name (undefined: the default instance). */
  readonly lookupInstances: (token: string) => ReadonlyMap<string | undefined, Provider<unknown>>;
  /** Whether a token names a lookup, which a declaration may use as a node of the graph. */
  readonly isLookup: (token: string) => boolean;
  /** The instances serving a resource type, by instance name (undefined: the default instance). */
  readonly instancesOf: (token: string) => ReadonlyMap<string | undefined, Resolved>;
  readonly store: StateStore;
  readonly parallelism: number;
  readonly retry: RetryPolicy;
  /** True when the engine was given an event listener. */
  readonly listening: boolean;
  readonly now: () => number;
  /** The handler of a type through one provider instance (undefined: the default one). */
  readonly resolve: (token: string, instance?: string) => Resolved | undefined;
  /** Takes the state lock; each wait for a held one is a `wait` event (to the engine's listener and `extra`). */
  readonly lock: (operation: string, signal?: AbortSignal, extra?: EventListener) => Promise<Lock>;
  /** The engine's listener, and `extra` after it. */
  readonly emitter: (extra: EventListener | undefined) => (e: Event) => void;
  /** The context of one provider call. */
  readonly context: (
    provider: Provider<unknown>,
    address: string,
    token: string,
    operation: OperationKind,
    signal?: AbortSignal,
    secrets?: readonly string[],
  ) => OperationContext;
  /** Reads the resources of `state` (those in `scope`, else all); throws when a read fails. */
  readonly readAll: (
    state: State,
    signal: AbortSignal,
    scope?: Set<string>,
  ) => Promise<Map<string, ResourceState | null>>;
  /** The store's warning that secrets would be written in clear, naming each one `work` records. */
  readonly clearTextWarning: (work: readonly StepWork[]) => string | undefined;
  /** The engine's policies, each at the level it is used at. */
  readonly policies: readonly PolicyUse[];
};

/** @throws TypeError when the options are malformed (see Engine's constructor). */
export function createCore(options: EngineOptions): EngineCore {
  const { parallelism, lockTimeoutMs, retry } = checkedOptions(options);
  const policies = checkedPolicies(options.policies);
  const resources = new Map<string, Resolved>();
  const lookups = new Map<string, { def: AnyLookup; provider: Provider<unknown> }>();
  // Instances of one provider serve the same types; two providers may not serve one type.
  const byInstance = new Map<string, Map<string | undefined, Resolved>>();
  const adapters = new Map<AnyLookup, AnyResource>();
  const lookupsByInstance = new Map<string, Map<string | undefined, Provider<unknown>>>();
  for (const p of options.providers) {
    for (const [token, def] of p.resources) {
      const served = byInstance.get(token) ?? new Map<string | undefined, Resolved>();
      const other = resources.get(token)?.provider;
      if (other && other.name !== p.name) throw new TypeError(`Resource type ${token} is served by two providers`);
      served.set(p.instanceName, { def, provider: p });
      byInstance.set(token, served);
      if (!other || p.instanceName === undefined) resources.set(token, { def, provider: p });
    }
    for (const [token, def] of p.lookups) {
      const served = lookupsByInstance.get(token) ?? new Map<string | undefined, Provider<unknown>>();
      served.set(p.instanceName, p);
      lookupsByInstance.set(token, served);
      if (!lookups.has(token) || p.instanceName === undefined) lookups.set(token, { def, provider: p });
      // A lookup declared in the stack is a node of the graph, served as a resource type of its own.
      const adapter = adapters.get(def) ?? lookupResource(def);
      adapters.set(def, adapter);
      const nodes = byInstance.get(token) ?? new Map<string | undefined, Resolved>();
      nodes.set(p.instanceName, { def: adapter, provider: p });
      byInstance.set(token, nodes);
      if (!resources.has(token) || p.instanceName === undefined) resources.set(token, { def: adapter, provider: p });
    }
  }
  const none = new Map();
  /** Whether a token names a lookup (declared in the stack, it is read, never made). */
  const isLookup = (token: string) => lookupsByInstance.has(token);
  const store = options.state ?? new FileStateStore('.converge/state.json');
  const onEvent = options.onEvent;
  const now = options.now ?? Date.now;
  const emitter = (extra: EventListener | undefined): ((e: Event) => void) => {
    if (onEvent && extra)
      return (e) => {
        onEvent(e);
        extra(e);
      };
    return onEvent ?? extra ?? (() => {});
  };
  const context: EngineCore['context'] = (
    provider,
    address,
    token,
    operation,
    signal = new AbortController().signal,
    secrets,
  ) => {
    const started = now();
    const emit = emitter(undefined);
    return {
      config: provider.config,
      provider: provider.name,
      address,
      token,
      operation,
      signal,
      ...(secrets?.length ? { secrets } : {}),
      retry,
      report: (r) => emitReport({ emit, now }, address, operation, started, r),
    };
  };
  return {
    providers: options.providers,
    resources,
    lookups,
    lookupInstances: (token) => lookupsByInstance.get(token) ?? none,
    isLookup,
    instancesOf: (token) => byInstance.get(token) ?? none,
    store,
    parallelism,
    retry,
    listening: !!onEvent,
    now,
    resolve: (token, instance) => byInstance.get(token)?.get(instance),
    lock: (operation, signal, extra) =>
      store.lock({
        operation,
        timeoutMs: lockTimeoutMs,
        signal,
        onWait: lockWaitReporter(emitter(extra), now, operation),
      }),
    emitter,
    context,
    readAll: async (state, signal, scope) => {
      const { out, failures } = await readAll({
        state,
        names: Object.keys(state.resources).filter((n) => !scope || scope.has(n)),
        resolve: (t, instance) => byInstance.get(t)?.get(instance),
        parallelism,
        context: (r, address, token, prior) =>
          context(r.provider, address, token, 'read', signal, prior ? recordSecrets(prior) : undefined),
        emit: emitter(undefined),
        now,
      });
      if (failures.length) throw refreshFailure(failures);
      return out;
    },
    clearTextWarning: (work) => {
      // A store that never warns (memory) needs no list of what the plan writes.
      if (!store.secretsWarning) return undefined;
      const written = secretsWritten(work);
      return written.length ? store.secretsWarning(written) : undefined;
    },
    policies,
  };
}
