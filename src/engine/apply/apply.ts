// Apply: carries out a plan's steps through the providers. The plan's execution graph has a node
// per provider operation (a replacement has two); each node runs after the nodes it waits for,
// independent ones concurrently up to `parallelism`, and each node's module (steps/) says what it
// records before and after its provider call. A failed node's dependents are skipped; every
// completed node's record is durable before apply returns.
import type { StepWork, ExecNode } from '../plan/work.js';
import { schedule, STOPPED } from '../run/scheduler.js';
import type { SkipReason } from '../events.js';
import { StepRun, abortedPromise, priorHandler, type ApplyContext } from './steps/context.js';
import { runCreate, runCreateReplacement } from './steps/create.js';
import { runUpdate } from './steps/update.js';
import { runRecord } from './steps/state-only.js';
import { runDelete, runDeleteDeposed } from './steps/delete.js';
import { runForget, runForgetDeposed } from './steps/forget.js';
import type { FailedStep, SkippedStep, StepOutcome } from '../apply-result.js';
import { ConvergeError } from '../errors.js';
import { redactText } from '../values/redact.js';

export { emitReport } from './steps/context.js';

type ApplyOutcome = {
  readonly succeeded: StepOutcome[];
  readonly failed: FailedStep[];
  readonly skipped: SkippedStep[];
};

type Task = {
  readonly id: string;
  readonly waitFor: readonly string[];
  readonly node: ExecNode;
  readonly work: StepWork;
  readonly index: number;
};
type Progress = { started: number; left: number; failed: boolean; skipped: boolean; id?: string; unchanged?: boolean };

export async function applySteps(work: readonly StepWork[], given: ApplyContext): Promise<ApplyOutcome> {
  const ctx: ApplyContext = given.aborted ? given : { ...given, aborted: abortedPromise(given.signal) };
  const succeeded: StepOutcome[] = [];
  const failed: FailedStep[] = [];
  const skipped: SkippedStep[] = [];
  const tasks: Task[] = [];
  const owner = new Map<string, number>();
  work.forEach((w, index) => {
    for (const node of w.nodes) {
      tasks.push({ id: node.id, waitFor: node.waitFor, node, work: w, index });
      owner.set(node.id, index);
    }
    if (w.nodes.length === 0) succeeded.push({ address: w.step.address, action: w.step.action, elapsedMs: 0 });
  });
  const progress: Progress[] = work.map((w) => ({ started: 0, left: w.nodes.length, failed: false, skipped: false }));
  // A node's last record must be durable before the nodes waiting for it start. A node nothing
  // waits for frees its slot once its record is queued; apply awaits those records at the end, so
  // they share fsyncs with many others (the pending record written before the provider call keeps
  // a crash in between recoverable).
  const awaited = new Set<string>();
  for (const t of tasks) for (const a of t.waitFor) awaited.add(a);
  const deferred: { index: number; durable: Promise<void> }[] = [];

  await schedule(
    tasks,
    ctx.parallelism,
    async (task) => {
      const w = task.work;
      const p = progress[task.index]!;
      const { action, address, type } = w.step;
      // A no-op's node only records (a move, refreshed outputs): no step line, as apply_start does not count it.
      const shown = ctx.listening && action !== 'noop';
      if (p.started === 0) {
        p.started = ctx.now();
        if (shown) ctx.emit({ type: 'step_start', at: p.started, address, action, resourceType: type });
      }
      const defer = awaited.has(task.id)
        ? undefined
        : (durable: Promise<void>) => {
            deferred.push({ index: task.index, durable });
            durable.catch(() => {});
          };
      const run = new StepRun(w, ctx, defer);
      try {
        await runNode(task.node, run, p);
      } catch (error) {
        const err = scrubError(error, run.secretValues());
        p.failed = true;
        const elapsedMs = ctx.now() - p.started;
        failed.push({ address, action, elapsedMs, error: err });
        ctx.emit({
          type: 'step_fail',
          at: ctx.now(),
          address,
          action,
          resourceType: type,
          elapsedMs,
          error: err.message.split('\n')[0] ?? '',
          ...(err instanceof ConvergeError ? { code: err.code } : {}),
        });
        throw err;
      }
      if (--p.left === 0) {
        const elapsedMs = ctx.now() - p.started;
        succeeded.push({ address, action, elapsedMs, ...(p.unchanged ? { unchanged: true } : {}) });
        if (shown)
          ctx.emit({
            type: 'step_finish',
            at: ctx.now(),
            address,
            action,
            resourceType: type,
            elapsedMs,
            ...(p.id ? { id: p.id } : {}),
          });
      }
    },
    (task, because) => {
      const p = progress[task.index]!;
      if (p.failed || p.skipped) return;
      p.skipped = true;
      const by: SkipReason =
        because === STOPPED
          ? { kind: 'stopped' }
          : { kind: 'dependency-failed', address: work[owner.get(because)!]!.step.address };
      skipped.push({ address: task.work.step.address, action: task.work.step.action, because: by });
      ctx.emit({
        type: 'step_skip',
        at: ctx.now(),
        address: task.work.step.address,
        action: task.work.step.action,
        resourceType: task.work.step.type,
        because: by,
      });
    },
    ctx.stop,
  );

  for (const d of deferred) {
    try {
      await d.durable;
    } catch (error) {
      const address = work[d.index]!.step.address;
      const i = succeeded.findIndex((s) => s.address === address);
      if (i >= 0) succeeded.splice(i, 1);
      failed.push({ address, action: work[d.index]!.step.action, elapsedMs: 0, error: error as Error });
    }
  }
  return { succeeded, failed, skipped };
}

