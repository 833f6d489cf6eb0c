// The simulator's in-memory account: per-region objects in wire shape (snake_case, each carrying its
// `region`), the default network and firewall of every region, and delayed status transitions that
// run when the next request arrives (no timers: a test's clock is the requests it makes).
import { createHash, randomUUID } from 'node:crypto';
import type { Wire } from './object.js';
import { regions } from './catalogue.js';
import { defaultQuotaLimits, type QuotaLimits } from './quota-limits.js';
import { systemClock, type Clock } from '../../../kit/sim/clock.js';

/** How long each asynchronous transition takes, in ms (0: done by the next request). */
export type SimTimings = {
  readonly instance: number;
  readonly cluster: number;
  readonly pool: number;
  readonly database: number;
  readonly volume: number;
  readonly ip: number;
  readonly objectStore: number;
  readonly credential: number;
};

export const defaultTimings: SimTimings = Object.freeze({
  instance: 50,
  cluster: 80,
  pool: 50,
  database: 50,
  volume: 20,
  ip: 20,
  objectStore: 30,
  credential: 20,
});

/** The request budget the `x-ratelimit-*` headers describe, per window. */
export const RATE_LIMIT = 600;
const RATE_WINDOW_MS = 60_000;

type Due = { readonly at: number; readonly run: () => void };

export class SimStore {
  readonly accountId = 'acc-00000000-0000-4000-8000-000000000001';
  readonly timings: SimTimings;
  readonly instances = new Map<string, Wire>();
  readonly networks = new Map<string, Wire>();
  readonly subnets = new Map<string, Wire>();
  /** Subnet routes ({id, subnet_id, network_id, resource_id, resource_type}). */
  readonly routes = new Map<string, Wire>();
  readonly firewalls = new Map<string, Wire>();
  readonly volumes = new Map<string, Wire>();
  readonly ips = new Map<string, Wire>();
  readonly loadbalancers = new Map<string, Wire>();
  readonly clusters = new Map<string, Wire>();
  readonly databases = new Map<string, Wire>();
  readonly domains = new Map<string, Wire>();
  readonly records = new Map<string, Wire>();
  readonly sshkeys = new Map<string, Wire>();
  readonly objectStores = new Map<string, Wire>();
  readonly credentials = new Map<string, Wire>();
  /** An instance's own public address, restored when a reserved IP is unassigned. */
  readonly ephemeralIps = new Map<string, string>();
  /** VNC sessions by instance id ({uri, expiration}). */
  readonly vnc = new Map<string, Wire>();
  /** Firewalls the API made from a create's `firewall_rule`, by the id of the object they were made for. */
  readonly madeFirewalls = new Map<string, string>();
  /**
   * The requests per minute the `x-ratelimit-*` headers advertise (Civo's documented 600); raise it
   * to set up large tests quickly. A new limit starts a new window: the requests counted under the
   * old one do not spend the new one's allowance.
   */
  get rateLimitPerMinute(): number {
    return this.#rateLimit;
  }
  set rateLimitPerMinute(limit: number) {
    this.#rateLimit = limit;
    this.#rateWindow = { start: 0, used: 0 };
  }
  #rateLimit = RATE_LIMIT;
  /** The account's quota limits (GET /v2/quota); creates over them are refused. A test may lower them. */
  quotaLimits: QuotaLimits = { ...defaultQuotaLimits };
  #due: Due[] = [];
  #rateWindow = { start: 0, used: 0 };
  #counter = 10;

  /** The store's time: every transition and timestamp reads it, so a test can move it (manualClock). */
  readonly clock: Clock;

  constructor(timings: Partial<SimTimings> = {}, clock: Clock = systemClock) {
    this.timings = { ...defaultTimings, ...timings };
    this.clock = clock;
    for (const r of regions) this.#seedRegion(r.code as string);
  }

  /** Runs `fn` once `ms` have passed, at the first request after that. */
  schedule(ms: number, run: () => void): void {
    if (ms <= 0) {
      run();
      return;
    }
    this.#due.push({ at: this.clock() + ms, run });
  }

