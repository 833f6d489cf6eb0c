// What every node of a step shares: the apply's context, the step's work, the values it records and
// the one way a provider operation runs (under the step's time limit, never retried here: wire
// retries are the HTTP kit's, see STYLE.md 7b).
import { declOf, objectOf, type DeclaredWork, type ReplacementWork, type StepWork } from '../../plan/work.js';
import type { ResourceState } from '../../../state/model.js';
import type { Ledger } from '../../run/ledger.js';
import type { PendingIntents } from '../intents.js';
import type { RetryPolicy } from '../../provider/retry-policy.js';
import type { Event } from '../../events.js';
import type { OperationContext, OperationKind, Report } from '../../provider/context.js';
import type { AnyResource, Provider } from '../../provider/define.js';
import { instanceFields } from '../../provider/instance.js';
import { raceSignal, stepSignal } from '../../run/timeout.js';
import { parseDuration } from '../../values/duration.js';
import { storedOptions } from '../../plan/options.js';
import { recordSource, resolveDeclared } from '../../decl/resolve.js';
import { redactPaths, redactText, secretStrings } from '../../values/redact.js';
import { applyIgnoreChanges } from '../../diff/ignore.js';
import { containsUnknown } from '../../values/unknown.js';
import { mapPath, parsePath, type PathSegment } from '../../values/path.js';
import { parsedWithKnown } from '../../validate/schema.js';
import { perFrozenList } from '../../values/frozen.js';
import { PolicyViolationError, TimeoutError, UnresolvedInputsError } from '../../errors.js';
import type { PendingPolicies } from '../../plan/policy-check.js';
import { abortReason } from '../../abort.js';

export type ApplyContext = {
  readonly ledger: Ledger;
  readonly parallelism: number;
  readonly retry: RetryPolicy;
  /** The engine's own signal for this apply (one listener on the caller's; see signal.ts). */
  readonly signal: AbortSignal;
  /** Graceful stop: when it fires no further step starts; steps in flight finish. */
  readonly stop?: AbortSignal;
  readonly emit: (event: Event) => void;
  /** False when nobody listens: step events are then not even built. */
  readonly listening: boolean;
  readonly now: () => number;
  /** Pending records written ahead for creates. */
  readonly intents?: PendingIntents;
  /** Rejects with the signal's reason when it fires: raced against operations without a limit of their own. */
  readonly aborted?: Promise<never>;
  /** Policy checks the plan left pending, each run again before its step's provider call. */
  readonly policies?: PendingPolicies;
};

/** One promise per apply that rejects when `signal` fires (one listener, however many operations race it). */
export function abortedPromise(signal: AbortSignal): Promise<never> {
  const p = new Promise<never>((_resolve, reject) => {
    if (signal.aborted) reject(abortReason(signal));
    else signal.addEventListener('abort', () => reject(abortReason(signal)), { once: true });
  });
  p.catch(() => {});
  return p;
}

/** The longest a timer can wait (2^31 - 1 ms, about 24.8 days); longer limits are capped to it. */
export const MAX_TIMER_MS = 2_147_483_647;

/** The last time stamped and its text: the steps of one apply mostly start within the same millisecond. */
let lastStamp: { readonly ms: number; readonly iso: string } | undefined;

/** `new Date(ms).toISOString()`, reusing the last text when the millisecond is the same. */
function isoStamp(ms: number): string {
  if (lastStamp?.ms !== ms) lastStamp = { ms, iso: new Date(ms).toISOString() };
  return lastStamp.iso;
}

/** A mapPath visitor that adds the secret strings of each value it reaches to `into` and leaves the value as it is. */
function collecting(into: Set<string>): (v: unknown) => unknown {
  return (v) => {
    secretStrings(v, into);
    return v;
  };
}

/** A secret path ('inputs.x.y') as its root and the rest of its segments. */
type SplitPath = { readonly root: PathSegment | undefined; readonly rest: readonly PathSegment[] };

/** `paths` split into root and rest: once per frozen list (a definition's own, shared by all its steps). */
const splitPaths = perFrozenList((paths): readonly SplitPath[] =>
  paths.map((p) => {
    const segs = parsePath(p);
    return { root: segs[0], rest: segs.slice(1) };
  }),
);

/** One node's view of its step. */
export class StepRun {
  readonly stamp: string;
  /** The step's secret paths: the plan's, and those references resolved now make secret. */
  #secrets: readonly string[];
  /** The values the step sends, once resolved (for the secret strings errors are scrubbed of). */
  #desired: Record<string, unknown> | undefined;
  constructor(
    readonly w: StepWork,
    readonly ctx: ApplyContext,
    readonly defer?: (durable: Promise<void>) => void,
  ) {
    this.stamp = isoStamp(ctx.now());
    this.#secrets = w.secrets;
  }

