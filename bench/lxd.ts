// LXD launch benchmarks against the real daemon: wall time until busybox containers are created,
// started and have an IPv4, through converge (Engine + prova with its default waits) and through
// the lxc client (`lxc launch`, then `lxc list` every 250 ms until the address shows), both measured
// in the same run. Serial: one container at a time, median of 5 each. Parallel: ten at once (apply
// with parallelism 10 against ten `lxc launch` processes), median of 3 rounds. Skipped with a
// message when no daemon is present. Objects are named cvbench-* (tests clean up cvt-*); lxc is
// pointed at the `local:` remote explicitly, whatever its default remote is.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Engine, MemoryStateStore, defineProvider, type Provider } from '../src/index.js';
import { prova } from '../src/providers/a/index.js';

const FACTS = '/tmp/converge-lxd-env';
const LXC_POLL_MS = 250;
const run = promisify(execFile);

function facts(): { socket: string; image: string } | undefined {
  if (!existsSync(FACTS)) return undefined;
  const kv = Object.fromEntries(
    readFileSync(FACTS, 'utf8')
      .split('\n')
      .map((l) => l.split('='))
      .filter((p) => p.length === 2),
  ) as Record<string, string>;
  const socket = kv.LXD_SOCKET ?? '/var/lib/lxd/unix.socket';
  return existsSync(socket) ? { socket, image: kv.LXD_IMAGE ?? 'busybox' } : undefined;
}

/** Runs lxc with stdin closed (lxc launch and init read a config from a piped stdin). */
function lxc(...args: string[]): Promise<string> {
  const p = run('lxc', args, { encoding: 'utf8', timeout: 120_000 });
  p.child.stdin?.end();
  return p.then((r) => r.stdout);
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const names = (tag: string, n: number) => Array.from({ length: n }, (_, i) => `cvbench-${tag}-${i}`);
const remove = (list: string[]) => Promise.all(list.map((n) => lxc('delete', '--force', `local:${n}`).catch(() => '')));

/** `lxc launch` then poll `lxc list` every 250 ms until each container shows an IPv4. */
async function withLxc(list: string[], image: string): Promise<number> {
  const t0 = performance.now();
  await Promise.all(
    list.map(async (name) => {
      await lxc('launch', `local:${image}`, `local:${name}`);
      while (!/\d+\.\d+\.\d+\.\d+/.test(await lxc('list', `local:${name}`, '--format', 'csv', '-c', '4')))
        await sleep(LXC_POLL_MS);
    }),
  );
  const ms = performance.now() - t0;
  await remove(list);
  return ms;
}

/** One apply of the containers (parallelism = their number), from apply() start to its return. */
async function withConverge(list: string[], f: { socket: string; image: string }, dir: string): Promise<number> {
  const provider = prova({ socketPath: f.socket, configDir: dir });
  const engine = new Engine({ providers: [provider], state: new MemoryStateStore(), parallelism: list.length });
  try {
    const plan = await engine.plan(list.map((name) => prova.instance(name, { name, image: f.image })));
    const t0 = performance.now();
    await engine.apply(plan);
    const ms = performance.now() - t0;
    await engine.destroy();
    return ms;
  } finally {
    await provider.close();
  }
}

/** The same provider with its batched reads taken away: one read (two GETs) per instance. */
function oneByOne(p: Provider<unknown>): Provider<unknown> {
  return defineProvider({
    name: p.name,
    config: p.config,
    resources: [...p.resources.values()].map((d) => ({ ...d, readMany: undefined })),
    lookups: [...p.lookups.values()],
  });
}

/**
 * Refresh of 100 instances (created stopped: cheap) through one `?recursion=2` listing against one
 * read per instance, both timed in the same run (median of 3 refresh plans each, parallelism 10).
 */
async function refresh100(
  f: { socket: string; image: string },
  dir: string,
): Promise<{ batched: number; single: number }> {
  const provider = prova({ socketPath: f.socket, configDir: dir });
  const store = new MemoryStateStore();
  const decls = names('refresh', 100).map((name) => prova.instance(name, { name, image: f.image, running: false }));
  const engine = new Engine({ providers: [provider], state: store, parallelism: 10 });
  const single = new Engine({ providers: [oneByOne(provider)], state: store, parallelism: 10 });
  try {
    await engine.apply(await engine.plan(decls));
    const time = async (e: Engine) => {
      const t0 = performance.now();
      const plan = await e.plan(decls, { refresh: true });
      if (plan.hasChanges) throw new Error('refresh bench: the stack should plan as unchanged');
      return performance.now() - t0;
    };
    const b: number[] = [];
    const s: number[] = [];
    for (let i = 0; i < 3; i++) {
      b.push(await time(engine));
      s.push(await time(single));
    }
    return { batched: median(b), single: median(s) };
  } finally {
    await engine.destroy().catch(() => undefined);
    await provider.close();
  }
}

export async function benchLxd(): Promise<Record<string, number>> {
  const f = facts();
  if (!f) {
    process.stderr.write(
      `lxd_serial_ratio_to_lxc and lxd_parallel10_ratio_to_lxc skipped: no LXD daemon (${FACTS} missing; run scripts/lxd-test-env.sh)\n`,
    );
    return {};
  }
  const dir = mkdtempSync(join(tmpdir(), 'cvt-bench-'));
  const serial = { ours: [] as number[], theirs: [] as number[] };
  const parallel = { ours: [] as number[], theirs: [] as number[] };
  let refresh: { batched: number; single: number };
  try {
    // A warm-up of each, unmeasured: the first launch after a while pays for caches.
    await withLxc(names('warm-lxc', 1), f.image);
    await withConverge(names('warm-cvg', 1), f, dir);
    for (let i = 0; i < 5; i++) {
      serial.theirs.push(await withLxc(names(`lxc${i}`, 1), f.image));
      serial.ours.push(await withConverge(names(`cvg${i}`, 1), f, dir));
    }
    for (let i = 0; i < 3; i++) {
      parallel.theirs.push(await withLxc(names(`plxc${i}`, 10), f.image));
      parallel.ours.push(await withConverge(names(`pcvg${i}`, 10), f, dir));
    }
    refresh = await refresh100(f, dir);
  } finally {
    const left = (await lxc('list', 'local:', '--format', 'csv', '-c', 'n').catch(() => ''))
      .split('\n')
      .map((l) => l.trim())
      .filter((n) => n.startsWith('cvbench-'));
    await remove(left);
    rmSync(dir, { recursive: true, force: true });
  }
  return {
    lxd_serial_ratio_to_lxc: median(serial.ours) / median(serial.theirs),
    lxd_serial_converge_ms: median(serial.ours),
    lxd_serial_lxc_ms: median(serial.theirs),
    lxd_parallel10_ratio_to_lxc: median(parallel.ours) / median(parallel.theirs),
    lxd_parallel10_converge_ms: median(parallel.ours),
    lxd_parallel10_lxc_ms: median(parallel.theirs),
    refresh_100_lxd_ms: refresh.batched,
    refresh_100_lxd_per_instance_ms: refresh.single,
    refresh_100_lxd_ratio_to_per_instance: refresh.batched / refresh.single,
  };
}
