// The options the Engine takes and the results of its operations other than plan and apply: what a
// caller writes and reads, apart from the class that carries the work out.
import type { Provider } from './provider/define.js';
import type { ResourceDecl } from './decl/resource-decl.js';
import type { EventListener } from './events.js';
import type { StateStore } from '../state/store.js';
import type { PolicyUse } from './plan/policy.js';
import { defaultRetryPolicy, type RetryPolicy } from './provider/retry-policy.js';
import { parseDuration } from './values/duration.js';

/** What `new Engine()` takes: the providers, the state store and how the engine runs. */
export type EngineOptions = {
  /**
   * The provider instances whose resources and lookups the stack uses (`provb({...})`, your own
   * `defineProvider`): one default instance per provider and any number of named ones
   * (`provb({ name: 'ops', ... })`), each name once.
   */
  readonly providers: readonly Provider<any>[]; // eslint-disable-line @typescript-eslint/no-explicit-any
  /** Where the state lives; default FileStateStore('.converge/state.json'). */
  readonly state?: StateStore;
  /** How many steps run at once; default 10. */
  readonly parallelism?: number;
  /** How transient provider failures (429, 5xx, resets) are retried; unset fields keep their defaults. */
  readonly retry?: Partial<RetryPolicy>;
  /** How long to wait for a held state lock: ms or '30s'; default 0 (fail at once). */
  readonly lockTimeout?: number | string;
  /** Receives every event of every operation of this engine. */
  readonly onEvent?: EventListener;
  /** The clock, for tests. */
  readonly now?: () => number;
  /**
   * Policies checked on every plan this engine makes and on every plan it applies, each at the
   * level given here: `[{ policy: sshOpenToWorld, level: 'mandatory' }]`. A mandatory violation
   * makes apply refuse with PolicyViolationError.
   */
  readonly policies?: readonly PolicyUse[];
};

/** Options of {@link Engine.plan} and {@link Engine.planDestroy}. */
export type PlanOptions = {
  /** Read every resource from its provider first, so the plan sees drift and objects deleted outside converge; default true. */
  readonly refresh?: boolean;
  /** Plan only these resources and what they depend on (a warning says the plan may be incomplete). */
  readonly targets?: readonly string[];
  /** Leave these resources and what depends on them out (OpenTofu's -exclude). */
  readonly exclude?: readonly string[];
  /** Resources to replace although nothing forces it (Terraform's -replace). */
  readonly replace?: readonly string[];
  /** 'refresh-only': show what changed outside converge; its apply records it and changes no object. */
  readonly mode?: 'normal' | 'refresh-only';
  /** Aborts the plan's reads (and the wait for the state lock). */
  readonly signal?: AbortSignal;
  /**
   * The stack's outputs, by name: values that may hold references (`web.out('publicIp')`),
   * `secret()` values and other stacks' outputs (`stackRef`). Shown in the plan ("Changes to
   * Outputs"), recorded by apply with the state (secret ones sealed), read by other stacks with
   * `stackOutputs()` / `stackRef()`. Recorded outputs no longer declared are removed.
   */
  readonly outputs?: Readonly<Record<string, unknown>>;
  /** Policies for this plan, in addition to the engine's (a use of the same policy name here replaces the engine's). */
  readonly policies?: readonly PolicyUse[];
};

/** Options of {@link Engine.apply} and {@link Engine.destroy}. */
export type ApplyOptions = {
  /** Receives this apply's events, in addition to the engine's `onEvent`. */
  readonly onEvent?: EventListener;
  /** Aborts steps in flight (their objects are then found by the next plan's recovery). */
  readonly signal?: AbortSignal;
  /** Graceful stop: when it fires no further step starts; steps in flight finish and are recorded; the rest are skipped. */
  readonly stopSignal?: AbortSignal;
  /** For a loaded plan: the declarations it must have been made from (PlanFileError 'declarations_mismatch' otherwise). */
  readonly declarations?: readonly ResourceDecl[];
};
/** Options of {@link Engine.destroy}: those of apply, plus what the destroy plan reads and covers. */
export type DestroyOptions = ApplyOptions & {
  /** Read every resource first, so objects already gone are forgotten rather than deleted; default false. */
  readonly refresh?: boolean;
  /** Destroy only these resources and what depends on them. */
  readonly targets?: readonly string[];
};

