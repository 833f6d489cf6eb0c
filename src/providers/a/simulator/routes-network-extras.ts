// The fake LXD's network extras: a network's state and DHCP leases, and its forwards.
import type { Route, SimRequest } from '../../../kit/sim/router.js';
import { scoped, sha256, type SimStore } from './store.js';
import { expanded } from './instance.js';
import { created, error, etagMismatch, map, projectOf, recursion, str, sync, type Body } from './wire.js';

const forwardKey = (req: SimRequest, addr: string) => `${projectOf(req)}/${req.params.network}/${addr}`;

export const networkExtraRoutes: Route<SimStore>[] = [
  {
    method: 'GET',
    path: '/1.0/networks/:name/state',
    handler: (req, s) => {
      const n = s.networks.get(scoped(projectOf(req), req.params.name!));
      if (!n) return error(404, 'Network not found');
      const cfg = (n.config ?? {}) as Record<string, string>;
      const addresses = ['ipv4.address', 'ipv6.address']
        .filter((k) => cfg[k] && cfg[k] !== 'none')
        .map((k) => {
          const [address, netmask] = cfg[k]!.split('/');
          return { family: k.startsWith('ipv4') ? 'inet' : 'inet6', address, netmask, scope: 'global' };
        });
      const hwaddr = `00:16:3e:${sha256(n.name).slice(0, 2)}:${sha256(n.name).slice(2, 4)}:${sha256(n.name).slice(4, 6)}`;
      const bridge =
        n.type === 'bridge'
          ? {
              id: `8000.${hwaddr.replace(/:/g, '')}`,
              stp: false,
              forward_delay: 1500,
              vlan_default: 0,
              vlan_filtering: false,
              upper_devices: [...s.instances.values()]
                .filter((i) => i.running)
                .flatMap((i) =>
                  Object.entries(i.config)
                    .filter(([k]) => /^volatile\.[^.]+\.host_name$/.test(k))
                    .map(([, v]) => v),
                ),
            }
          : null;
      return sync({
        addresses,
        counters: { bytes_received: 0, bytes_sent: 0, packets_received: 0, packets_sent: 0 },
        hwaddr,
        mtu: 1500,
        state: 'up',
        type: 'broadcast',
        bond: null,
        bridge,
        vlan: null,
        ovn: null,
      });
    },
  },
  {
    method: 'GET',
    path: '/1.0/networks/:name/leases',
    handler: (req, s) => {
      const n = s.networks.get(scoped(projectOf(req), req.params.name!));
      if (!n) return error(404, 'Network not found');
      const cfg = (n.config ?? {}) as Record<string, string>;
      const gateways = ['ipv4.address', 'ipv6.address']
        .filter((k) => cfg[k] && cfg[k] !== 'none')
        .map((k) => ({
          hostname: `${n.name}.gw`,
          address: cfg[k]!.split('/')[0],
          hwaddr: '',
          type: 'gateway',
          location: '',
        }));
      const leases = [...s.instances.values()]
        .filter((i) => i.running && i.project === projectOf(req))
        .flatMap((i) =>
          Object.entries(expanded(s, i).devices)
            .filter(
              ([, d]) =>
                d.type === 'nic' && d.network === n.name && s.clock() - i.startedAt >= s.options.networkDelayMs,
            )
            .map(([dev]) => ({
              hostname: i.name,
              address: `198.18.0.${i.hostIndex}`,
              hwaddr: i.config[`volatile.${dev}.hwaddr`] ?? '',
              type: 'dynamic',
              location: '',
            })),
        );
      return sync([...gateways, ...leases]);
    },
  },
  {
    method: 'GET',
    path: '/1.0/networks/:network/forwards',
    handler: (req, s) => {
      const prefix = `${projectOf(req)}/${req.params.network}/`;
      const list = [...s.forwards.entries()].filter(([k]) => k.startsWith(prefix)).map(([, f]) => f);
      return sync(recursion(req) ? list : list.map((f) => `/1.0/networks/${req.params.network}/forwards/${f.name}`));
    },
  },
  {
    method: 'POST',
    path: '/1.0/networks/:network/forwards',
    handler: (req, s) => {
      if (!s.networks.has(scoped(projectOf(req), req.params.network!))) return error(404, 'Network not found');
      const b = (req.body ?? {}) as Body;
      const addr = str(b.listen_address);
      if (s.forwards.has(forwardKey(req, addr))) return error(409, 'A forward for that listen address already exists');
      const ports = (Array.isArray(b.ports) ? b.ports : []) as Record<string, string>[];
      const bad = ports.findIndex((p) => !p.target_address);
      if (bad >= 0) return error(500, `Invalid target address in port specification ${bad}`);
      s.forwards.set(forwardKey(req, addr), {
        name: addr,
        listen_address: addr,
        description: str(b.description),
        config: map(b.config),
        ports: ports.map((p) => ({ description: '', target_port: '', ...p })),
        location: 'none',
      });
      return created(`/1.0/networks/${req.params.network}/forwards/${addr}`);
    },
  },
  {
    method: 'GET',
    path: '/1.0/networks/:network/forwards/:addr',
    handler: (req, s) => {
      const f = s.forwards.get(forwardKey(req, req.params.addr!));
      if (!f) return error(404, 'Network forward not found');
      const { name: _n, ...view } = f;
      return sync(view, { etag: view });
    },
  },
  {
    method: 'PUT',
    path: '/1.0/networks/:network/forwards/:addr',
    handler: (req, s) => {
      const f = s.forwards.get(forwardKey(req, req.params.addr!));
      if (!f) return error(404, 'Network forward not found');
      const { name: _n, ...view } = f;
      const mismatch = etagMismatch(req, view);
      if (mismatch) return mismatch;
      const b = (req.body ?? {}) as Body;
      Object.assign(f, {
        description: str(b.description),
        config: map(b.config),
        ports: ((Array.isArray(b.ports) ? b.ports : []) as Record<string, string>[]).map((p) => ({
          description: '',
          target_port: '',
          ...p,
        })),
      });
      return sync({});
    },
  },
  {
    method: 'DELETE',
    path: '/1.0/networks/:network/forwards/:addr',
    handler: (req, s) =>
      s.forwards.delete(forwardKey(req, req.params.addr!)) ? sync({}) : error(404, 'Network forward not found'),
  },
];
