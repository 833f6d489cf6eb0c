// Apply: carries out a plan's steps through the providers. Each step's result is committed to the
// store before its dependents start; a create is recorded as pending before the provider is called,
// so a crash, kill or timeout never loses the record of an object it made.
import type { StepWork } from '../plan/work.js';
import type { ResourceState, StoredOptions } from '../../state/model.js';
import { recordDelete, recordDeposed, recordRename, recordResource, markPending, clearPending } from '../../state/ops.js';
import type { Ledger } from './ledger.js';
import { schedule } from './scheduler.js';
import { applyIgnoreChanges } from '../diff/ignore.js';
import type { CreateIntents } from './intents.js';
import { withRetry, type RetryPolicy } from './retry.js';
import { parseDuration, raceSignal, stepSignal } from './timeout.js';
import type { OperationContext, OperationKind, Report } from '../provider/context.js';
import type { Event } from '../events.js';
import type { FailedStep, SkippedStep, StepOutcome } from './result.js';
import { ConvergeError, PartialCreateError, ProviderError, TimeoutError } from '../errors.js';
import { isCannotTell, type FindHint } from '../provider/define.js';
import { hasRefs, isRef } from '../decl/ref.js';
import { containsUnknown } from '../values/unknown.js';
import { getPath, parsePath } from '../values/path.js';
import { redactText, secretStrings } from '../values/redact.js';
import type { ResourceDecl } from '../decl/resource-decl.js';

export type ApplyContext = {
  readonly ledger: Ledger;
  readonly parallelism: number;
  readonly retry: RetryPolicy;
  readonly signal?: AbortSignal;
  readonly emit: (event: Event) => void;
  /** False when nobody listens: step events are then not even built. */
  readonly listening: boolean;
  readonly now: () => number;
  /** A signal that never fires, for operations without limit or caller signal. */
  readonly idle: AbortSignal;
  /** Pending records written ahead for creates. */
  readonly intents?: CreateIntents;
};

export type ApplyOutcome = { readonly succeeded: StepOutcome[]; readonly failed: FailedStep[]; readonly skipped: SkippedStep[] };

export async function applySteps(work: readonly StepWork[], ctx: ApplyContext): Promise<ApplyOutcome> {
  const succeeded: StepOutcome[] = [];
  const failed: FailedStep[] = [];
  const skipped: SkippedStep[] = [];
  const tasks = work.map((w) => ({ id: w.step.address, waitFor: w.waitFor, work: w }));
  // A step's last record must be durable before its dependents start. A step nothing waits for
  // frees its slot as soon as the record is queued; apply awaits those records before it returns,
  // so they share fsyncs with many others (the pending record written before the provider call
  // keeps a crash in between recoverable).
  const awaited = new Set<string>();
  for (const w of work) for (const a of w.waitFor) awaited.add(a);
  const deferred: { address: string; action: StepOutcome['action']; durable: Promise<void> }[] = [];
  await schedule(tasks, ctx.parallelism, async (task) => {
    const w = task.work;
    const started = ctx.now();
    const { action, address, type } = w.step;
    if (ctx.listening && action !== 'noop') ctx.emit({ type: 'step_start', at: started, address, action, resourceType: type });
    try {
      const durable = awaited.has(address) ? undefined : (p: Promise<void>) => { deferred.push({ address, action, durable: p }); p.catch(() => {}); };
      const id = await runStep(w, w.deps, ctx, durable);
      const elapsedMs = ctx.now() - started;
      succeeded.push({ address, action, elapsedMs });
      if (ctx.listening && action !== 'noop') ctx.emit({ type: 'step_finish', at: ctx.now(), address, action, resourceType: type, elapsedMs, ...(id ? { id } : {}) });
    } catch (error) {
      const elapsedMs = ctx.now() - started;
      const err = scrubError(error, w);
      failed.push({ address, action, elapsedMs, error: err });
      ctx.emit({ type: 'step_fail', at: ctx.now(), address, action, resourceType: type, elapsedMs, error: err.message.split('\n')[0] ?? '', ...(err instanceof ConvergeError ? { code: err.code } : {}) });
      throw err;
    }
  }, (task, because) => {
    skipped.push({ address: task.id, action: task.work.step.action, because });
    ctx.emit({ type: 'step_skip', at: ctx.now(), address: task.id, action: task.work.step.action, resourceType: task.work.step.type, because });
  });
  for (const d of deferred) {
    try { await d.durable; } catch (error) {
      const i = succeeded.findIndex((s) => s.address === d.address);
      if (i >= 0) succeeded.splice(i, 1);
      failed.push({ address: d.address, action: d.action, elapsedMs: 0, error: error as Error });
    }
  }
  return { succeeded, failed, skipped };
}

