// An instance's run state: start (and wait until it runs), stop, wait for a global IPv4, and the
// network outputs (addresses, MAC, interfaces) read from GET …/state.
import { poll } from '../../../kit/poll.js';
import type { OperationContext } from '../../../engine/provider/context.js';
import { type LxdClient } from '../client.js';
import { isNotFound } from '../../../kit/gone.js';

export type Address = {
  readonly family: string;
  readonly address: string;
  readonly netmask?: string;
  readonly scope: string;
};
export type NetState = {
  readonly addresses?: Address[] | null;
  readonly hwaddr?: string;
  readonly state?: string;
  readonly type?: string;
};
export type InstanceState = {
  readonly status: string;
  readonly status_code: number;
  readonly processes?: number;
  readonly network?: Record<string, NetState> | null;
};
export type WireInstance = {
  readonly name: string;
  readonly description: string;
  readonly type: string;
  readonly status: string;
  readonly status_code: number;
  readonly location?: string;
  readonly ephemeral: boolean;
  readonly stateful?: boolean;
  readonly architecture: string;
  readonly profiles: string[];
  readonly config: Record<string, string>;
  readonly devices: Record<string, Record<string, string>>;
  readonly expanded_config?: Record<string, string>;
  readonly expanded_devices?: Record<string, Record<string, string>>;
  readonly project?: string;
};
export type Iface = {
  readonly name: string;
  readonly type: string;
  readonly state: string;
  readonly ips: { address: string; family: string; scope: string }[];
};
export type NetworkOutputs = {
  ipv4Address: string;
  ipv6Address: string;
  macAddress: string;
  interfaces: Record<string, Iface>;
};

type Ctx = Pick<OperationContext, 'signal' | 'retry' | 'report' | 'address' | 'operation'>;
export type Waits = { readonly intervalMs: number; readonly timeoutMs: number; readonly stopTimeoutSeconds?: number };

const RUNNING = new Set([103, 113]);
/** The first interval of the run-and-address wait; it grows by half each poll up to `Waits.intervalMs`. */
const FIRST_POLL_MS = 40;

export async function readState(
  ctx: Ctx,
  client: LxdClient,
  name: string,
  project?: string,
): Promise<InstanceState | null> {
  try {
    return (
      await client.request<InstanceState>(ctx, {
        method: 'GET',
        pathTemplate: '/1.0/instances/{name}/state',
        params: { name },
        operation: 'read instance state',
        project,
      })
    ).metadata;
  } catch (error) {
    if (isNotFound(error)) return null;
    throw error;
  }
}

export function isRunning(s: InstanceState | null): boolean {
  return !!s && RUNNING.has(s.status_code);
}

async function changeState(
  ctx: Ctx,
  client: LxdClient,
  name: string,
  project: string | undefined,
  body: Record<string, unknown>,
): Promise<void> {
  await client.request(ctx, {
    method: 'PUT',
    pathTemplate: '/1.0/instances/{name}/state',
    params: { name },
    operation: `${String(body.action)} instance`,
    project,
    body,
  });
}

/** True when a non-loopback interface has a global-scope IPv4 address. */
export function hasGlobalIpv4(s: InstanceState | null): boolean {
  return Object.entries(s?.network ?? {}).some(
    ([ifname, n]) =>
      ifname !== 'lo' &&
      n.type !== 'loopback' &&
      (n.addresses ?? []).some((a) => a.family === 'inet' && a.scope === 'global'),
  );
}

/**
 * Starts unless already operational, then waits until it runs with processes > 0 (and, with
 * `network`, until it has a global IPv4: one poll loop for both). Returns the last state read.
 */
