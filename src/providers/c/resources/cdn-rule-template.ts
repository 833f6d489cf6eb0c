// CdnRuleTemplate: a reusable rule (pattern plus options) of the account, under the literal path
// /cdn/resources/rule_templates. Synchronous CRUD; find reads the CDN activity log for this create's
// POST since it started (../support/activity.ts; names are neither required nor unique).
import { z } from 'zod';
import { ruleTemplateShape } from '../lookups/cdn.js';
import { declaredRule, protocols, toRuleWire } from './cdn-resource-rule.js';
import { cdnId, findCdnCreated, setOptions } from './shared.js';
import { defined } from '../../../kit/wire.js';
import { orNull } from '../../../kit/gone.js';
import { readByGroup } from '../../../kit/read-many.js';
import type { ProvcContext } from '../config.js';
import type { CdnRuleTemplate } from '../wire/cdn.js';
import { defineResource, type Prior, type ReadResult } from '../../../engine/provider/define.js';

const inputs = z
  .object({
    name: z.string().min(1).optional().describe('Template name; neither required nor unique.'),
    rule: z
      .string()
      .min(1)
      .max(300)
      .describe(
        "Path pattern of the template (a regular expression); the server adds a leading '/' when it is missing.",
      ),
    ruleType: z
      .union([z.literal(0), z.literal(1)])
      .default(0)
      .describe(
        "How rule is read: 0, a regular expression starting with '^/' or '/'; 1, a legacy regular expression with an implicit leading '/'.",
      ),
    weight: z
      .number()
      .int()
      .min(1)
      .max(2147483647)
      .optional()
      .describe('Evaluation order, lowest first, of rules made from the template. The server picks one when absent.'),
    overrideOriginProtocol: z
      .enum(protocols)
      .optional()
      .describe(
        "Protocol to reach the origin (MATCH: the request's protocol); absent inherits the resource's originProtocol.",
      ),
    options: z
      .record(z.string(), z.unknown())
      .default({})
      .describe(
        "CDN options by the vendor's names ({ gzipOn: { enabled: true, value: true } }); an option not set inherits the resource's.",
      ),
  })
  .describe(
    "A reusable rule (pattern plus options) of the account, under /cdn/resources/rule_templates. find reads the CDN activity log for this create's request, since names are neither required nor unique.",
  );
type Inputs = z.output<typeof inputs>;
const outputs = z.object({
  ruleTemplateId: z.number().describe('Integer id of the rule template (the resource id).'),
  name: z.string().optional().describe('Template name.'),
  rule: z.string().describe("Path pattern as the server keeps it (with a leading '/')."),
  ruleType: z
    .number()
    .describe('0: regular expression starting with ^/ or /; 1: legacy regular expression with an implicit /.'),
  weight: z.number().optional().describe('Evaluation order, lowest first.'),
  client: z.number().optional().describe('Id of the account that owns the template.'),
  default: z
    .boolean()
    .optional()
    .describe('True for a system template available to all accounts (read-only for users).'),
  template: z.boolean().optional().describe('True for a rule template.'),
  deleted: z.boolean().optional().describe('Deletion flag; false for a live template.'),
  options: z
    .record(z.string(), z.unknown())
    .optional()
    .describe("The template's CDN options as the API returns them (null for an option not set)."),
  overrideOriginProtocol: z
    .enum(protocols)
    .nullable()
    .describe("Origin protocol of the template; null inherits the resource's originProtocol."),
});
const wire = (i: Inputs) => toRuleWire({ ...i, name: i.name as string });

/** What read answers for a listed or fetched object. */
function ruleTemplateResult(w: CdnRuleTemplate, prior: Prior): ReadResult {
  const old = prior.inputs as Partial<Inputs>;
  const readInputs = defined({
    name: w.name || undefined,
    rule: declaredRule(w.rule, old.rule),
    ruleType: w.ruleType as 0 | 1,
    weight: old.weight !== undefined ? w.weight : undefined,
    overrideOriginProtocol: (w.overrideOriginProtocol as Inputs['overrideOriginProtocol'] | null) ?? undefined,
    options: setOptions(w.options),
  });
  return { inputs: readInputs, outputs: ruleTemplateShape(w) };
}

export const cdnRuleTemplate = defineResource({
  token: 'provc:index/cdnRuleTemplate:CdnRuleTemplate',
  inputs,
  outputs,
  computedOnUpdate: ['options', 'weight'],
  create: async (ctx: ProvcContext, i) => {
    const w = await ctx.config.client.createCdnRuleTemplate(ctx, wire(i));
    return { id: String(w.id), outputs: ruleTemplateShape(w) };
  },
  read: async (ctx, id, prior) => {
    const w = await orNull(() => ctx.config.client.getCdnRuleTemplate(ctx, cdnId(id, 'rule template')));
    return w ? ruleTemplateResult(w, prior) : null;
  },
  readMany: readByGroup({
    groupOf: () => '',
    list: (ctx) => ctx.config.client.allCdnRuleTemplates(ctx),
    idOf: (w) => String(w.id),
    toResult: (w, prior) => ruleTemplateResult(w, prior),
  }),
  update: async (ctx, id, _olds, news) => ({
    outputs: ruleTemplateShape(
      await ctx.config.client.replaceCdnRuleTemplate(ctx, cdnId(id, 'rule template'), wire(news)),
    ),
  }),
  delete: async (ctx, id) => {
    await ctx.config.client.deleteCdnRuleTemplate(ctx, cdnId(id, 'rule template'));
  },
  find: (ctx, i, hint) =>
    findCdnCreated(ctx, '/resources/rule_templates', wire(i), hint, async (id) => {
      const w = await ctx.config.client.getCdnRuleTemplate(ctx, id);
      return { id: String(w.id), outputs: ruleTemplateShape(w) };
    }),
  importId: (importId) => String(cdnId(importId, 'rule template')),
});
