// provb:index/firewall:Firewall: a firewall in a network, with ingress and egress rules. Rules are
// never updated by the API: a changed rule is deleted and created again, keyed on its content.
import { z } from 'zod';
import { defineResource, type CheckIssue } from '../../../engine/provider/define.js';
import { isCannotTell, type Prior, type ReadResult } from '../../../engine/provider/define.js';
import { claim } from './claim.js';
import type { ProvbConfig, ProvbContext } from '../config.js';
import type * as W from '../wire/objects.js';
import { isNotFound, orNull } from '../../../kit/gone.js';
import { missingObject } from '../errors.js';
import { checkRegion, priorRegion, regionOf } from '../support/region.js';
import { reporter } from './reported.js';
import { defined } from '../../../kit/wire.js';
import { readByRegion } from './read-many.js';

export const firewallRule = z
  .strictObject({
    label: z.string().min(1).optional().describe('Free-form label of the rule.'),
    protocol: z.enum(['tcp', 'udp', 'icmp']).default('tcp').describe('Protocol: `tcp` (default), `udp` or `icmp`.'),
    /** '80' or '80-443'; required unless the protocol is icmp. */
    portRange: z
      .string()
      .regex(/^\d{1,5}(-\d{1,5})?$/, "must be a port ('80') or a range ('80-443')")
      .optional()
      .describe('Port (`80`) or range (`80-443`); required unless the protocol is `icmp`.'),
    cidrs: z
      .array(z.string().min(1))
      .min(1)
      .describe('Source (ingress) or destination (egress) CIDR blocks, at least one, e.g. `0.0.0.0/0`.'),
    action: z.enum(['allow', 'deny']).describe('`allow` or `deny`.'),
  })
  .describe('One firewall rule; a changed rule is deleted and created again.');
type Rule = z.output<typeof firewallRule>;
type Direction = 'ingress' | 'egress';

export const firewallInputs = z
  .strictObject({
    name: z
      .string()
      .min(1)
      .regex(/^\S+$/, 'must not contain whitespace')
      .describe('Name of the firewall (no whitespace). Updates in place.'),
    networkId: z
      .string()
      .optional()
      .describe('Network the firewall belongs to; the default network when omitted. Changing it forces replacement.'),
    region: z
      .string()
      .optional()
      .describe("Civo region code (e.g. LON1); defaults to the provider's region. Changing it forces replacement."),
    /** The API's default rules (SSH, HTTP, HTTPS from anywhere); must be false when rules are given. */
    createDefaultRules: z
      .boolean()
      .default(true)
      .describe(
        "Create the API's default rules (SSH, HTTP and HTTPS from anywhere); default true, and must be false when rules are given. Changing it forces replacement.",
      ),
    ingressRules: z
      .array(firewallRule)
      .default([])
      .describe(
        'Inbound rules; default none. With `createDefaultRules` false, give at least one ingress or egress rule.',
      ),
    egressRules: z.array(firewallRule).default([]).describe('Outbound rules; default none.'),
  })
  .describe(
    'A firewall in a network, with ingress and egress rules. Rules are never updated by the API: a changed rule is deleted and recreated.',
  );
type FirewallInputs = z.output<typeof firewallInputs>;

export const firewallOutputs = z.object({
  firewallId: z.string().describe('Id of the firewall (the resource id).'),
  networkId: z.string().describe("Id of the firewall's network."),
});

const DEFAULTS = new Set(['22', '80', '443'].map((p) => `ingress|tcp|${p}|0.0.0.0/0|allow`));
const isDefaultRule = (r: W.FirewallRule) =>
  DEFAULTS.has(`${r.direction}|${r.protocol}|${r.ports || r.start_port}|${(r.cidr ?? []).join(',')}|${r.action}`);
const keyOf = (d: Direction, r: Rule) =>
  [d, r.protocol, r.portRange ?? '', [...r.cidrs].sort().join(','), r.action, r.label ?? ''].join('|');

