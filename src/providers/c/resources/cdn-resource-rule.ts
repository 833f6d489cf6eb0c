// CdnResourceRule: settings for paths of one CDN resource that match a pattern. The id is
// '<resourceId>/<ruleId>' (also the import id). A rule must be inactive before DELETE, so delete
// first switches it off. find reads the CDN activity log for this create's POST since it started
// (../support/activity.ts), so a rule of the same name made by someone else is never found.
import { z } from 'zod';
import type { ProvcContext } from '../config.js';
import type { CdnRule, CdnRuleRequest } from '../wire/cdn.js';
import { defineResource } from '../../../engine/provider/define.js';
import { ruleShape } from '../lookups/cdn.js';
import { cdnId, findCdnCreated, setOptions } from './shared.js';
import { defined } from '../../../kit/wire.js';
import { orNull } from '../../../kit/gone.js';
import { readByGroup } from '../../../kit/read-many.js';
import type { Prior, ReadResult } from '../../../engine/provider/define.js';

export const protocols = ['HTTPS', 'HTTP', 'MATCH'] as const;

const inputs = z
  .object({
    resourceId: z
      .number()
      .int()
      .positive()
      .describe('Id of the CDN resource the rule belongs to. Changing it forces replacement.'),
    name: z.string().min(1).max(255).describe('Rule name, unique within the resource.'),
    rule: z
      .string()
      .min(1)
      .max(300)
      .describe(
        "Path pattern the rule applies to (a regular expression); the server adds a leading '/' when it is missing.",
      ),
    ruleType: z
      .union([z.literal(0), z.literal(1)])
      .default(0)
      .describe(
        "How rule is read: 0, a regular expression starting with '^/' or '/'; 1, a legacy regular expression with an implicit leading '/'.",
      ),
    active: z
      .boolean()
      .default(true)
      .describe(
        'Whether the rule is applied; delete switches it off first, as the API refuses to delete an active rule.',
      ),
    weight: z
      .number()
      .int()
      .min(1)
      .max(2147483647)
      .optional()
      .describe(
        'Evaluation order, lowest first: when a URI matches several rules, the one with the lowest weight applies. The server picks one when absent.',
      ),
    originGroup: z
      .number()
      .int()
      .positive()
      .optional()
      .describe("Id of the origin group for matching requests; absent uses the resource's origin group."),
    overrideOriginProtocol: z
      .enum(protocols)
      .optional()
      .describe(
        "Protocol to reach the origin for matching requests (MATCH: the request's protocol); absent inherits the resource's originProtocol.",
      ),
    options: z
      .record(z.string(), z.unknown())
      .default({})
      .describe(
        "CDN options for matching requests by the vendor's names ({ gzipOn: { enabled: true, value: true } }); an option not set inherits the resource's.",
      ),
  })
  .describe(
    "A rule of one CDN resource: settings for the paths that match a pattern. The id (and import id) is '<resourceId>/<ruleId>'. find reads the CDN activity log for this create's request, so a same-named rule made by someone else is never adopted.",
  );
type Inputs = z.output<typeof inputs>;
const outputs = z.object({
  ruleId: z.number().describe('Integer id of the rule within its resource.'),
  resourceId: z.number().describe('Id of the CDN resource the rule belongs to.'),
  name: z.string().describe('Rule name.'),
  rule: z.string().describe("Path pattern as the server keeps it (with a leading '/')."),
  ruleType: z
    .number()
    .describe('0: regular expression starting with ^/ or /; 1: legacy regular expression with an implicit /.'),
  weight: z.number().optional().describe('Evaluation order, lowest first.'),
  active: z.boolean().describe('Whether the rule is applied.'),
  deleted: z.boolean().optional().describe('Deletion flag; false for a live rule.'),
  originProtocol: z
    .string()
    .optional()
    .describe('Protocol the CDN uses to reach the origin for matching requests (HTTP, HTTPS or MATCH).'),
  presetApplied: z.boolean().optional().describe('True when a Gcore preset is applied to the rule.'),
  primaryRule: z
    .number()
    .nullable()
    .optional()
    .describe('Id of the primary rule this one derives from (shared cache), or null.'),
  options: z
    .record(z.string(), z.unknown())
    .optional()
    .describe("The rule's CDN options as the API returns them (null for an option the rule inherits)."),
  originGroup: z.number().nullable().describe("Id of the rule's origin group; null uses the resource's."),
  overrideOriginProtocol: z
    .enum(protocols)
    .nullable()
    .describe("Origin protocol of the rule; null inherits the resource's originProtocol."),
});
export const toRuleWire = (i: Omit<Inputs, 'resourceId' | 'active'> & { active?: boolean }): CdnRuleRequest =>
  defined({
    name: i.name,
    rule: i.rule,
    ruleType: i.ruleType,
    active: i.active,
    weight: i.weight,
    originGroup: i.originGroup,
    overrideOriginProtocol: i.overrideOriginProtocol,
    options: i.options,
  });