  /** Applies every transition that is due (called before each request is handled). */
  tick(): void {
    const now = this.clock();
    const ready = this.#due.filter((d) => d.at <= now);
    this.#due = this.#due.filter((d) => d.at > now);
    for (const d of ready) d.run();
  }

  /** Finishes every pending transition now. */
  settleAll(): void {
    const all = this.#due;
    this.#due = [];
    for (const d of all) d.run();
  }

  /** `x-ratelimit-limit/remaining/reset` for one answer: a fixed window per minute, counted, never enforced. */
  rateLimitHeaders(now = this.clock()): Record<string, string> {
    const w = this.#rateWindow;
    if (now - w.start >= RATE_WINDOW_MS) {
      w.start = now - (now % RATE_WINDOW_MS);
      w.used = 0;
    }
    w.used++;
    return {
      'x-ratelimit-limit': String(this.rateLimitPerMinute),
      'x-ratelimit-remaining': String(Math.max(0, this.rateLimitPerMinute - w.used)),
      'x-ratelimit-reset': String(Math.ceil((w.start + RATE_WINDOW_MS) / 1000)),
    };
  }

  id(): string {
    return randomUUID();
  }
  now(): string {
    return new Date(this.clock()).toISOString();
  }
  /** A fresh address: 'public' from a documentation range, 'private' inside 192.168.x. */
  address(kind: 'public' | 'private'): string {
    const n = this.#counter++;
    return kind === 'public'
      ? `74.220.${Math.floor(n / 250) % 250}.${(n % 250) + 2}`
      : `192.168.${Math.floor(n / 250) % 250}.${(n % 250) + 2}`;
  }
  secret(bytes = 12): string {
    return createHash('sha256')
      .update(randomUUID())
      .digest('base64url')
      .slice(0, bytes * 2);
  }
  fingerprint(publicKey: string): string {
    return `SHA256:${createHash('sha256').update(publicKey).digest('base64').replace(/=+$/, '')}`;
  }

  inRegion(map: ReadonlyMap<string, Wire>, region: string): Wire[] {
    return [...map.values()].filter((o) => o.region === region);
  }
  defaultNetwork(region: string): Wire | undefined {
    return this.inRegion(this.networks, region).find((n) => n.default === true);
  }
  defaultFirewall(networkId: string): Wire | undefined {
    return [...this.firewalls.values()].find((f) => f.network_id === networkId && f.default === true);
  }

  /** Every object the simulator holds, by kind (the default networks and firewalls included). */
  counts(): Record<string, number> {
    return {
      instances: this.instances.size,
      networks: this.networks.size,
      subnets: this.subnets.size,
      firewalls: this.firewalls.size,
      volumes: this.volumes.size,
      ips: this.ips.size,
      loadbalancers: this.loadbalancers.size,
      clusters: this.clusters.size,
      databases: this.databases.size,
      domains: this.domains.size,
      records: this.records.size,
      sshkeys: this.sshkeys.size,
      objectStores: this.objectStores.size,
      credentials: this.credentials.size,
    };
  }

  #seedRegion(region: string): void {
    const net: Wire = {
      id: this.id(),
      name: 'Default',
      label: 'Default',
      default: true,
      cidr: '192.168.1.0/24',
      cidr_v6: '',
      status: 'Active',
      ipv4_enabled: true,
      ipv6_enabled: false,
      nameservers_v4: ['8.8.8.8', '1.1.1.1'],
      nameservers_v6: [],
      vlan_id: 0,
      physical_interface: '',
      gateway_ipv4: '',
      allocation_pool_v4_start: '',
      allocation_pool_v4_end: '',
      free_ip_count: 250,
      region,
    };
    this.networks.set(net.id, net);
    const fwId = this.id();
    this.firewalls.set(fwId, {
      id: fwId,
      name: `default-${region.toLowerCase()}`,
      account_id: this.accountId,
      network_id: net.id,
      default: true,
      region,
      rules: [
        {
          id: this.id(),
          firewall_id: fwId,
          openstack_security_group_rule_id: null,
          protocol: 'tcp',
          start_port: '1',
          end_port: '65535',
          ports: '1-65535',
          cidr: ['0.0.0.0/0'],
          direction: 'ingress',
          action: 'allow',
          label: 'All TCP ports open',
        },
      ],
    });
  }
}