function ruleOf(r: W.FirewallRule): Rule {
  const ports =
    r.ports ||
    (r.start_port
      ? r.end_port && r.end_port !== r.start_port
        ? `${r.start_port}-${r.end_port}`
        : String(r.start_port)
      : '');
  return defined({
    label: r.label || undefined,
    protocol: r.protocol,
    portRange: ports || undefined,
    cidrs: r.cidr ?? [],
    action: r.action,
  }) as Rule;
}

const wireRule = (d: Direction, r: Rule): W.Body => ({
  protocol: r.protocol,
  ports: r.portRange ?? '',
  start_port: r.portRange?.split('-')[0] ?? '',
  end_port: r.portRange?.split('-')[1] ?? r.portRange ?? '',
  cidr: r.cidrs,
  direction: d,
  action: r.action,
  label: r.label ?? '',
});

function checkRules(inputs: FirewallInputs): CheckIssue[] {
  const issues: CheckIssue[] = [];
  const any = inputs.ingressRules.length + inputs.egressRules.length > 0;
  if (inputs.createDefaultRules && any)
    issues.push({
      path: ['createDefaultRules'],
      code: 'invalid_value',
      message: 'must be false when ingressRules or egressRules are given',
    });
  if (!inputs.createDefaultRules && !any)
    issues.push({
      path: ['ingressRules'],
      code: 'too_small',
      message: 'with createDefaultRules false, define at least one ingress or egress rule',
    });
  for (const d of ['ingressRules', 'egressRules'] as const) {
    inputs[d].forEach((r, i) => {
      if (r.protocol !== 'icmp' && !r.portRange)
        issues.push({
          path: [d, i, 'portRange'],
          code: 'invalid_value',
          message: `is required for protocol ${r.protocol}`,
        });
    });
  }
  return issues;
}

/** The server's rules of one direction, in the order the prior inputs listed them (the API keeps creation order). */
function inPriorOrder(d: Direction, rules: readonly W.FirewallRule[], prior: readonly Rule[] | undefined): Rule[] {
  const order = (prior ?? []).map((r) => keyOf(d, r));
  const rank = (r: Rule) => {
    const i = order.indexOf(keyOf(d, r));
    return i < 0 ? order.length : i;
  };
  return rules
    .filter((x) => x.direction === d)
    .map(ruleOf)
    .map((r, i) => ({ r, i }))
    .sort((a, b) => rank(a.r) - rank(b.r) || a.i - b.i)
    .map((x) => x.r);
}

async function fetchFirewall(ctx: ProvbContext, region: string, id: string): Promise<W.Firewall | null> {
  return (await ctx.config.client.listFirewalls(ctx, region)).find((f) => f.id === id) ?? null;
}

const outputsOf = (f: W.Firewall) => ({ firewallId: f.id, networkId: f.network_id });

/** What read answers for a listed firewall. */
function firewallResult(f: W.Firewall, prior: Prior): ReadResult {
  const r = reporter(prior);
  const rules: W.FirewallRule[] = f.rules ?? [];
  const usesDefaults = r.kept<boolean>('createDefaultRules') ?? rules.filter(isDefaultRule).length === 3;
  const own = usesDefaults ? rules.filter((x) => !isDefaultRule(x)) : rules;
  const inputs: FirewallInputs = defined({
    name: f.name,
    networkId: r.computed('networkId', f.network_id),
    region: r.kept<string>('region'),
    createDefaultRules: usesDefaults,
    ingressRules: inPriorOrder('ingress', own, r.kept<Rule[]>('ingressRules')),
    egressRules: inPriorOrder('egress', own, r.kept<Rule[]>('egressRules')),
  });
  return { inputs, outputs: outputsOf(f) };
}