/** The rule pattern as declared when the server only added the leading '/'. */
export const declaredRule = (wire: string, prior: string | undefined) =>
  prior !== undefined && `/${prior}` === wire ? prior : wire;

function parse(id: string): { resourceId: number; ruleId: number } {
  const [r, x, extra] = id.split('/');
  if (x === undefined || extra !== undefined)
    throw new TypeError(`Expected a rule id '<resourceId>/<ruleId>', got '${id}'`);
  return { resourceId: cdnId(r!, 'CDN resource'), ruleId: cdnId(x, 'rule') };
}

/** What read answers for rule `w` of CDN resource `resourceId`. */
function ruleResult(w: CdnRule, prior: Prior, resourceId: number): ReadResult {
  const old = prior.inputs as Partial<Inputs>;
  const readInputs = defined({
    resourceId,
    name: w.name,
    rule: declaredRule(w.rule, old.rule),
    ruleType: w.ruleType as 0 | 1,
    active: w.active,
    weight: old.weight !== undefined ? w.weight : undefined,
    originGroup: w.originGroup ?? undefined,
    overrideOriginProtocol: (w.overrideOriginProtocol as Inputs['overrideOriginProtocol'] | null) ?? undefined,
    options: setOptions(w.options),
  });
  return { inputs: readInputs, outputs: ruleShape(w, resourceId) };
}

export const cdnResourceRule = defineResource({
  token: 'provc:index/cdnResourceRule:CdnResourceRule',
  inputs,
  outputs,
  replaceOn: ['resourceId'],
  computedOnUpdate: ['options', 'originProtocol', 'weight'],
  create: async (ctx: ProvcContext, i) => {
    const w = await ctx.config.client.createCdnRule(ctx, i.resourceId, toRuleWire(i));
    return { id: `${i.resourceId}/${String(w.id)}`, outputs: ruleShape(w, i.resourceId) };
  },
  read: async (ctx, id, prior) => {
    const p = parse(id);
    const w = await orNull(() => ctx.config.client.getCdnRule(ctx, p.resourceId, p.ruleId));
    return w ? ruleResult(w, prior, p.resourceId) : null;
  },
  // One listing per CDN resource (a deleted resource: every rule of it is gone).
  readMany: readByGroup({
    groupOf: (_ctx, it) => String(parse(it.id).resourceId),
    list: (ctx, resourceId) => orNull(() => ctx.config.client.allCdnRules(ctx, Number(resourceId))),
    idOf: (w) => String(w.id),
    pick: (listed, _all, id) => listed.get(String(parse(id).ruleId)),
    toResult: (w, prior, id) => ruleResult(w, prior, parse(id).resourceId),
  }),
  update: async (ctx, id, _olds, news) => {
    const p = parse(id);
    return {
      outputs: ruleShape(
        await ctx.config.client.replaceCdnRule(ctx, p.resourceId, p.ruleId, toRuleWire(news)),
        p.resourceId,
      ),
    };
  },
  delete: async (ctx, id) => {
    const p = parse(id);
    const w = await ctx.config.client.getCdnRule(ctx, p.resourceId, p.ruleId);
    if (w.active) await ctx.config.client.patchCdnRule(ctx, p.resourceId, p.ruleId, { active: false });
    await ctx.config.client.deleteCdnRule(ctx, p.resourceId, p.ruleId);
  },
  find: (ctx, i, hint) =>
    findCdnCreated(ctx, `/resources/${i.resourceId}/rules`, toRuleWire(i), hint, async (id) => {
      const w = await ctx.config.client.getCdnRule(ctx, i.resourceId, id);
      return { id: `${i.resourceId}/${String(w.id)}`, outputs: ruleShape(w, i.resourceId) };
    }),
  importId: (importId) => {
    const p = parse(importId);
    return `${p.resourceId}/${p.ruleId}`;
  },
});
