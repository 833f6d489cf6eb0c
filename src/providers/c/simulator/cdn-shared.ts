// What the CDN route files share: the origin protocol enum, a handler's early answer, numeric path
// parameters, a rule path with its leading slash, and a rule as the API shows it.
import { z } from 'zod';
import type { SimRequest, SimResponse } from '../../../kit/sim/router.js';
import type { Wire } from './fixtures.js';
import type { SimStore } from './store.js';

export const protocol = z.enum(['HTTP', 'HTTPS', 'MATCH']);
export const isAnswer = (x: Wire | SimResponse): x is SimResponse =>
  typeof (x as SimResponse).status === 'number' && !('id' in x);
export const num = (req: SimRequest, k: string) => Number(req.params[k]);
export const withSlash = (rule: string) => (rule.startsWith('/') || rule.startsWith('^') ? rule : `/${rule}`);

/** A rule as the API shows it: its origin protocol inherited from the resource unless overridden. */
export function ruleJson(s: SimStore, x: Wire & { resourceId: number }): Wire {
  const { resourceId, ...rest } = x;
  const protocol =
    (x.overrideOriginProtocol as string | null) ??
    (s.cdn.resources.get(resourceId)?.originProtocol as string | undefined) ??
    'HTTP';
  return { ...rest, originProtocol: protocol };
}
