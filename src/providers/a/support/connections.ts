// The provider's connections: one LxdClient per remote, made lazily and cached (unix socket
// directly, HTTPS through the trust handshake), plus the settings every handler reads: the
// provider's `ProvaConfig` (config.ts).
import { Agent } from 'undici';
import { ConfigError } from '../../../engine/errors.js';
import { LxdClient, type Ctx } from '../client.js';
import type { ProvaConfig, ProvaSettings } from '../config.js';
import { joinHttpsRemote } from './trust.js';

export function makeConnections(settings: ProvaSettings): ProvaConfig {
  const clients = new Map<string, Promise<LxdClient>>();
  const opened = new Map<string, LxdClient>();
  const agents: Agent[] = [];
  const remoteName = (remote?: string) => remote || settings.defaultRemote;
  const open = async (ctx: Ctx, name: string): Promise<LxdClient> => {
    const remote = settings.remotes.get(name);
    if (!remote)
      throw new ConfigError(
        'prova',
        'remote',
        `names an unknown remote "${name}" (known: ${[...settings.remotes.keys()].join(', ')})`,
      );
    if (remote.protocol !== 'lxd')
      throw new ConfigError('prova', 'remote', `"${name}" is a ${remote.protocol} image server, not an LXD server`);
    if (remote.address.startsWith('unix:')) {
      const socketPath = remote.address.slice('unix://'.length);
      const agent = new Agent({ connect: { socketPath } });
      agents.push(agent);
      return new LxdClient({
        remote: name,
        baseUrl: 'http://lxd',
        dispatcher: agent,
        operationWaitSeconds: settings.operationWaitSeconds,
      });
    }
    if (remote.address.startsWith('http:')) {
      return new LxdClient({
        remote: name,
        baseUrl: remote.address,
        operationWaitSeconds: settings.operationWaitSeconds,
      });
    }
    const { client, agent } = await joinHttpsRemote(ctx, remote, settings);
    agents.push(agent);
    return client;
  };
  return {
    settings,
    remoteName,
    client(ctx, remote) {
      const name = remoteName(remote);
      let c = clients.get(name);
      if (!c) {
        c = open(ctx, name);
        clients.set(name, c);
        // The server's facts are read once in the background, so plan-time checks (target on a
        // standalone server) know them after the first request to the remote.
        c.then(
          (x) => {
            opened.set(name, x);
            x.server(ctx).catch(() => {});
          },
          () => {},
        );
        c.catch(() => clients.delete(name));
      }
      return c;
    },
    serverKnown(remote) {
      return opened.get(remoteName(remote))?.serverKnown;
    },
    async close() {
      clients.clear();
      opened.clear();
      await Promise.all(agents.splice(0).map((a) => a.close().catch(() => {})));
    },
  };
}
