// lxd-memory-limit: an LXD instance sets limits.memory, so one instance cannot take the host's memory.
import { isUnknown } from '../engine/values/unknown.js';
import type { Policy } from '../engine/plan/policy.js';

/**
 * An LXD instance (`prova:index/instance:Instance`) must set `limits.memory` (the `memory` key of
 * its `limits`), or it may use all of the host's memory. Only the instance's own limits are read:
 * a limit set by one of its profiles is not seen here. A limit known only after apply leaves the
 * check pending.
 *
 * @example
 * ```ts
 * import { Engine } from 'converge';
 * import { prova } from 'converge/providers/a';
 * import { lxdMemoryLimit } from 'converge/policies';
 *
 * const engine = new Engine({
 *   providers: [prova()], // the local daemon
 *   policies: [{ policy: lxdMemoryLimit, level: 'mandatory' }],
 * });
 * const web = prova.instance('web', { name: 'web', image: 'images:debian/12', limits: { memory: '1GiB' } });
 * void [engine, web];
 * ```
 */
export const lxdMemoryLimit: Policy = {
  name: 'lxd-memory-limit',
  description: 'An LXD instance sets limits.memory.',
  types: ['prova:index/instance:Instance'],
  resource: (step, report) => {
    const after = step.after;
    if (!after) return;
    const limits = after.limits;
    if (isUnknown(limits)) return report.pending('limits is known only after apply', { path: 'limits' });
    const memory = (limits as Record<string, unknown> | undefined)?.memory;
    if (isUnknown(memory)) return report.pending('limits.memory is known only after apply', { path: 'limits.memory' });
    if (typeof memory !== 'string' || memory.trim() === '')
      report('no memory limit: the instance may use all of the host\'s memory; set limits.memory (e.g. "1GiB")', {
        path: 'limits.memory',
      });
  },
};
