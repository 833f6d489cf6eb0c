// CdnResourceRule: settings for paths of one CDN resource that match a pattern. The id is
// '<resourceId>/<ruleId>' (also the import id). A rule must be inactive before DELETE, so delete
// first switches it off. find reads the CDN activity log for this create's POST since it started
// (../activity.ts), so a rule of the same name made by someone else is never found.
import { z } from 'zod';
import type { Wire } from '../client.js';
import { ruleShape } from '../lookups/cdn.js';
import { cdnId, defined, findCdnCreated, ignoreGone, orNull, provcResource } from './shared.js';

export const protocols = ['HTTPS', 'HTTP', 'MATCH'] as const;

const inputs = z.object({
  resourceId: z.number().int().positive(),
  name: z.string().min(1).max(255),
  /** Path pattern; the server adds a leading '/'. */
  rule: z.string().min(1).max(300),
  /** 0: regular expression starting with '^/' or '/'; 1: legacy regex with an implicit '/'. */
  ruleType: z.union([z.literal(0), z.literal(1)]).default(0),
  active: z.boolean().default(true),
  weight: z.number().int().min(1).max(2147483647).optional(),
  originGroup: z.number().int().positive().optional(),
  overrideOriginProtocol: z.enum(protocols).optional(),
  options: z.record(z.string(), z.unknown()).default({}),
});
type Inputs = z.output<typeof inputs>;

const outputs = z.object({
  ruleId: z.number(), resourceId: z.number(), name: z.string(), rule: z.string(), ruleType: z.number(),
  weight: z.number().optional(), active: z.boolean(), deleted: z.boolean().optional(), originProtocol: z.string().optional(),
  presetApplied: z.boolean().optional(), primaryRule: z.number().nullable().optional(), options: z.record(z.string(), z.unknown()).optional(),
  originGroup: z.number().nullable(), overrideOriginProtocol: z.enum(protocols).nullable(),
});

export const toRuleWire = (i: Omit<Inputs, 'resourceId' | 'active'> & { active?: boolean }): Wire => defined({
  name: i.name, rule: i.rule, ruleType: i.ruleType, active: i.active, weight: i.weight,
  originGroup: i.originGroup, overrideOriginProtocol: i.overrideOriginProtocol, options: i.options,
});

export const setOptions = (o: unknown) => Object.fromEntries(Object.entries((o ?? {}) as Record<string, unknown>).filter(([, v]) => v !== null && v !== undefined));

/** The rule pattern as declared when the server only added the leading '/'. */
export const declaredRule = (wire: string, prior: string | undefined) => (prior !== undefined && `/${prior}` === wire ? prior : wire);

function parse(id: string): { resourceId: number; ruleId: number } {
  const [r, x, extra] = id.split('/');
  if (x === undefined || extra !== undefined) throw new TypeError(`Expected a rule id '<resourceId>/<ruleId>', got '${id}'`);
  return { resourceId: cdnId(r!, 'CDN resource'), ruleId: cdnId(x, 'rule') };
}

export const cdnResourceRule = provcResource({
  token: 'provc:index/cdnResourceRule:CdnResourceRule',
  inputs,
  outputs,
  replaceOn: ['resourceId'],
  computedOnUpdate: ['options', 'originProtocol', 'weight'],
  create: async (ctx, i) => {
    const w = await ctx.config.client.createCdnRule(ctx, i.resourceId, toRuleWire(i));
    return { id: `${i.resourceId}/${w.id}`, outputs: ruleShape(w, i.resourceId) };
  },
  read: async (ctx, id, prior) => {
    const p = parse(id);
    const w = await orNull(() => ctx.config.client.getCdnRule(ctx, p.resourceId, p.ruleId));
    if (!w) return null;
    const old = prior.inputs as Partial<Inputs>;
    const readInputs = defined({
      resourceId: p.resourceId, name: w.name as string, rule: declaredRule(w.rule as string, old.rule), ruleType: w.ruleType as 0 | 1,
      active: w.active as boolean, weight: old.weight !== undefined ? (w.weight as number) : undefined,
      originGroup: (w.originGroup as number | null) ?? undefined, overrideOriginProtocol: (w.overrideOriginProtocol as Inputs['overrideOriginProtocol'] | null) ?? undefined,
      options: setOptions(w.options),
    });
    return { inputs: readInputs, outputs: ruleShape(w, p.resourceId) };
  },
  update: async (ctx, id, _olds, news) => {
    const p = parse(id);
    return { outputs: ruleShape(await ctx.config.client.replaceCdnRule(ctx, p.resourceId, p.ruleId, toRuleWire(news)), p.resourceId) };
  },
  delete: async (ctx, id) => ignoreGone(async () => {
    const p = parse(id);
    const w = await ctx.config.client.getCdnRule(ctx, p.resourceId, p.ruleId);
    if (w.active) await ctx.config.client.patchCdnRule(ctx, p.resourceId, p.ruleId, { active: false });
    await ctx.config.client.deleteCdnRule(ctx, p.resourceId, p.ruleId);
  }),
  find: (ctx, i, hint) => findCdnCreated(ctx, `/resources/${i.resourceId}/rules`, toRuleWire(i), hint, async (id) => {
    const w = await ctx.config.client.getCdnRule(ctx, i.resourceId, id);
    return { id: `${i.resourceId}/${w.id}`, outputs: ruleShape(w, i.resourceId) };
  }),
  importId: (importId) => { const p = parse(importId); return `${p.resourceId}/${p.ruleId}`; },
});
