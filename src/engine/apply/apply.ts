// Apply: carries out a plan's steps through the providers. The plan's execution graph has a node
// per provider operation (a replacement has two); each node runs after the nodes it waits for,
// independent ones concurrently up to `parallelism`, and each node's module (steps/) says what it
// records before and after its provider call. A failed node's dependents are skipped; every
// completed node's record is durable before apply returns.
import type { StepWork, ExecNode } from '../plan/work.js';
import { schedule, STOPPED } from './scheduler.js';
import { StepRun, abortedPromise, type ApplyContext } from './steps/context.js';
import { runCreate } from './steps/create.js';
import { runUpdate } from './steps/update.js';
import { runRecord } from './steps/state-only.js';
import { runDelete, runDeleteDeposed } from './steps/delete.js';
import { runForget } from './steps/forget.js';
import type { FailedStep, SkippedStep, StepOutcome } from './result.js';
import { ConvergeError } from '../errors.js';
import { getPath, parsePath } from '../values/path.js';
import { redactText, secretStrings } from '../values/redact.js';

export type { ApplyContext } from './steps/context.js';
export { emitReport } from './steps/context.js';

export type ApplyOutcome = { readonly succeeded: StepOutcome[]; readonly failed: FailedStep[]; readonly skipped: SkippedStep[] };

type Task = { readonly id: string; readonly waitFor: readonly string[]; readonly node: ExecNode; readonly work: StepWork; readonly index: number };
type Progress = { started: number; left: number; failed: boolean; skipped: boolean; id?: string; unchanged?: boolean };

export async function applySteps(work: readonly StepWork[], given: ApplyContext): Promise<ApplyOutcome> {
  const ctx: ApplyContext = given.aborted ? given : { ...given, aborted: abortedPromise(given.signal) };
  const succeeded: StepOutcome[] = [];
  const failed: FailedStep[] = [];
  const skipped: SkippedStep[] = [];
  const tasks: Task[] = [];
  const owner = new Map<string, number>();
  work.forEach((w, index) => {
    for (const node of w.nodes) { tasks.push({ id: node.id, waitFor: node.waitFor, node, work: w, index }); owner.set(node.id, index); }
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

  await schedule(tasks, ctx.parallelism, async (task) => {
    const w = task.work;
    const p = progress[task.index]!;
    const { action, address, type } = w.step;
    if (p.started === 0) {
      p.started = ctx.now();
      if (ctx.listening) ctx.emit({ type: 'step_start', at: p.started, address, action, resourceType: type });
    }
    const defer = awaited.has(task.id) ? undefined : (durable: Promise<void>) => { deferred.push({ index: task.index, durable }); durable.catch(() => {}); };
    try {
      await runNode(task.node, new StepRun(w, ctx, defer), p);
    } catch (error) {
      const err = scrubError(error, w);
      p.failed = true;
      const elapsedMs = ctx.now() - p.started;
      failed.push({ address, action, elapsedMs, error: err });
      ctx.emit({ type: 'step_fail', at: ctx.now(), address, action, resourceType: type, elapsedMs, error: err.message.split('\n')[0] ?? '', ...(err instanceof ConvergeError ? { code: err.code } : {}) });
      throw err;
    }
    if (--p.left === 0) {
      const elapsedMs = ctx.now() - p.started;
      succeeded.push({ address, action, elapsedMs, ...(p.unchanged ? { unchanged: true } : {}) });
      if (ctx.listening) ctx.emit({ type: 'step_finish', at: ctx.now(), address, action, resourceType: type, elapsedMs, ...(p.id ? { id: p.id } : {}) });
    }
  }, (task, because) => {
    const p = progress[task.index]!;
    if (p.failed || p.skipped) return;
    p.skipped = true;
    const by = because === STOPPED ? STOPPED : work[owner.get(because)!]!.step.address;
    skipped.push({ address: task.work.step.address, action: task.work.step.action, because: by });
    ctx.emit({ type: 'step_skip', at: ctx.now(), address: task.work.step.address, action: task.work.step.action, resourceType: task.work.step.type, because: by });
  }, ctx.stop);

  for (const d of deferred) {
    try { await d.durable; } catch (error) {
      const address = work[d.index]!.step.address;
      const i = succeeded.findIndex((s) => s.address === address);
      if (i >= 0) succeeded.splice(i, 1);
      failed.push({ address, action: work[d.index]!.step.action, elapsedMs: 0, error: error as Error });
    }
  }
  return { succeeded, failed, skipped };
}

async function runNode(node: ExecNode, run: StepRun, p: Progress): Promise<void> {
  switch (node.kind) {
    case 'create': p.id = await runCreate(run); return;
    case 'create-replacement': p.id = await runCreate(run, run.w.prior!); return;
    case 'update': { const u = await runUpdate(run); p.id = u.id; p.unchanged = u.unchanged; return; }
    case 'record': p.id = await runRecord(run); return;
    case 'delete': await runDelete(run); return;
    case 'delete-deposed': await (run.w.decl ? runDeleteDeposed(run) : runDelete(run)); return;
    case 'forget': await runForget(run, false); return;
    case 'forget-deposed': await runForget(run, true); return;
  }
}

/**
 * A provider's error with every secret value of the resource scrubbed from its text, keeping its
 * class, code and facts (a scrubbed ProviderError is still a ProviderError with its status).
 */
export function scrubError(error: unknown, w: StepWork): Error {
  const err = error instanceof Error ? error : new Error(String(error));
  if (!w.secrets.length) return err;
  const secrets = new Set<string>();
  for (const p of w.secrets) {
    const [root, ...rest] = parsePath(p);
    const source = root === 'inputs' ? { ...(w.prior?.inputs ?? {}), ...(w.inputs ?? w.decl?.inputs ?? {}) } : w.prior?.outputs;
    secretStrings(getPath(source, rest), secrets);
  }
  const text = (s: string) => redactText(s, secrets);
  const leaks = (e: Error) => [...secrets].some((s) => e.message.includes(s) || (e.stack ?? '').includes(s) || Object.values(e).some((v) => typeof v === 'string' && v.includes(s)));
  if (secrets.size === 0 || !leaks(err)) return err;
  const clone = Object.create(Object.getPrototypeOf(err)) as Error;
  for (const key of Object.getOwnPropertyNames(err)) {
    const d = Object.getOwnPropertyDescriptor(err, key)!;
    if (typeof d.value === 'string') d.value = text(d.value);
    else if (key === 'cause' && d.value instanceof Error) d.value = leaks(d.value) ? scrubError(d.value, w) : d.value;
    Object.defineProperty(clone, key, d);
  }
  return clone;
}
