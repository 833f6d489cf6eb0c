// CdnRuleTemplate: a reusable rule (pattern plus options) of the account, under the literal path
// /cdn/resources/rule_templates. Synchronous CRUD; find reads the CDN activity log for this create's
// POST since it started (../activity.ts; names are neither required nor unique).
import { z } from 'zod';
import { ruleTemplateShape } from '../lookups/cdn.js';
import { declaredRule, protocols, setOptions, toRuleWire } from './cdn-resource-rule.js';
import { cdnId, defined, findCdnCreated, ignoreGone, orNull, provcResource } from './shared.js';

const inputs = z.object({
  name: z.string().min(1).optional(),
  rule: z.string().min(1).max(300),
  ruleType: z.union([z.literal(0), z.literal(1)]).default(0),
  weight: z.number().int().min(1).max(2147483647).optional(),
  overrideOriginProtocol: z.enum(protocols).optional(),
  options: z.record(z.string(), z.unknown()).default({}),
});
type Inputs = z.output<typeof inputs>;

const outputs = z.object({
  ruleTemplateId: z.number(), name: z.string().optional(), rule: z.string(), ruleType: z.number(), weight: z.number().optional(),
  client: z.number().optional(), default: z.boolean().optional(), template: z.boolean().optional(), deleted: z.boolean().optional(),
  options: z.record(z.string(), z.unknown()).optional(), overrideOriginProtocol: z.enum(protocols).nullable(),
});

const wire = (i: Inputs) => toRuleWire({ ...i, name: i.name as string });

export const cdnRuleTemplate = provcResource({
  token: 'provc:index/cdnRuleTemplate:CdnRuleTemplate',
  inputs,
  outputs,
  computedOnUpdate: ['options', 'weight'],
  create: async (ctx, i) => {
    const w = await ctx.config.client.createCdnRuleTemplate(ctx, wire(i));
    return { id: String(w.id), outputs: ruleTemplateShape(w) };
  },
  read: async (ctx, id, prior) => {
    const w = await orNull(() => ctx.config.client.getCdnRuleTemplate(ctx, cdnId(id, 'rule template')));
    if (!w) return null;
    const old = prior.inputs as Partial<Inputs>;
    const readInputs = defined({
      name: (w.name as string | undefined) || undefined, rule: declaredRule(w.rule as string, old.rule), ruleType: w.ruleType as 0 | 1,
      weight: old.weight !== undefined ? (w.weight as number) : undefined,
      overrideOriginProtocol: (w.overrideOriginProtocol as Inputs['overrideOriginProtocol'] | null) ?? undefined, options: setOptions(w.options),
    });
    return { inputs: readInputs, outputs: ruleTemplateShape(w) };
  },
  update: async (ctx, id, _olds, news) => ({ outputs: ruleTemplateShape(await ctx.config.client.replaceCdnRuleTemplate(ctx, cdnId(id, 'rule template'), wire(news))) }),
  delete: async (ctx, id) => ignoreGone(() => ctx.config.client.deleteCdnRuleTemplate(ctx, cdnId(id, 'rule template'))),
  find: (ctx, i, hint) => findCdnCreated(ctx, '/resources/rule_templates', wire(i), hint, async (id) => {
    const w = await ctx.config.client.getCdnRuleTemplate(ctx, id);
    return { id: String(w.id), outputs: ruleTemplateShape(w) };
  }),
  importId: (importId) => String(cdnId(importId, 'rule template')),
});
