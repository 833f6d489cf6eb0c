// prova:index/network:Network: a managed network (bridge by default). Server-filled keys
// (ipv4.address, ipv6.nat, volatile.*, …) are ignored unless set; outputs come from /state.
import { z } from 'zod';
import { defineResource } from '../../../engine/provider/define.js';
import type { Ctx as ClientCtx, LxdClient } from '../client.js';
import type { ProvaConfig, ProvaContext } from '../config.js';
import { formatId, parseId, scopeInputs } from '../support/ids.js';
import { checkScope } from './checks.js';
import type { CheckIssue } from '../../../engine/provider/define.js';
import { configIssues } from './config-checks.js';
import { findTagged } from '../support/find.js';
import { computedKeys, desiredConfig, observedConfigFor, taggedConfig } from '../support/keys.js';
import { createObject, deleteObject, getObject, projectOf, replaceObject, type Where } from '../support/objects.js';

/**
 * A bridge's name is the host interface LXD creates, so it follows Linux's interface-name rule as
 * LXD checks it (validate.IsInterfaceName): 2 to 15 characters of letters, digits, `-`, `_` and `.`.
 */
export function interfaceNameIssues(name: string, type: string): CheckIssue[] {
  if (type !== 'bridge') return [];
  const problem =
    name.length < 2
      ? 'is too short for a bridge interface (minimum 2 characters)'
      : name.length > 15
        ? `is too long for a bridge interface (${name.length} characters; maximum 15, Linux's limit)`
        : /^[-_a-zA-Z0-9.]+$/.test(name)
          ? undefined
          : 'contains characters a bridge interface cannot have (letters, digits, "-", "_" and "." only)';
  return problem ? [{ path: ['name'], code: 'invalid_interface_name', message: `"${name}" ${problem}` }] : [];
}

const inputs = z
  .object({
    name: z
      .string()
      .min(1)
      .describe('Name of the network, usually the device name instances see. Changing it replaces the network.'),
    type: z
      .enum(['bridge', 'macvlan', 'sriov', 'ovn', 'physical'])
      .default('bridge')
      .describe(
        'Network type: `bridge` (default), `macvlan`, `sriov`, `ovn` or `physical`. Changing it replaces the network.',
      ),
    description: z.string().default('').describe('Free-text description of the network; default empty.'),
    config: z
      .record(z.string(), z.string())
      .default({})
      .describe('Network config settings as LXD key/value strings (e.g. `ipv4.address`, `ipv4.nat`); default empty.'),
    project: z
      .string()
      .optional()
      .describe(
        "Project the network lives in; when omitted, the remote's `default` project is used. Changing it replaces the network.",
      ),
    remote: z
      .string()
      .optional()
      .describe(
        "Name of the remote that holds the network; when omitted, the provider's default remote is used. Changing it replaces the network.",
      ),
    target: z
      .string()
      .optional()
      .describe(
        'Cluster member to create the network on; ignored on a standalone server. Changing it replaces the network.',
      ),
  })
  .describe('A network (by default a managed bridge) that instances attach to through `nic` devices.');
const outputs = z.object({
  managed: z
    .boolean()
    .describe('Whether the network is managed by the server (as opposed to a host interface it only reports).'),
  ipv4Address: z
    .string()
    .describe("The network's IPv4 address in CIDR notation (`ipv4.address`); empty string when none."),
  ipv6Address: z
    .string()
    .describe("The network's IPv6 address in CIDR notation (`ipv6.address`); empty string when none."),
});

export type WireNetwork = {
  name: string;
  description: string;
  type: string;
  managed: boolean;
  status?: string;
  config: Record<string, string>;
  used_by?: string[] | null;
};
export const isNetworkComputed = computedKeys(
  ['volatile.'],
  ['bridge.mtu', 'ipv4.address', 'ipv4.nat', 'ipv6.address', 'ipv6.nat'],
);
const where = (name: string, project?: string, target?: string): Where => ({
  template: '/1.0/networks/{name}',
  params: { name },
  what: `network ${name}`,
  project: projectOf(project),
  target,
});

