// The server lookup: what the remote is (version, API extensions, clustering, storage and networks it offers).
import { z } from 'zod';
import { defineLookup } from '../../../engine/provider/define.js';
import { remote, check } from './shared.js';
import type { ProvaContext } from '../config.js';

type WireMember = {
  server_name: string;
  url: string;
  status: string;
  message?: string;
  architecture?: string;
  roles?: string[];
  failure_domain?: string;
  description?: string;
  groups?: string[];
};

export const getInfo = defineLookup({
  token: 'prova:index/getInfo:getInfo',
  check,
  args: z
    .object({ remote })
    .describe("Reads facts about the remote's server: API extensions, cluster members and supported instance types."),
  async run(ctx: ProvaContext, a) {
    const client = await ctx.config.client(ctx, a.remote);
    const s = await client.server(ctx, true);
    const members: Record<string, unknown> = {};
    if (s.environment?.server_clustered) {
      const list =
        (
          await client.request<WireMember[]>(ctx, {
            method: 'GET',
            pathTemplate: '/1.0/cluster/members',
            operation: 'list cluster members',
            query: { recursion: '1' },
          })
        ).metadata ?? [];
      for (const m of list)
        members[m.server_name] = {
          url: m.url,
          status: m.status,
          message: m.message ?? '',
          architecture: m.architecture ?? '',
          roles: m.roles ?? [],
          failureDomain: m.failure_domain ?? '',
          description: m.description ?? '',
          groups: m.groups ?? [],
        };
    }
    const driver = s.environment?.driver ?? '';
    const instanceTypes = s.environment?.instance_types ?? [
      ...(driver.includes('lxc') ? ['container'] : []),
      ...(driver.includes('qemu') ? ['virtual-machine'] : []),
    ];
    return {
      id: client.remote,
      apiExtensions: s.api_extensions,
      clusterMembers: members,
      instanceTypes,
      remote: client.remote,
    };
  },
});