export async function startInstance(
  ctx: Ctx,
  client: LxdClient,
  name: string,
  project: string | undefined,
  waits: Waits,
  opts: { knownStopped?: boolean; network?: boolean } = {},
): Promise<InstanceState | null> {
  const s = opts.knownStopped ? null : await readState(ctx, client, name, project);
  const up = (st: InstanceState | null) => isRunning(st) && (st!.processes ?? 0) > 0;
  if (up(s) && !opts.network) return s;
  if (!isRunning(s))
    await changeState(ctx, client, name, project, {
      action: 'start',
      force: false,
      timeout: Math.max(1, Math.round(waits.timeoutMs / 1000)),
    });
  // Fast first looks (a container gets its lease within a second), backing off to the configured interval.
  return poll(ctx, {
    what: opts.network ? `instance ${name} to run and get an IPv4 address` : `instance ${name} to run`,
    intervalMs: Math.min(FIRST_POLL_MS, waits.intervalMs),
    maxIntervalMs: waits.intervalMs,
    timeoutMs: waits.timeoutMs,
    check: async () => {
      const now = await readState(ctx, client, name, project);
      if (up(now) && (!opts.network || hasGlobalIpv4(now))) return { done: true, value: now };
      return { done: false, message: now ? `${now.status}, ${now.processes ?? 0} processes` : 'not found' };
    },
  });
}

/** Stops: forced, or clean with a time limit and then forced if the guest ignores it. Gone is fine. */
export async function stopInstance(
  ctx: Ctx,
  client: LxdClient,
  name: string,
  project: string | undefined,
  force: boolean,
  waits?: Waits,
): Promise<'stopped' | 'gone'> {
  const s = await readState(ctx, client, name, project);
  if (!s) return 'gone';
  if (s.status_code === 102) return 'stopped';
  if (!force) {
    try {
      await changeState(ctx, client, name, project, {
        action: 'stop',
        force: false,
        timeout: waits?.stopTimeoutSeconds ?? 30,
      });
      return 'stopped';
    } catch (error) {
      if (isNotFound(error)) return 'gone';
      ctx.report({ kind: 'warning', message: `instance ${name} did not stop cleanly; stopping it by force` });
    }
  }
  try {
    await changeState(ctx, client, name, project, { action: 'stop', force: true });
  } catch (error) {
    if (isNotFound(error)) return 'gone';
    const after = await readState(ctx, client, name, project);
    if (!after) return 'gone';
    if (after.status_code !== 102) throw error;
  }
  return (await readState(ctx, client, name, project)) ? 'stopped' : 'gone';
}

/** Addresses from the access interface (user.access_interface) or the first non-lo interface with a global address. */
export function networkOutputs(instance: WireInstance, state: InstanceState | null): NetworkOutputs {
  const net = state?.network ?? {};
  const out: NetworkOutputs = { ipv4Address: '', ipv6Address: '', macAddress: '', interfaces: {} };
  const global = (n: NetState, family: string) =>
    (n.addresses ?? []).find((a) => a.family === family && a.scope === 'global')?.address ?? '';
  const access = instance.expanded_config?.['user.access_interface'];
  const names = access
    ? [access]
    : Object.keys(net)
        .filter((n) => n !== 'lo' && net[n]!.type !== 'loopback')
        .sort();
  for (const n of names) {
    const iface = net[n];
    if (!iface) continue;
    const v4 = global(iface, 'inet');
    const v6 = global(iface, 'inet6');
    if (!v4 && !v6) continue;
    out.ipv4Address = v4;
    out.ipv6Address = v6;
    out.macAddress = iface.hwaddr ?? '';
    break;
  }
  for (const [dev, props] of Object.entries(instance.expanded_devices ?? {})) {
    if (props.type !== 'nic') continue;
    const ifname = props.name || dev;
    const iface = net[ifname];
    if (!iface) continue;
    out.interfaces[dev] = {
      name: ifname,
      type: iface.type ?? '',
      state: iface.state ?? '',
      ips: (iface.addresses ?? []).map((a) => ({ address: a.address, family: a.family, scope: a.scope })),
    };
  }
  return out;
}

/** '30s', '5m', '1h', '250ms' → milliseconds. */
export function durationMs(text: string | undefined, fallbackMs: number): number {
  if (!text) return fallbackMs;
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h)$/.exec(text.trim());
  if (!m) return fallbackMs;
  const n = Number(m[1]);
  return Math.round(n * { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[m[2] as 'ms' | 's' | 'm' | 'h']);
}
