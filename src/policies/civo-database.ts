// civo-database-firewall: a Civo database names its firewall; without one the network's default
// firewall, open to all, guards it.
import { isUnknown } from '../engine/values/unknown.js';
import type { Policy } from '../engine/plan/policy.js';

/**
 * A Civo database (`provb:index/database:Database`) must name a firewall (`firewallId`): when it is
 * blank the API puts the network's default firewall, open to all, in front of it. A `firewallId`
 * that references a firewall made in the same apply is known only then: the check stays pending
 * and runs again, with the id, right before the database is created.
 *
 * @example
 * ```ts
 * import { Engine, ref } from 'converge';
 * import { provb } from 'converge/providers/b';
 * import { civoDatabaseFirewall } from 'converge/policies';
 *
 * const engine = new Engine({
 *   providers: [provb({ token: 'your-civo-api-key', region: 'LON1' })],
 *   policies: [{ policy: civoDatabaseFirewall, level: 'mandatory' }],
 * });
 * const fw = provb.firewall('db-fw', { name: 'db-fw', createDefaultRules: false, ingressRules: [{ portRange: '5432', cidrs: ['10.0.0.0/8'], action: 'allow' }] });
 * const db = provb.database('db', {
 *   name: 'db', engine: 'postgresql', version: '14', size: 'g3.db.small', nodes: 1,
 *   firewallId: ref(fw, 'firewallId'), // pending at plan, checked again at apply
 * });
 * void [engine, db];
 * ```
 */
export const civoDatabaseFirewall: Policy = {
  name: 'civo-database-firewall',
  description: "A Civo database names its firewall (else the network's default one, open to all, is used).",
  types: ['provb:index/database:Database'],
  resource: (step, report) => {
    const after = step.after;
    if (!after) return;
    const id = after.firewallId;
    if (isUnknown(id)) report.pending('firewallId is known only after apply', { path: 'firewallId' });
    else if (typeof id !== 'string' || id.trim() === '')
      report("no firewall: the network's default firewall, open to all, would guard the database; set firewallId", {
        path: 'firewallId',
      });
  },
};