/** Runs one node of a step: the step module for the node's kind, given the fields of the step's kind it reads. */
async function runNode(node: ExecNode, run: StepRun, p: Progress): Promise<void> {
  const w = run.w;
  switch (node.kind) {
    case 'create':
      if (w.kind !== 'create' && w.kind !== 'replace-delete-first') break;
      p.id = await runCreate(run, w);
      return;
    case 'create-replacement':
      if (w.kind !== 'replace-create-first') break;
      p.id = await runCreateReplacement(run, w);
      return;
    case 'update': {
      if (w.kind !== 'update') break;
      const u = await runUpdate(run, w);
      p.id = u.id;
      p.unchanged = u.unchanged;
      return;
    }
    case 'record':
      if (w.kind !== 'update' && w.kind !== 'noop') break;
      p.id = await runRecord(run, w);
      return;
    case 'delete':
      if (w.kind === 'delete')
        return runDelete(run, { object: w.prior, name: w.priorName, def: w.def, provider: w.provider });
      // A replacement's old object is deleted through its own type's handler (another after a type change).
      if (w.kind === 'replace-delete-first')
        return runDelete(run, { object: w.prior, name: w.priorName, ...priorHandler(w) });
      break;
    case 'delete-deposed':
      if (w.kind === 'replace-create-first') return runDeleteDeposed(run, w);
      if (w.kind === 'delete-deposed') {
        const { deposed } = w;
        return runDelete(run, {
          object: deposed,
          name: deposed.name,
          deposedKey: deposed.deposedKey,
          def: w.def,
          provider: w.provider,
        });
      }
      break;
    case 'forget':
      if (w.kind !== 'forget' && w.kind !== 'replace-delete-first') break;
      return runForget(run, w.priorName);
    case 'forget-deposed':
      if (w.kind !== 'replace-create-first') break;
      return runForgetDeposed(run, w.deposedKey);
  }
  throw new ConvergeError(`${run.address}: a ${w.kind} step has no ${node.kind} node; this is a converge bug.`);
}

/**
 * An error with every secret value of the step scrubbed from its text (message, stack, string
 * fields, nested objects and causes), keeping its class, code and facts: a scrubbed ProviderError
 * is still a ProviderError with its status. The same error when nothing leaks.
 */
function scrubError(error: unknown, secrets: ReadonlySet<string>): Error {
  const err = error instanceof Error ? error : new Error(String(error));
  if (secrets.size === 0 || !leaks(err, secrets, new Set())) return err;
  return scrubDeep(err, secrets, new Map()) as Error;
}

function leaks(value: unknown, secrets: ReadonlySet<string>, seen: Set<unknown>): boolean {
  if (typeof value === 'string') return redactText(value, secrets) !== value;
  if (value === null || typeof value !== 'object' || seen.has(value)) return false;
  seen.add(value);
  const keys = value instanceof Error ? Object.getOwnPropertyNames(value) : Object.keys(value);
  return keys.some((k) => leaks((value as Record<string, unknown>)[k], secrets, seen));
}

function scrubDeep(value: unknown, secrets: ReadonlySet<string>, seen: Map<unknown, unknown>): unknown {
  if (typeof value === 'string') return redactText(value, secrets);
  if (value === null || typeof value !== 'object') return value;
  if (seen.has(value)) return seen.get(value);
  if (Array.isArray(value)) {
    const out: unknown[] = [];
    seen.set(value, out);
    for (const v of value) out.push(scrubDeep(v, secrets, seen));
    return out;
  }
  const proto = Object.getPrototypeOf(value);
  if (!(value instanceof Error) && proto !== Object.prototype && proto !== null) return value;
  const clone = Object.create(proto) as Record<string, unknown>;
  seen.set(value, clone);
  for (const key of Object.getOwnPropertyNames(value)) {
    const d = Object.getOwnPropertyDescriptor(value, key)!;
    if ('value' in d) d.value = scrubDeep(d.value, secrets, seen);
    Object.defineProperty(clone, key, d);
  }
  return clone;
}