export const firewall = defineResource({
  token: 'provb:index/firewall:Firewall',
  inputs: firewallInputs,
  outputs: firewallOutputs,
  replaceOn: ['networkId', 'region', 'createDefaultRules'],
  check: (inputs, config: ProvbConfig) => [...checkRegion(inputs, config), ...checkRules(inputs)],
  existing: async (ctx, inputs) => {
    const region = regionOf(ctx, inputs);
    return (await ctx.config.client.listFirewalls(ctx, region)).filter((x) => x.name === inputs.name).map((x) => x.id);
  },
  create: async (ctx, inputs) => {
    const region = regionOf(ctx, inputs);
    const rules = [
      ...inputs.ingressRules.map((r) => wireRule('ingress', r)),
      ...inputs.egressRules.map((r) => wireRule('egress', r)),
    ];
    const res = await ctx.config.client.createFirewall(ctx, region, {
      name: inputs.name,
      network_id: inputs.networkId ?? '',
      create_rules: inputs.createDefaultRules,
      rules,
    });
    const f = await fetchFirewall(ctx, region, res.id);
    return { id: res.id, outputs: f ? outputsOf(f) : { firewallId: res.id, networkId: inputs.networkId ?? '' } };
  },
  read: async (ctx, id, prior) => {
    const f = await fetchFirewall(ctx, priorRegion(ctx, prior), id);
    return f ? firewallResult(f, prior) : null;
  },
  readMany: readByRegion(
    (ctx, region) => ctx.config.client.listFirewalls(ctx, region),
    (f, prior) => firewallResult(f, prior),
  ),
  update: async (ctx, id, olds, news) => {
    const region = regionOf(ctx, news);
    const c = ctx.config.client;
    if ((olds.inputs as FirewallInputs).name !== news.name) await c.renameFirewall(ctx, region, id, news.name);
    const server = await c.listFirewallRules(ctx, region, id);
    const wanted = new Map<string, [Direction, Rule]>();
    for (const r of news.ingressRules) wanted.set(keyOf('ingress', r), ['ingress', r]);
    for (const r of news.egressRules) wanted.set(keyOf('egress', r), ['egress', r]);
    const present = new Set<string>();
    for (const s of server) {
      if (news.createDefaultRules && isDefaultRule(s)) continue;
      const key = keyOf(s.direction, ruleOf(s));
      if (wanted.has(key) && !present.has(key)) present.add(key);
      else await orNull(() => c.deleteFirewallRule(ctx, region, id, s.id)); // 404: already gone (a retry after a lost answer)
    }
    for (const [key, [d, r]] of wanted)
      if (!present.has(key)) await c.createFirewallRule(ctx, region, id, wireRule(d, r));
    const f = await fetchFirewall(ctx, region, id);
    return { outputs: f ? outputsOf(f) : { firewallId: id, networkId: news.networkId ?? '' } };
  },
  delete: async (ctx, id, prior) => {
    const region = priorRegion(ctx, prior);
    // Gone is not found, which the engine's delete step takes as done: before the DELETE, or after
    // one that failed otherwise (a retry whose first attempt took it: the listing says).
    const gone = () => missingObject('delete firewall', `firewall ${id} was not found in ${region}`);
    if (!(await fetchFirewall(ctx, region, id))) throw gone();
    try {
      await ctx.config.client.deleteFirewall(ctx, region, id);
    } catch (error) {
      if (!isNotFound(error) && !(await fetchFirewall(ctx, region, id))) throw gone();
      throw error;
    }
  },
  // find: the firewalls so named that did not exist when the create sent its request (claim.ts).
  find: async (ctx, inputs, hint) => {
    const f = claim(
      hint,
      (await ctx.config.client.listFirewalls(ctx, regionOf(ctx, inputs))).filter((x) => x.name === inputs.name),
      { what: `firewall '${inputs.name}'` },
    );
    return !f || isCannotTell(f) ? f : { id: f.id, outputs: outputsOf(f) };
  },
  importId: (id) => id,
});
