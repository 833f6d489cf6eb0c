// The plan-time credential check: when a plan creates, changes or deletes anything, each provider
// instance whose resources it touches checks its credentials and endpoint once (its `verify` hook,
// one cheap authenticated read), so a plan that cannot be applied fails now, as Terraform's
// providers do when configured. A plan with no changes makes no request for it.
import type { Provider } from '../provider/define.js';
import type { StepWork } from '../plan/work.js';
import type { EngineCore } from './core.js';

/** Retries of the check: a dead endpoint fails the plan in seconds, one retry line each. */
const VERIFY_RETRIES = 3;

/** Runs `verify` of every provider the changing steps of `work` use, at once; throws the first failure. */
export async function verifyProviders(core: EngineCore, work: readonly StepWork[], signal: AbortSignal): Promise<void> {
  const involved = new Set<Provider<unknown>>();
  for (const w of work)
    if (w.step.action !== 'noop' && w.step.action !== 'forget') {
      involved.add(w.provider);
      // A move to another instance deletes the old object through the instance that made it.
      if ('priorProvider' in w && w.priorProvider) involved.add(w.priorProvider);
    }
  const checks = [...involved].flatMap((p) => {
    if (!p.verify) return [];
    const ctx = core.context(p, p.name, '', 'verify', signal);
    const retry = { ...ctx.retry, retries: Math.min(ctx.retry.retries, VERIFY_RETRIES) };
    return [p.verify({ ...ctx, retry })];
  });
  const results = await Promise.allSettled(checks);
  const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) throw failed.reason;
}
