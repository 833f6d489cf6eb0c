// civo-no-ssh-from-world: a Civo firewall must not let SSH (TCP port 22) in from anywhere
// (0.0.0.0/0 or ::/0), whether by an ingress rule or by the API's default rules.
import { isUnknown } from '../engine/values/unknown.js';
import type { Policy, PolicyReport } from '../engine/plan/policy.js';

const WORLD = new Set(['0.0.0.0/0', '::/0']);

/** True when '22', '20-25' or '1-65535' covers port 22; undefined when the range is unknown. */
function coversSsh(range: unknown): boolean | undefined {
  if (isUnknown(range)) return undefined;
  if (typeof range !== 'string') return false;
  const [from, to = from] = range.split('-').map(Number);
  return from !== undefined && to !== undefined && from <= 22 && 22 <= to;
}

function checkRule(rule: unknown, path: string, report: PolicyReport): void {
  if (isUnknown(rule)) return report.pending('the rule is known only after apply', { path });
  const r = (rule ?? {}) as Record<string, unknown>;
  if (r.action === 'deny') return;
  if (isUnknown(r.action)) return report.pending('its action is known only after apply', { path: `${path}.action` });
  if (isUnknown(r.protocol))
    return report.pending('its protocol is known only after apply', { path: `${path}.protocol` });
  if ((r.protocol ?? 'tcp') !== 'tcp') return;
  const ssh = coversSsh(r.portRange);
  if (ssh === undefined)
    return report.pending('its port range is known only after apply', { path: `${path}.portRange` });
  if (!ssh) return;
  const cidrs = r.cidrs;
  if (isUnknown(cidrs)) return report.pending('its CIDRs are known only after apply', { path: `${path}.cidrs` });
  if (!Array.isArray(cidrs)) return;
  cidrs.forEach((c, i) => {
    if (isUnknown(c)) report.pending('a CIDR is known only after apply', { path: `${path}.cidrs[${i}]` });
    else if (typeof c === 'string' && WORLD.has(c))
      report(`SSH (port 22) is open to ${c}; allow it from known addresses only`, { path: `${path}.cidrs[${i}]` });
  });
}

/**
 * A Civo firewall (`provb:index/firewall:Firewall`) must not allow TCP port 22 from `0.0.0.0/0`
 * or `::/0`: each allowing ingress rule whose port range covers 22 is checked, and
 * `createDefaultRules` (true unless set false) is refused since the API's default rules open SSH
 * to the world. A rule, port range or CIDR known only after apply leaves the check pending.
 *
 * @example
 * ```ts
 * import { Engine } from 'converge';
 * import { provb } from 'converge/providers/b';
 * import { civoNoSshFromWorld } from 'converge/policies';
 *
 * const engine = new Engine({
 *   providers: [provb({ token: 'your-civo-api-key', region: 'LON1' })],
 *   policies: [{ policy: civoNoSshFromWorld, level: 'mandatory' }],
 * });
 * void engine;
 * ```
 */
export const civoNoSshFromWorld: Policy = {
  name: 'civo-no-ssh-from-world',
  description: 'A Civo firewall does not allow SSH (TCP port 22) from 0.0.0.0/0 or ::/0.',
  types: ['provb:index/firewall:Firewall'],
  resource: (step, report) => {
    const after = step.after;
    if (!after) return;
    const defaults = after.createDefaultRules;
    if (isUnknown(defaults))
      report.pending('createDefaultRules is known only after apply', { path: 'createDefaultRules' });
    else if (defaults !== false)
      report(
        "the API's default rules open SSH (port 22) to 0.0.0.0/0; set createDefaultRules: false and list the rules",
        {
          path: 'createDefaultRules',
        },
      );
    const rules = after.ingressRules;
    if (isUnknown(rules)) return report.pending('ingressRules is known only after apply', { path: 'ingressRules' });
    if (Array.isArray(rules)) rules.forEach((rule, i) => checkRule(rule, `ingressRules[${i}]`, report));
  },
};