/** A provider's error, with any secret value of the resource scrubbed from its message. */
function scrubError(error: unknown, w: StepWork): Error {
  const err = error instanceof Error ? error : new Error(String(error));
  if (!w.secrets.length) return err;
  const secrets = new Set<string>();
  for (const p of w.secrets) {
    const [root, ...rest] = parsePath(p);
    const source = root === 'inputs' ? { ...(w.prior?.inputs ?? {}), ...(w.decl?.inputs ?? {}) } : w.prior?.outputs;
    secretStrings(getPath(source, rest), secrets);
  }
  if (![...secrets].some((s) => err.message.includes(s))) return err;
  const scrubbed = new Error(redactText(err.message, secrets));
  scrubbed.name = err.name;
  return scrubbed;
}

function storedOptions(decl: ResourceDecl | undefined, prior: ResourceState | undefined): StoredOptions {
  if (!decl) return prior?.options ?? {};
  const o = decl.options ?? {};
  const out: Record<string, unknown> = {};
  for (const k of ['protect', 'retainOnDelete', 'createBeforeDestroy', 'ignoreChanges', 'replaceOnChanges', 'dependsOn', 'timeouts'] as const) if (o[k] !== undefined) out[k] = o[k];
  return out as StoredOptions;
}

/** Resolves references against what the ledger holds now (after the referenced steps ran). */
function resolveLive(value: unknown, ctx: ApplyContext, w: StepWork): unknown {
  if (isRef(value)) {
    const r = ctx.ledger.get(value.resource);
    if (!r) throw new ConvergeError(`${w.step.address}: the referenced resource '${value.resource}' is not in the state (its step did not run).`);
    const segs = parsePath(value.path);
    if (segs.length === 1 && segs[0] === 'id' && r.outputs.id === undefined) return r.id;
    const out = getPath(r.outputs, segs);
    return out !== undefined ? out : getPath(r.inputs, segs);
  }
  if (Array.isArray(value)) return value.map((v) => resolveLive(v, ctx, w));
  if (value && typeof value === 'object') {
    const o: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) o[k] = resolveLive(v, ctx, w);
    return o;
  }
  return value;
}

function operationContext(w: StepWork, operation: OperationKind, signal: AbortSignal, limitMs: number | undefined, ctx: ApplyContext, started: number, operationId?: string): OperationContext {
  const address = w.step.address;
  return {
    ...(operationId ? { operationId } : {}),
    config: w.provider.config,
    provider: w.provider.name,
    address,
    token: w.step.type,
    operation,
    signal,
    timeoutMs: limitMs,
    retry: ctx.retry,
    report: (r: Report) => emitReport(ctx, address, operation, started, r),
  };
}

export function emitReport(ctx: Pick<ApplyContext, 'emit' | 'now'>, address: string, operation: string, started: number, r: Report): void {
  const at = ctx.now();
  const elapsedMs = at - started;
  if (r.kind === 'poll') ctx.emit({ type: 'poll', at, address, operation, attempt: r.attempt, message: r.message, elapsedMs });
  else if (r.kind === 'retry') ctx.emit({ type: 'retry', at, address, operation, attempt: r.attempt, retriesLeft: r.retriesLeft, delayMs: r.delayMs, error: r.error, elapsedMs });
  else if (r.kind === 'progress') ctx.emit({ type: 'progress', at, address, operation, message: r.message, elapsedMs });
  else ctx.emit({ type: 'warning', at, address, message: r.message });
}

/** Runs one provider operation under its time limit, retried while transient. */
async function operate<T>(w: StepWork, operation: 'create' | 'update' | 'delete', ctx: ApplyContext, fn: (octx: OperationContext) => Promise<T>, shouldRetry?: (e: Error, octx: OperationContext) => Promise<boolean>, operationId?: string): Promise<T> {
  const limitMs = limitOf(w, operation);
  const s = stepSignal(ctx.signal, w.step.address, operation, limitMs, ctx.idle);
  const octx = operationContext(w, operation, s.signal, limitMs, ctx, ctx.now(), operationId);
  try {
    return await raceSignal(withRetry(() => fn(octx), {
      policy: ctx.retry,
      signal: s.signal,
      onRetry: (info) => octx.report({ kind: 'retry', attempt: info.attempt, retriesLeft: info.retriesLeft, delayMs: info.delayMs, error: info.error.message.split('\n')[0] ?? '' }),
      shouldRetry: shouldRetry ? (e) => shouldRetry(e, octx) : undefined,
    }), s.signal, s.signal !== ctx.idle);
  } catch (error) {
    if (s.signal.aborted && s.signal.reason instanceof TimeoutError) throw s.signal.reason;
    throw error;
  } finally {
    s.dispose();
  }
}

