// The demo's LXD side: decide between the local daemon and the in-process fake, make a drift through
// the LXD API behind the engine's back, and delete the demo container whatever happened.
import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { Agent, request } from 'undici';
import { Engine, MemoryStateStore, standaloneContext } from 'converge';
import { prova, type ProvaConfig } from 'converge/providers/a';
import { startSimulator, type LxdSimulator } from 'converge/providers/a/simulator';
import type { Provider } from 'converge';

/** The only image and bridge the demo uses on a real daemon (the bridge must be on 198.18.0.0/24). */
export const LXD_IMAGE = 'busybox';
export const LXD_BRIDGE = 'convergebr0';
const BRIDGE_NET = /^198\.18\.0\.\d+\/24$/;

export type LxdSide = {
  readonly kind: 'real' | 'fake';
  /** Where provider A talks to, and why (for the demo's opening lines). */
  readonly description: string;
  readonly provider: Provider<ProvaConfig>;
  /** Changes `user.team` of the profile without the engine knowing. */
  drift(profileName: string, value: string): Promise<void>;
  /** Deletes the instance, then the profile, if they still exist; never throws. */
  remove(instanceName: string, profileName: string): Promise<void>;
  close(): Promise<void>;
};

/** The socket search order of the LXD client: $LXD_SOCKET, $LXD_DIR, the snap's socket, /var/lib/lxd. */
export function lxdSocketPath(env: Readonly<Record<string, string | undefined>> = process.env): string {
  if (env.LXD_SOCKET) return env.LXD_SOCKET;
  if (env.LXD_DIR) return join(env.LXD_DIR, 'unix.socket');
  return '/var/lib/lxd/unix.socket';
}

/** Asks the daemon, through provider A's own lookups, whether the image and the bridge are there. */
export async function probeLxd(
  socketPath: string,
  configDir: string,
): Promise<{ ok: true } | { ok: false; reason: string }> {
  const provider = prova({ socketPath, configDir, pollIntervalMs: 100 });
  const engine = new Engine({ providers: [provider], state: new MemoryStateStore(), retry: { retries: 0 } });
  const signal = AbortSignal.timeout(5000);
  try {
    const net = (await engine.lookup(prova.getNetwork({ name: LXD_BRIDGE }), undefined, { signal })) as {
      config: Record<string, string>;
    };
    if (!BRIDGE_NET.test(net.config['ipv4.address'] ?? ''))
      return { ok: false, reason: `bridge ${LXD_BRIDGE} is not on 198.18.0.0/24` };
    await engine.lookup(prova.getImage({ name: LXD_IMAGE }), undefined, { signal });
    return { ok: true };
  } catch (error) {
    return { ok: false, reason: (error as Error).message.split('\n')[0] ?? 'unreachable' };
  } finally {
    await provider.close();
  }
}

/** The real daemon when `useReal` is true, the fake when false, and the daemon if it is usable when 'auto'. */
export async function openLxd(useReal: boolean | 'auto', dir: string): Promise<LxdSide> {
  const socketPath = lxdSocketPath();
  const configDir = mkdtempSync(join(dir, 'lxc-'));
  let why = 'asked for the fake';
  if (useReal !== false) {
    const probe = await probeLxd(socketPath, configDir);
    if (probe.ok) return realSide(socketPath, configDir);
    if (useReal === true) throw new Error(`the local LXD daemon at ${socketPath} is not usable: ${probe.reason}`);
    why = `no usable LXD daemon at ${socketPath}: ${probe.reason}`;
  }
  const sim = await startSimulator({ socketPath: join(dir, 'lxd.socket'), operationMs: 150, networkDelayMs: 300 });
  return fakeSide(sim, configDir, why);
}

function realSide(socketPath: string, configDir: string): LxdSide {
  const provider = prova({ socketPath, configDir, pollIntervalMs: 100 });
  const agent = new Agent({ connect: { socketPath } });
  return {
    kind: 'real',
    description: `the local LXD daemon at unix://${socketPath} (image ${LXD_IMAGE}, bridge ${LXD_BRIDGE})`,
    provider,
    async drift(name, value) {
      const r = await request(`http://lxd/1.0/profiles/${encodeURIComponent(name)}`, {
        dispatcher: agent,
        method: 'PATCH',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ config: { 'user.team': value } }),
      });
      await r.body.text();
      if (r.statusCode >= 300) throw new Error(`PATCH /1.0/profiles/${name} answered ${r.statusCode}`);
    },
    remove: (instance, profile) => removeObjects(provider, instance, profile),
    async close() {
      await provider.close();
      await agent.close();
    },
  };
}

function fakeSide(sim: LxdSimulator, configDir: string, why: string): LxdSide {
  const provider = prova({ socketPath: sim.socketPath, configDir, pollIntervalMs: 20 });
  return {
    kind: 'fake',
    description: `the in-process LXD fake (${why})`,
    provider,
    async drift(name, value) {
      const profile = sim.store.profiles.get(`default/${name}`);
      if (!profile) throw new Error(`the fake has no profile ${name}`);
      (profile.config as Record<string, string>)['user.team'] = value;
    },
    remove: (instance, profile) => removeObjects(provider, instance, profile),
    async close() {
      await provider.close();
      await sim.close();
    },
  };
}

/** The cleanup of last resort: provider A's own read and delete handlers, called directly. */
async function removeObjects(provider: Provider<ProvaConfig>, instance: string, profile: string): Promise<void> {
  for (const [token, name, inputs] of [
    ['prova:index/instance:Instance', instance, { name: instance, image: LXD_IMAGE }],
    ['prova:index/profile:Profile', profile, { name: profile }],
  ] as const) {
    const def = provider.resources.get(token);
    if (!def) continue;
    const ctx = standaloneContext(provider.config, {
      operation: 'delete',
      address: name,
      signal: AbortSignal.timeout(60_000),
    });
    try {
      const parsed = def.inputs.parse(inputs);
      const found = await def.read(ctx, name, { inputs: parsed, outputs: {} });
      if (found) await def.delete(ctx, name, { inputs: parsed, outputs: found.outputs });
    } catch {
      // Best effort: the demo reports the original failure, not this one.
    }
  }
}
