// prova:index/networkAcl:NetworkAcl: ingress and egress rules; updates PUT the whole ACL with
// If-Match (PATCH would empty the rule lists). ICMP fields are sent only for icmp4/icmp6.
import { z } from 'zod';
import { aclRuleIssues, userConfigIssues } from './rules.js';
import { defineResource } from '../../../engine/provider/define.js';
import type { ProvaConfig, ProvaContext } from '../config.js';
import { formatId, parseId, scopeInputs } from '../support/ids.js';
import { checkScope } from './checks.js';
import { findTagged } from '../support/find.js';
import { computedKeys, desiredConfig, observedConfigFor, taggedConfig } from '../support/keys.js';
import { createObject, deleteObject, getObject, projectOf, replaceObject, type Where } from '../support/objects.js';

export const ruleSchema = z.object({
  action: z
    .enum(['allow', 'drop', 'reject'])
    .describe('What to do with matching traffic: `allow`, `drop` or `reject`.'),
  state: z
    .enum(['enabled', 'disabled', 'logged'])
    .describe('Rule state: `enabled`, `disabled` or `logged` (enabled, and matches are logged).'),
  source: z
    .string()
    .default('')
    .describe('Comma-separated sources (CIDRs, IP ranges, ACL names or `@internal`/`@external`); default empty (any).'),
  destination: z
    .string()
    .default('')
    .describe('Comma-separated destinations (CIDRs, IP ranges or ACL names); default empty (any).'),
  destinationPort: z
    .string()
    .default('')
    .describe(
      'Comma-separated destination ports or ranges (e.g. `22,8000-8080`) for `tcp`/`udp`; default empty (any).',
    ),
  protocol: z
    .enum(['', 'tcp', 'udp', 'icmp4', 'icmp6'])
    .default('')
    .describe('Protocol to match: `tcp`, `udp`, `icmp4`, `icmp6`, or empty (default) for any.'),
  icmpType: z.string().default('').describe('ICMP message type number, for `icmp4`/`icmp6` only; default empty (any).'),
  icmpCode: z.string().default('').describe('ICMP message code number, for `icmp4`/`icmp6` only; default empty (any).'),
  description: z.string().default('').describe('Free-text description of the rule; default empty.'),
});
export type Rule = z.output<typeof ruleSchema>;
type WireRule = Record<string, string | undefined>;
export type WireAcl = {
  name: string;
  description: string;
  config: Record<string, string>;
  ingress: WireRule[] | null;
  egress: WireRule[] | null;
  used_by?: string[];
};

const inputs = z
  .object({
    name: z.string().min(1).describe('Name of the ACL. Changing it replaces the ACL.'),
    description: z.string().default('').describe('Free-text description of the ACL; default empty.'),
    config: z
      .record(z.string(), z.string())
      .default({})
      .describe('ACL config settings as LXD key/value strings; default empty.'),
    ingresses: z
      .array(ruleSchema)
      .default([])
      .describe('Rules for traffic coming into the instances the ACL is applied to; default none.'),
    egresses: z
      .array(ruleSchema)
      .default([])
      .describe('Rules for traffic leaving the instances the ACL is applied to; default none.'),
    project: z
      .string()
      .optional()
      .describe(
        "Project the ACL lives in; when omitted, the remote's `default` project is used. Changing it replaces the ACL.",
      ),
    remote: z
      .string()
      .optional()
      .describe(
        "Name of the remote that holds the ACL; when omitted, the provider's default remote is used. Changing it replaces the ACL.",
      ),
  })
  .describe('A network ACL: named ingress and egress rules that networks and NICs can reference by name.');

const isComputed = computedKeys(['volatile.']);
const where = (name: string, project?: string): Where => ({
  template: '/1.0/network-acls/{name}',
  params: { name },
  what: `network ACL ${name}`,
  project: projectOf(project),
});

export function ruleToWire(r: Rule): WireRule {
  const icmp = r.protocol === 'icmp4' || r.protocol === 'icmp6';
  return {
    action: r.action,
    state: r.state,
    source: r.source,
    destination: r.destination,
    protocol: r.protocol,
    description: r.description,
    destination_port: r.destinationPort,
    ...(icmp ? { icmp_type: r.icmpType, icmp_code: r.icmpCode } : {}),
  };
}