  /** Secret paths ('inputs.x', 'outputs.y') recorded with the object. */
  get secrets(): readonly string[] {
    return this.#secrets;
  }

  /** Every secret string this step knows (its secret inputs and the prior's secret outputs): scrubbed from errors and vendor text. */
  secretValues(): Set<string> {
    const { w } = this;
    const out = new Set<string>();
    if (!this.#secrets.length) return out;
    const object = objectOf(w);
    const visit = collecting(out);
    const given = 'inputs' in w ? w.inputs : undefined;
    const paths = splitPaths(this.#secrets);
    for (let i = 0; i < paths.length; i++) {
      const { root, rest } = paths[i]!;
      if (root === 'inputs') {
        if (object?.inputs) mapPath(object.inputs, rest, visit);
        if (given) mapPath(given, rest, visit);
        if (this.#desired) mapPath(this.#desired, rest, visit);
      } else if (root === 'outputs' && object?.outputs) mapPath(object.outputs, rest, visit);
    }
    return out;
  }

  get address(): string {
    return this.w.step.address;
  }

  /** The step's last record: awaited, unless nothing waits for the step (then apply awaits it at the end). */
  async last(p: Promise<void>): Promise<void> {
    if (this.defer) this.defer(p);
    else await p;
  }

  /**
   * What a create or update of `w` (this run's work) sends: the plan's values, or the declaration
   * resolved against the live state. `planned`: the plan's parse of the inputs (w.planned), for a
   * caller that knows every reference the plan read a value of reads the same value now
   * (record-creates: the state is the plan's): filled in where the plan had unknowns, when the
   * schema allows (parsedWithKnown), instead of a parse of the whole.
   */
  desired(
    w: DeclaredWork,
    prior?: ResourceState,
    planned?: Readonly<Record<string, unknown>>,
  ): Record<string, unknown> {
    if (w.inputs) return this.#checked((this.#desired = w.inputs as Record<string, unknown>));
    const decl = w.decl;
    // Against the live records; one the apply has not got (its create failed) fails the step.
    const source = recordSource(
      (name) => this.ctx.ledger.get(name),
      (ref) => {
        throw new UnresolvedInputsError(this.address, 'not-in-state', ref.resource);
      },
    );
    // A reference to what the live record holds secret makes the destination secret here as at plan.
    const resolved = resolveDeclared(decl.inputs, source, this.#secrets);
    if (resolved.secrets.length > this.#secrets.length) this.#secrets = resolved.secrets;
    const raw = resolved.value;
    const filled = planned && parsedWithKnown(w.def.inputs, planned, raw);
    const parsed =
      filled !== undefined && !containsUnknown(filled)
        ? { success: true as const, data: filled }
        : w.def.inputs.safeParse(raw);
    if (!parsed.success) {
      const first = parsed.error.issues[0];
      throw new UnresolvedInputsError(this.address, 'invalid', first?.path.join('.'), first?.message);
    }
    // ignoreChanges holds for updates only: a replacement's new object is made from the declaration.
    const data =
      w.kind === 'update'
        ? applyIgnoreChanges(
            parsed.data as Record<string, unknown>,
            prior?.inputs as Record<string, unknown> | undefined,
            decl.options?.ignoreChanges,
          )
        : (parsed.data as Record<string, unknown>);
    if (containsUnknown(data)) throw new UnresolvedInputsError(this.address, 'unknown');
    return this.#checked((this.#desired = data));
  }

  /**
   * The policy checks the plan left pending on this step, run on the inputs it is about to send
   * (secrets as the sensitive marker; messages scrubbed of secret values): an advisory finding is a
   * warning event, a mandatory one stops the step before anything of it is recorded or sent.
   */
  #checked(inputs: Record<string, unknown>): Record<string, unknown> {
    const policies = this.ctx.policies;
    if (!policies?.has(this.address)) return inputs;
    const shown = redactPaths({ inputs }, this.#secrets) as { inputs: Record<string, unknown> };
    const values = this.secretValues();
    const found = policies
      .recheck(this.w.step, shown.inputs)
      .map((v) => ({ ...v, message: redactText(v.message, values) }));
    for (const v of found)
      if (v.level === 'advisory')
        this.ctx.emit({
          type: 'warning',
          at: this.ctx.now(),
          address: this.address,
          message: `policy ${v.policy} (advisory): ${v.message}`,
        });
    const mandatory = found.filter((v) => v.level === 'mandatory');
    if (mandatory.length) throw new PolicyViolationError(mandatory, 'step');
    return inputs;
  }

  /** The record of the object under `name` with the declaration's options and dependencies. */
  record(
    name: string,
    id: string,
    inputs: Record<string, unknown>,
    outputs: Record<string, unknown>,
    prior?: ResourceState,
  ): ResourceState {
    const { w } = this;
    const decl = declOf(w);
    return {
      type: w.step.type,
      name,
      provider: w.provider.name,
      ...instanceFields(w.provider),
      id,
      inputs,
      outputs,
      dependencies: [...w.deps],
      options: decl ? storedOptions(decl.options) : (prior?.options ?? {}),
      secrets: this.#secrets,
      createdAt: prior?.createdAt ?? this.stamp,
      updatedAt: this.stamp,
    };
  }

  /** The resource's time limit for an operation, from its declaration (or, for a removed one, its record). */
  limitOf(operation: 'create' | 'update' | 'delete'): number | undefined {
    const text = declOf(this.w)?.options?.timeouts?.[operation] ?? objectOf(this.w)?.options.timeouts?.[operation];
    const ms = text ? parseDuration(text) : undefined;
    return ms === undefined ? undefined : Math.min(ms, MAX_TIMER_MS);
  }

  context(
    operation: OperationKind,
    signal: AbortSignal,
    limitMs: number | undefined,
    operationId?: string,
    provider: Provider<unknown> = this.w.provider,
  ): OperationContext {
    const address = this.w.step.address;
    const ctx = this.ctx;
    const started = ctx.now();
    const secrets = [...this.secretValues()];
    return {
      operationId,
      config: provider.config,
      provider: provider.name,
      address,
      token: this.w.step.type,
      operation,
      signal,
      timeoutMs: limitMs,
      retry: ctx.retry,
      secrets,
      // A method rather than an arrow property: a build that keeps function names (keepNames)
      // names each arrow property with a defineProperty call, here once per operation.
      report(r: Report) {
        emitReport(ctx, address, operation, started, secrets.length ? scrubReport(r, secrets) : r);
      },
    };
  }

  /** Runs one provider operation under the step's limit for `limitFor` (a TimeoutError when it runs out). */
  async operate<T>(
    operation: OperationKind,
    limitFor: 'create' | 'update' | 'delete',
    fn: (octx: OperationContext) => Promise<T>,
    options: { operationId?: string; def?: AnyResource; provider?: Provider<unknown> } = {},
  ): Promise<T> {
    const limitMs = this.limitOf(limitFor);
    const s = stepSignal(this.ctx.signal, this.address, operation, limitMs);
    const octx = this.context(operation, s.signal, limitMs, options.operationId, options.provider);
    try {
      // Without a limit only the caller's abort can stop it: race the apply's one aborted promise.
      const work = fn(octx);
      return await (limitMs === undefined && this.ctx.aborted
        ? Promise.race([work, this.ctx.aborted])
        : raceSignal(work, s.signal));
    } catch (error) {
      if (s.signal.aborted && s.signal.reason instanceof TimeoutError) throw s.signal.reason;
      throw error;
    } finally {
      s.dispose();
    }
  }
}

export function emitReport(
  ctx: Pick<ApplyContext, 'emit' | 'now'>,
  address: string,
  operation: string,
  started: number,
  r: Report,
): void {
  const at = ctx.now();
  const elapsedMs = at - started;
  // A call of the provider as a whole (its credential check, a recovery's find) has no resource.
  const about = address ? { address } : {};
  if (r.kind === 'poll')
    ctx.emit({ type: 'poll', at, address, operation, attempt: r.attempt, message: r.message, elapsedMs, ...delay(r) });
  else if (r.kind === 'retry')
    ctx.emit({
      type: 'retry',
      at,
      ...about,
      operation,
      attempt: r.attempt,
      retriesLeft: r.retriesLeft,
      delayMs: r.delayMs,
      error: r.error,
      ...(r.status === undefined ? {} : { status: r.status }),
      elapsedMs,
    });
  else if (r.kind === 'wait')
    ctx.emit({
      type: 'wait',
      at,
      ...about,
      operation,
      reason: r.reason,
      waitMs: r.waitMs,
      message: r.message,
      elapsedMs,
    });
  else if (r.kind === 'progress') ctx.emit({ type: 'progress', at, address, operation, message: r.message, elapsedMs });
  else ctx.emit({ type: 'warning', at, ...about, message: r.message });
}

function delay(r: { readonly delayMs?: number }): { delayMs?: number } {
  return r.delayMs === undefined ? {} : { delayMs: r.delayMs };
}

/** A provider's report with the step's secret values scrubbed from its text (poll, progress, retry and warning messages). */
function scrubReport(r: Report, secrets: readonly string[]): Report {
  if (r.kind === 'retry') return { ...r, error: redactText(r.error, secrets) };
  return { ...r, message: redactText(r.message, secrets) };
}

/** The handler and provider that own a replacement's old object (the old type's, after a type change). */
export function priorHandler(w: ReplacementWork): { def: AnyResource; provider: Provider<unknown> } {
  return { def: w.priorDef ?? w.def, provider: w.priorProvider ?? w.provider };
}