/** The resource's time limit for an operation, from its declaration (or, for a removed one, its state). */
function limitOf(w: StepWork, operation: 'create' | 'update' | 'delete'): number | undefined {
  const text = w.decl?.options?.timeouts?.[operation] ?? w.prior?.options.timeouts?.[operation];
  return text ? parseDuration(text) : undefined;
}

/** find() after a failed create, under the step's create limit; undefined when it could not tell. */
async function findPartial(w: StepWork, inputs: Record<string, unknown>, ctx: ApplyContext, hint: FindHint): Promise<{ id: string; outputs: Record<string, unknown> } | null | undefined> {
  const limitMs = limitOf(w, 'create');
  const s = stepSignal(ctx.signal, w.step.address, 'find', limitMs, ctx.idle);
  try {
    const found = await raceSignal(w.def.find!(operationContext(w, 'find', s.signal, limitMs, ctx, ctx.now(), hint.operationId), inputs, hint), s.signal, s.signal !== ctx.idle);
    return isCannotTell(found) ? undefined : found;
  } catch {
    return undefined;
  } finally {
    s.dispose();
  }
}

function isDefinite(error: unknown): boolean {
  return error instanceof ProviderError && !error.outcomeUnknown;
}

async function runStep(w: StepWork, deps: readonly string[], ctx: ApplyContext, defer?: (durable: Promise<void>) => void): Promise<string | undefined> {
  /** The step's last record: awaited, unless nothing waits for the step (then apply awaits it at the end). */
  const last = async (p: Promise<void>): Promise<void> => { if (defer) defer(p); else await p; };
  const { step, def, provider } = w;
  const stamp = new Date(ctx.now()).toISOString();
  const now = () => stamp;
  const desired = (): Record<string, unknown> => {
    if (w.inputs) return w.inputs as Record<string, unknown>;
    const raw = (hasRefs(w.decl!.inputs) ? resolveLive(w.decl!.inputs, ctx, w) : w.decl!.inputs) as Record<string, unknown>;
    const parsed = def.inputs.safeParse(raw);
    if (!parsed.success) {
      const first = parsed.error.issues[0];
      throw new ConvergeError(`${step.address}: inputs are invalid once references are known: ${first?.path.join('.')}: ${first?.message}`);
    }
    const data = applyIgnoreChanges(parsed.data as Record<string, unknown>, w.prior?.inputs as Record<string, unknown> | undefined, w.decl!.options?.ignoreChanges);
    if (containsUnknown(data)) throw new ConvergeError(`${step.address}: an input is still unknown at apply time.`);
    return data;
  };
  const record = (name: string, id: string, inputs: Record<string, unknown>, outputs: Record<string, unknown>, prior?: ResourceState): ResourceState => ({
    type: step.type,
    name,
    provider: provider.name,
    id,
    inputs,
    outputs,
    dependencies: [...deps],
    options: storedOptions(w.decl, prior),
    secrets: w.secrets,
    createdAt: prior?.createdAt ?? now(),
    updatedAt: now(),
  });

  const create = async (name: string, prior?: ResourceState, deposed?: ResourceState): Promise<string> => {
    const inputs = desired();
    let pendingId = (!prior && !deposed && (await ctx.intents?.take(name))) || '';
    if (!pendingId) await ctx.ledger.commit((serial) => {
      const m = markPending(serial, { id: `${ctx.ledger.lineage.slice(0, 8)}-${serial + 1}`, startedAt: stamp, kind: 'create', type: step.type, name, provider: provider.name, inputs, secrets: w.secrets.filter((s) => s.startsWith('inputs.')) });
      pendingId = m.pending.id;
      return m.change;
    });
    let adopted: { id: string; outputs: Record<string, unknown> } | null = null;
    let result: { id: string; outputs: Record<string, unknown> };
    const hint: FindHint = { startedAt: stamp, operationId: pendingId };
    try {
      result = await operate(w, 'create', ctx, async (octx) => adopted ?? (await def.create(octx, inputs)), async (e, octx) => {
        // A create whose outcome is unknown is looked for before it is tried again.
        if (!(e instanceof ProviderError) || !e.outcomeUnknown) return true;
        if (!def.find) return false;
        const found = await def.find(octx, inputs, hint);
        if (isCannotTell(found)) return false;
        adopted = found;
        return true;
      }, pendingId);
    } catch (error) {
      // A create that made the object before a later stage failed says so (PartialCreateError): the
      // object is recorded as tainted, so the next plan replaces it and nothing is lost. After an
      // unknown outcome find() looks; a definite refusal made nothing and is never looked for (find
      // could otherwise claim someone else's object). A timeout or an abort keeps the pending record.
      const unknownOutcome = !isDefinite(error) && !(error instanceof TimeoutError) && !ctx.signal?.aborted;
      const partial = error instanceof PartialCreateError ? { id: error.id, outputs: { ...error.outputs } }
        : def.find && unknownOutcome ? await findPartial(w, inputs, ctx, hint) : undefined;
      if (partial) {
        const tainted = { ...record(name, partial.id, inputs, partial.outputs, prior), tainted: true };
        await ctx.ledger.commit((serial) => deposed ? recordDeposed(serial, tainted, deposed, pendingId) : recordResource(serial, tainted, pendingId));
      } else if (isDefinite(error)) {
        // A definite refusal made nothing: drop the pending record. An unknown outcome keeps it,
        // for the next plan to look again (the object may still appear).
        await ctx.ledger.commit((serial) => clearPending(serial, pendingId));
      }
      throw error;
    }
    const created = record(name, result.id, inputs, result.outputs, prior);
    const final = ctx.ledger.commit((serial) => deposed ? recordDeposed(serial, created, deposed, pendingId) : recordResource(serial, created, pendingId));
    if (deposed) await final; else await last(final);
    return result.id;
  };

  const remove = async (name: string, target: ResourceState): Promise<void> => {
    let pendingId = '';
    await ctx.ledger.commit((serial) => {
      const m = markPending(serial, { id: `${ctx.ledger.lineage.slice(0, 8)}-${serial + 1}`, startedAt: stamp, kind: 'delete', type: target.type, name, provider: provider.name, inputs: {}, resourceId: target.id, secrets: [] });
      pendingId = m.pending.id;
      return m.change;
    });
    try {
      await operate(w, 'delete', ctx, async (octx) => {
        try { await def.delete(octx, target.id, { inputs: target.inputs, outputs: target.outputs }); }
        catch (error) { if (!(error instanceof ProviderError && error.notFound)) throw error; }
      });
    } catch (error) {
      await ctx.ledger.commit((serial) => clearPending(serial, pendingId));
      throw error;
    }
    await ctx.ledger.commit((serial) => recordDelete(serial, name, pendingId));
  };

  switch (step.action) {
    case 'create':
      return create(step.address);
    case 'update': {
      const prior = w.prior!;
      if (w.priorName && w.priorName !== step.address) await ctx.ledger.commit((serial) => recordRename(serial, { ...prior, name: step.address }, w.priorName!));
      const inputs = desired();
      const result = await operate(w, 'update', ctx, (octx) => def.update!(octx, prior.id, { inputs: prior.inputs, outputs: prior.outputs }, inputs));
      await last(ctx.ledger.commit((serial) => recordResource(serial, record(step.address, prior.id, inputs, result.outputs, prior))));
      return prior.id;
    }
    case 'replace': {
      const prior = w.prior!;
      const priorName = w.priorName ?? step.address;
      if (step.createBeforeDestroy) {
        const deposedName = `${step.address}~deposed-${prior.id.replace(/[^\w-]/g, '').slice(0, 12) || 'old'}`;
        if (priorName !== step.address) await ctx.ledger.commit((serial) => recordRename(serial, { ...prior, name: step.address }, priorName));
        const id = await create(step.address, undefined, { ...prior, name: deposedName });
        await remove(deposedName, { ...prior, name: deposedName });
        return id;
      }
      await remove(priorName, prior);
      return create(step.address);
    }
    case 'delete':
      await remove(step.address, w.prior!);
      return undefined;
    case 'forget':
      await ctx.ledger.commit((serial) => recordDelete(serial, step.address));
      return undefined;
    case 'noop': {
      const prior = w.prior;
      if (prior && w.priorName && w.priorName !== step.address) {
        await ctx.ledger.commit((serial) => recordRename(serial, { ...prior, name: step.address, dependencies: [...deps], options: storedOptions(w.decl, prior) }, w.priorName!));
      } else if (w.refreshed) {
        await ctx.ledger.commit((serial) => recordResource(serial, w.refreshed!));
      }
      return prior?.id;
    }
  }
}