export function ruleFromWire(w: WireRule): Rule {
  return {
    action: w.action as Rule['action'],
    state: w.state as Rule['state'],
    source: w.source ?? '',
    destination: w.destination ?? '',
    destinationPort: w.destination_port ?? '',
    protocol: (w.protocol ?? '') as Rule['protocol'],
    icmpType: w.icmp_type ?? '',
    icmpCode: w.icmp_code ?? '',
    description: w.description ?? '',
  };
}

export const networkAcl = defineResource({
  token: 'prova:index/networkAcl:NetworkAcl',
  inputs,
  outputs: z.object({}),
  check: (i, config: ProvaConfig) => [
    ...checkScope(i, config),
    ...userConfigIssues(i.config),
    ...i.ingresses.flatMap((r, n) => aclRuleIssues(r, ['ingresses', n])),
    ...i.egresses.flatMap((r, n) => aclRuleIssues(r, ['egresses', n])),
  ],
  replaceOn: ['name', 'project', 'remote'],
  async create(ctx: ProvaContext, i) {
    const client = await ctx.config.client(ctx, i.remote);
    await createObject(
      ctx,
      client,
      { template: '/1.0/network-acls', what: 'network ACL', project: projectOf(i.project) },
      {
        name: i.name,
        description: i.description,
        config: taggedConfig(i.config, ctx.operationId),
        ingress: i.ingresses.map(ruleToWire),
        egress: i.egresses.map(ruleToWire),
      },
    );
    return { id: formatId(client.remote, i.project, [i.name]), outputs: {} };
  },
  async read(ctx: ProvaContext, id, prior) {
    const ref = parseId(id, 1, ctx.config.settings.defaultRemote, 'network ACL');
    const got = await getObject<WireAcl>(
      ctx,
      await ctx.config.client(ctx, ref.remote),
      where(ref.fields[0]!, ref.project),
    );
    if (!got) return null;
    const a = got.obj;
    return {
      id: formatId(ref.remote, ref.project, [a.name]),
      inputs: {
        name: a.name,
        description: a.description,
        config: observedConfigFor(a.config, (prior.inputs.config as Record<string, string>) ?? {}, isComputed),
        ingresses: (a.ingress ?? []).map(ruleFromWire),
        egresses: (a.egress ?? []).map(ruleFromWire),
        ...scopeInputs(prior.inputs, ref, ctx.config.settings.defaultRemote),
      },
      outputs: {},
    };
  },
  async update(ctx: ProvaContext, id, _olds, news) {
    const ref = parseId(id, 1, ctx.config.settings.defaultRemote, 'network ACL');
    await replaceObject<WireAcl>(
      ctx,
      await ctx.config.client(ctx, ref.remote),
      where(ref.fields[0]!, ref.project),
      (cur) => ({
        description: news.description,
        config: desiredConfig(cur.config, news.config, isComputed),
        ingress: news.ingresses.map(ruleToWire),
        egress: news.egresses.map(ruleToWire),
      }),
    );
    return { outputs: {} };
  },
  async delete(ctx: ProvaContext, id) {
    const ref = parseId(id, 1, ctx.config.settings.defaultRemote, 'network ACL');
    await deleteObject(ctx, await ctx.config.client(ctx, ref.remote), where(ref.fields[0]!, ref.project));
  },
  /** Exact: the ACL of this name carrying the create's operation id (config user.converge.operation). */
  async find(ctx: ProvaContext, i, hint) {
    const client = await ctx.config.client(ctx, i.remote);
    return (await findTagged<WireAcl>(ctx, client, where(i.name, i.project), hint))
      ? { id: formatId(client.remote, i.project, [i.name]), outputs: {} }
      : null;
  },
  importId: (importId, config: ProvaConfig) => {
    const ref = parseId(importId, 1, config.settings.defaultRemote, 'network ACL');
    return formatId(ref.remote, ref.project, ref.fields);
  },
});