/** ipv4Address / ipv6Address: the first global address of each family, in CIDR notation. */
export async function networkAddresses(
  ctx: ClientCtx,
  client: LxdClient,
  net: WireNetwork,
  project?: string,
): Promise<{ ipv4Address: string; ipv6Address: string }> {
  const out = { ipv4Address: '', ipv6Address: '' };
  if (!net.managed) return out;
  const st = await getObject<{ addresses?: { family: string; address: string; netmask: string; scope: string }[] }>(
    ctx,
    client,
    {
      ...where(net.name, project),
      template: '/1.0/networks/{name}/state',
      params: { name: net.name },
    },
  ).catch(() => null);
  for (const a of st?.obj.addresses ?? []) {
    if (a.scope !== 'global') continue;
    if (a.family === 'inet' && !out.ipv4Address) out.ipv4Address = `${a.address}/${a.netmask}`;
    if (a.family === 'inet6' && !out.ipv6Address) out.ipv6Address = `${a.address}/${a.netmask}`;
  }
  return out;
}

async function outputsOf(ctx: ProvaContext, client: LxdClient, name: string, project?: string) {
  const got = await getObject<WireNetwork>(ctx, client, where(name, project));
  if (!got) return null;
  return {
    net: got.obj,
    outputs: { managed: got.obj.managed, ...(await networkAddresses(ctx, client, got.obj, project)) },
  };
}

export const network = defineResource({
  token: 'prova:index/network:Network',
  inputs,
  outputs,
  replaceOn: ['name', 'type', 'project', 'remote', 'target'],
  computedOnUpdate: ['ipv4Address', 'ipv6Address'],
  check: (i, config: ProvaConfig) => [
    ...interfaceNameIssues(i.name, i.type),
    ...checkScope(i, config),
    ...configIssues(i.config, { kind: 'network', sub: i.type }),
  ],
  async create(ctx: ProvaContext, i) {
    const client = await ctx.config.client(ctx, i.remote);
    await createObject(
      ctx,
      client,
      { template: '/1.0/networks', what: 'network', project: projectOf(i.project) },
      { name: i.name, type: i.type, description: i.description, config: taggedConfig(i.config, ctx.operationId) },
    );
    const got = (await outputsOf(ctx, client, i.name, i.project))!;
    return { id: formatId(client.remote, i.project, [i.name]), outputs: got.outputs };
  },
  async read(ctx: ProvaContext, id, prior) {
    const ref = parseId(id, 1, ctx.config.settings.defaultRemote, 'network');
    const client = await ctx.config.client(ctx, ref.remote);
    const got = await outputsOf(ctx, client, ref.fields[0]!, ref.project);
    if (!got) return null;
    const userConfig = (prior.inputs.config as Record<string, string> | undefined) ?? {};
    return {
      id: formatId(ref.remote, ref.project, [got.net.name]),
      inputs: {
        name: got.net.name,
        type: got.net.type,
        description: got.net.description,
        config: observedConfigFor(got.net.config, userConfig, isNetworkComputed),
        ...scopeInputs(prior.inputs, ref, ctx.config.settings.defaultRemote),
      },
      outputs: got.outputs,
    };
  },
  async update(ctx: ProvaContext, id, _olds, news) {
    const ref = parseId(id, 1, ctx.config.settings.defaultRemote, 'network');
    const client = await ctx.config.client(ctx, ref.remote);
    await replaceObject<WireNetwork>(ctx, client, where(ref.fields[0]!, ref.project), (cur) => ({
      description: news.description,
      config: desiredConfig(cur.config, news.config, isNetworkComputed),
    }));
    return { outputs: (await outputsOf(ctx, client, ref.fields[0]!, ref.project))!.outputs };
  },
  async delete(ctx: ProvaContext, id) {
    const ref = parseId(id, 1, ctx.config.settings.defaultRemote, 'network');
    await deleteObject(ctx, await ctx.config.client(ctx, ref.remote), where(ref.fields[0]!, ref.project));
  },
  /** Exact: the network of this name carrying the create's operation id (config user.converge.operation). */
  async find(ctx: ProvaContext, i, hint) {
    const client = await ctx.config.client(ctx, i.remote);
    if (!(await findTagged<WireNetwork>(ctx, client, where(i.name, i.project), hint))) return null;
    const got = await outputsOf(ctx, client, i.name, i.project);
    return got ? { id: formatId(client.remote, i.project, [i.name]), outputs: got.outputs } : null;
  },
  importId: (importId, config: ProvaConfig) => {
    const ref = parseId(importId, 1, config.settings.defaultRemote, 'network');
    return formatId(ref.remote, ref.project, ref.fields);
  },
});
