// The fake LXD's instance state: what GET .../state answers (a fake IPv4 on eth0 once the address
// delay has passed), and PUT .../state, the start/stop/restart/freeze transitions as operations.
import type { Route } from '../../../kit/sim/router.js';
import { scoped, type Instance, type SimStore } from './store.js';
import { asyncOp, error, str, sync, type Body } from './wire.js';
import { onStart, onStop } from './volatile.js';
import { expanded, find } from './instance.js';

export function instanceState(s: SimStore, i: Instance) {
  if (!i.running)
    return {
      status: 'Stopped',
      status_code: 102,
      pid: 0,
      processes: 0,
      network: null,
      cpu: { usage: 0 },
      memory: { usage: 0 },
      disk: {},
    };
  const network: Record<string, unknown> = {
    lo: {
      addresses: [
        { family: 'inet', address: '127.0.0.1', netmask: '8', scope: 'local' },
        { family: 'inet6', address: '::1', netmask: '128', scope: 'local' },
      ],
      hwaddr: '',
      state: 'up',
      type: 'loopback',
      mtu: 65536,
      counters: {},
    },
  };
  const up = s.clock() - i.startedAt >= s.options.networkDelayMs;
  for (const [dev, d] of Object.entries(expanded(s, i).devices)) {
    if (d.type !== 'nic') continue;
    const ifname = d.name || dev;
    const hw = i.config[`volatile.${dev}.hwaddr`] ?? '00:16:3e:00:00:00';
    const ll = {
      family: 'inet6',
      address: `fe80::216:3eff:fe00:${i.hostIndex.toString(16)}`,
      netmask: '64',
      scope: 'link',
    };
    const v4 = { family: 'inet', address: `198.18.0.${i.hostIndex}`, netmask: '24', scope: 'global' };
    network[ifname] = {
      addresses: up ? [v4, ll] : [ll],
      hwaddr: hw,
      state: 'up',
      type: 'broadcast',
      mtu: 1500,
      host_name: `veth${i.hostIndex}`,
      counters: {},
    };
  }
  return {
    status: 'Running',
    status_code: 103,
    pid: 1000 + i.hostIndex,
    processes: 2,
    network,
    cpu: { usage: 0 },
    memory: { usage: 0 },
    disk: {},
  };
}

const lifecycleVerb: Record<string, string> = {
  start: 'started',
  stop: 'stopped',
  restart: 'restarted',
  freeze: 'paused',
  unfreeze: 'resumed',
};

/** Names of the instance's nic devices (its own and its profiles'). */
export const nicsOf = (s: SimStore, i: Instance) =>
  Object.entries(expanded(s, i).devices)
    .filter(([, d]) => d.type === 'nic')
    .map(([dev]) => dev);

export const instanceStateRoutes: Route<SimStore>[] = [
  {
    method: 'GET',
    path: '/1.0/instances/:name/state',
    handler: (req, s) => {
      const i = find(s, req);
      return i ? sync(instanceState(s, i)) : error(404, 'Instance not found');
    },
  },
  {
    method: 'PUT',
    path: '/1.0/instances/:name/state',
    handler: (req, s) => {
      const i = find(s, req);
      if (!i) return error(404, 'Instance not found');
      const action = str((req.body as Body | undefined)?.action);
      if (!['start', 'stop', 'restart', 'freeze', 'unfreeze'].includes(action))
        return error(400, `Unknown action: '${action}'`);
      return asyncOp(
        s.operation(
          `${action[0]!.toUpperCase()}${action.slice(1)}ing instance`,
          { instances: [`/1.0/instances/${i.name}`] },
          () => {
            if (action === 'start') {
              if (i.running) throw new Error('The instance is already running');
              i.running = true;
              i.startedAt = s.clock();
              onStart(i, nicsOf(s, i));
            } else if (action === 'stop') {
              if (!i.running) throw new Error('The instance is already stopped');
              i.running = false;
              onStop(i, nicsOf(s, i));
              if (i.ephemeral) s.instances.delete(scoped(i.project, i.name));
            } else if (action === 'restart') {
              onStop(i, nicsOf(s, i));
              i.running = true;
              i.startedAt = s.clock();
              onStart(i, nicsOf(s, i));
            }
            s.events.lifecycle(`instance-${lifecycleVerb[action]}`, `/1.0/instances/${i.name}`, i.project);
          },
          { project: i.project },
        ),
      );
    },
  },
];
