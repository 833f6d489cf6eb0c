// The instance lookup: an existing container or VM with its config, devices, state and addresses.
import { z } from 'zod';
import { defineLookup } from '../../../engine/provider/define.js';
import { fromWire } from '../support/devices.js';
import { formatId } from '../support/ids.js';
import { projectOf } from '../support/objects.js';
import { getInstance as fetchInstance, readOutputs, splitConfig } from '../support/instances.js';
import { isRunning, readState } from '../support/runtime.js';
import { remote, project, check, notFound } from './shared.js';
import type { ProvaContext } from '../config.js';

export const getInstance = defineLookup({
  token: 'prova:index/getInstance:getInstance',
  check,
  args: z
    .object({ name: z.string().min(1).describe('Name of the instance.'), project, remote })
    .describe('Reads an instance (config, devices, addresses, status) by name.'),
  async run(ctx: ProvaContext, a) {
    const client = await ctx.config.client(ctx, a.remote);
    const got = await fetchInstance(ctx, client, a.name, projectOf(a.project));
    if (!got) throw notFound('prova:index/getInstance:getInstance', `name=${a.name}`);
    const w = got.instance;
    const state = await readState(ctx, client, w.name, projectOf(a.project));
    const out = await readOutputs(ctx, client, w, projectOf(a.project));
    const split = splitConfig(w.config);
    const devices = Object.fromEntries(fromWire(w.devices).map((d) => [d.name, d]));
    return {
      id: formatId(client.remote, a.project, [w.name]),
      name: w.name,
      description: w.description,
      type: w.type,
      ephemeral: w.ephemeral,
      running: isRunning(state),
      status: out.status,
      location: out.location,
      ipv4Address: out.ipv4Address,
      ipv6Address: out.ipv6Address,
      macAddress: out.macAddress,
      interfaces: out.interfaces,
      config: split.config,
      limits: split.limits,
      profiles: w.profiles ?? [],
      devices,
      project: a.project ?? 'default',
      remote: client.remote,
    };
  },
});