/** What {@link Engine.refresh} found, by resource address. Secret values in `changes` are redacted. */
export type RefreshResult = {
  /** Resources whose inputs changed outside converge, with the changed paths; the state now records what was read. */
  readonly drifted: readonly {
    /** The resource's address. */
    readonly address: string;
    /** The inputs that differ. */
    readonly changes: readonly {
      /** The input path, e.g. `rules[0].cidrs[1]`. */
      readonly path: string;
      /** The value that was recorded. */
      readonly before: unknown;
      /** The value found. */
      readonly after: unknown;
    }[];
  }[];
  /** Resources that no longer exist; they were forgotten. */
  readonly gone: readonly string[];
  /** Resources that match the state. */
  readonly unchanged: readonly string[];
};

/** What {@link Engine.import} adopted: the record now in the state, secrets redacted. */
export type ImportResult = {
  /** The declaration's name, now the record's address. */
  readonly address: string;
  /** The provider's id of the adopted object. */
  readonly id: string;
  /** The inputs read from the object. */
  readonly inputs: Readonly<Record<string, unknown>>;
  /** The outputs read from the object. */
  readonly outputs: Readonly<Record<string, unknown>>;
};

/** The engine's options checked (wrong use of the API is a TypeError, never retried), with defaults. */
export function checkedOptions(options: EngineOptions): {
  parallelism: number;
  lockTimeoutMs: number;
  retry: RetryPolicy;
} {
  if (!options || !Array.isArray(options.providers))
    throw new TypeError('Expected `providers` to be an array of providers');
  const parallelism = options.parallelism ?? 10;
  if (!Number.isInteger(parallelism) || parallelism < 1)
    throw new TypeError('Expected `parallelism` to be an integer from 1 and up');
  const names = new Set<string>();
  for (const p of options.providers) {
    const key = p.instanceName === undefined ? p.name : `${p.name}\u0000${p.instanceName}`;
    if (names.has(key))
      throw new TypeError(
        p.instanceName === undefined
          ? `Expected one default instance of each provider; '${p.name}' is given twice without a name: name the others (${p.name}({ name: 'ops', ... })) and choose them with options.provider`
          : `Expected each provider instance's name once; ${p.name} instance '${p.instanceName}' is given twice`,
      );
    names.add(key);
  }
  const lockTimeoutMs =
    typeof options.lockTimeout === 'string' ? parseDuration(options.lockTimeout) : (options.lockTimeout ?? 0);
  if (lockTimeoutMs === undefined || lockTimeoutMs < 0)
    throw new TypeError("Expected `lockTimeout` to be a number of ms or a duration like '30s'");
  return { parallelism, lockTimeoutMs, retry: validRetry({ ...defaultRetryPolicy, ...options.retry }) };
}

/** The retry policy, checked like `parallelism`. */
function validRetry(policy: RetryPolicy): RetryPolicy {
  const whole = (v: unknown, min: number) => typeof v === 'number' && Number.isInteger(v) && v >= min;
  if (!whole(policy.retries, 0)) throw new TypeError('Expected `retry.retries` to be an integer from 0 and up');
  if (!whole(policy.minTimeoutMs, 0))
    throw new TypeError('Expected `retry.minTimeoutMs` to be an integer from 0 and up');
  if (!whole(policy.maxTimeoutMs, policy.minTimeoutMs))
    throw new TypeError('Expected `retry.maxTimeoutMs` to be an integer no smaller than `retry.minTimeoutMs`');
  if (policy.maxRetryAfterMs !== undefined && !whole(policy.maxRetryAfterMs, 0))
    throw new TypeError('Expected `retry.maxRetryAfterMs` to be an integer from 0 and up');
  return Object.freeze({ ...policy });
}
