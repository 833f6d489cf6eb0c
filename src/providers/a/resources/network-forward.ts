// prova:index/networkForward:NetworkForward: port forwards from a listen address on a network.
// Keyed by network and listen address (no rename); updates PUT the whole forward with If-Match.
import { isIP } from 'node:net';
import { z } from 'zod';
import { forwardPortIssues, userConfigIssues } from './rules.js';
import { defineResource } from '../../../engine/provider/define.js';
import type { ProvaConfig, ProvaContext } from '../config.js';
import { formatId, parseId, scopeInputs } from '../support/ids.js';
import { checkScope } from './checks.js';
import { findTagged } from '../support/find.js';
import { computedKeys, desiredConfig, observedConfigFor, taggedConfig } from '../support/keys.js';
import { createObject, deleteObject, getObject, projectOf, replaceObject, type Where } from '../support/objects.js';

const portSchema = z.object({
  protocol: z.enum(['tcp', 'udp']).describe('Protocol forwarded: `tcp` or `udp`.'),
  listenPort: z
    .string()
    .min(1)
    .describe('Port(s) to listen on, as a number, a range or a comma-separated list (e.g. `80,8000-8010`).'),
  targetAddress: z
    .string()
    .min(1)
    .describe("IP address traffic is forwarded to (usually an instance's address on the network)."),
  targetPort: z
    .string()
    .default('')
    .describe('Target port(s), in the same form as `listenPort`; default empty (the same as `listenPort`).'),
  description: z.string().default('').describe('Free-text description of the port rule; default empty.'),
});
type Port = z.output<typeof portSchema>;
type WirePort = {
  protocol: string;
  listen_port: string;
  target_address: string;
  target_port?: string;
  description?: string;
};
type WireForward = {
  listen_address: string;
  description: string;
  config: Record<string, string>;
  ports: WirePort[] | null;
  location?: string;
};

const inputs = z
  .object({
    network: z
      .string()
      .min(1)
      .describe('Name of the network the forward belongs to. Changing it replaces the forward.'),
    listenAddress: z
      .string()
      .min(1)
      .describe(
        'IP address to listen on; identifies the forward within its network. Changing it replaces the forward.',
      ),
    description: z.string().default('').describe('Free-text description of the forward; default empty.'),
    config: z
      .record(z.string(), z.string())
      .default({})
      .describe(
        'Forward config settings as LXD key/value strings (e.g. `target_address` for a default target); default empty.',
      ),
    ports: z.array(portSchema).default([]).describe('Port forwarding rules; default none.'),
    project: z
      .string()
      .optional()
      .describe(
        "Project the forward lives in; when omitted, the remote's `default` project is used. Changing it replaces the forward.",
      ),
    remote: z
      .string()
      .optional()
      .describe(
        "Name of the remote that holds the forward; when omitted, the provider's default remote is used. Changing it replaces the forward.",
      ),
  })
  .describe(
    'A network forward: traffic to a listen address on a network is forwarded to internal addresses, per port.',
  );

const isComputed = computedKeys(['volatile.']);
const where = (network: string, listen: string, project?: string): Where => ({
  template: '/1.0/networks/{network}/forwards/{listenAddress}',
  params: { network, listenAddress: listen },
  what: `network forward ${listen} on ${network}`,
  project: projectOf(project),
});
const toWire = (p: Port): WirePort => ({
  protocol: p.protocol,
  listen_port: p.listenPort,
  target_address: p.targetAddress,
  target_port: p.targetPort,
  description: p.description,
});
const fromWire = (w: WirePort): Port => ({
  protocol: w.protocol as Port['protocol'],
  listenPort: w.listen_port,
  targetAddress: w.target_address,
  targetPort: w.target_port ?? '',
  description: w.description ?? '',
});
const idOf = (id: string, config: ProvaConfig) => parseId(id, 2, config.settings.defaultRemote, 'network forward');

export const networkForward = defineResource({
  token: 'prova:index/networkForward:NetworkForward',
  inputs,
  outputs: z.object({}),
  replaceOn: ['network', 'listenAddress', 'project', 'remote'],
  check: (i, config: ProvaConfig) => [
    ...checkScope(i, config),
    ...(isIP(i.listenAddress)
      ? []
      : [{ path: ['listenAddress'], code: 'invalid_format', message: 'must be an IPv4 or IPv6 address to listen on' }]),
    ...userConfigIssues(i.config, ['target_address']),
    ...(i.config.target_address !== undefined && !isIP(i.config.target_address)
      ? [{ path: ['config', 'target_address'], code: 'invalid_format', message: 'must be an IP address' }]
      : []),
    ...i.ports.flatMap((p, n) => forwardPortIssues(p, ['ports', n])),
  ],
  async create(ctx: ProvaContext, i) {
    const client = await ctx.config.client(ctx, i.remote);
    await createObject(
      ctx,
      client,
      {
        template: '/1.0/networks/{network}/forwards',
        params: { network: i.network },
        what: 'network forward',
        project: projectOf(i.project),
      },
      {
        listen_address: i.listenAddress,
        description: i.description,
        config: taggedConfig(i.config, ctx.operationId),
        ports: i.ports.map(toWire),
      },
    );
    return { id: formatId(client.remote, i.project, [i.network, i.listenAddress]), outputs: {} };
  },
  async read(ctx: ProvaContext, id, prior) {
    const ref = idOf(id, ctx.config);
    const [network, listen] = ref.fields as [string, string];
    const got = await getObject<WireForward>(
      ctx,
      await ctx.config.client(ctx, ref.remote),
      where(network, listen, ref.project),
    );
    if (!got) return null;
    const f = got.obj;
    return {
      id: formatId(ref.remote, ref.project, [network, f.listen_address]),
      inputs: {
        network,
        listenAddress: f.listen_address,
        description: f.description,
        config: observedConfigFor(f.config, (prior.inputs.config as Record<string, string>) ?? {}, isComputed),
        ports: (f.ports ?? []).map(fromWire),
        ...scopeInputs(prior.inputs, ref, ctx.config.settings.defaultRemote),
      },
      outputs: {},
    };
  },
  async update(ctx: ProvaContext, id, _olds, news) {
    const ref = idOf(id, ctx.config);
    await replaceObject<WireForward>(
      ctx,
      await ctx.config.client(ctx, ref.remote),
      where(ref.fields[0]!, ref.fields[1]!, ref.project),
      (cur) => ({
        description: news.description,
        config: desiredConfig(cur.config, news.config, isComputed),
        ports: news.ports.map(toWire),
      }),
    );
    return { outputs: {} };
  },
  async delete(ctx: ProvaContext, id) {
    const ref = idOf(id, ctx.config);
    await deleteObject(
      ctx,
      await ctx.config.client(ctx, ref.remote),
      where(ref.fields[0]!, ref.fields[1]!, ref.project),
    );
  },
  /** Exact: the forward on this listen address carrying the create's operation id (config user.converge.operation). */
  async find(ctx: ProvaContext, i, hint) {
    const client = await ctx.config.client(ctx, i.remote);
    return (await findTagged<WireForward>(ctx, client, where(i.network, i.listenAddress, i.project), hint))
      ? { id: formatId(client.remote, i.project, [i.network, i.listenAddress]), outputs: {} }
      : null;
  },
  importId: (importId, config: ProvaConfig) => {
    const ref = idOf(importId, config);
    return formatId(ref.remote, ref.project, ref.fields);
  },
});
