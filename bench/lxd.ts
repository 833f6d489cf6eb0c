// LXD launch benchmark: wall time from apply() start to a busybox container created, started and
// IPv4-known through prova, divided by `lxc launch` plus a shell poll for its address, both
// measured in the same run, median of 5. Skipped with a message when no daemon is present.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Engine, MemoryStateStore } from '../src/index.js';
import { prova } from '../src/providers/a/index.js';

const FACTS = '/tmp/converge-lxd-env';
const POLL_MS = 50;

function facts(): { socket: string; image: string } | undefined {
  if (!existsSync(FACTS)) return undefined;
  const kv = Object.fromEntries(readFileSync(FACTS, 'utf8').split('\n').map((l) => l.split('=')).filter((p) => p.length === 2)) as Record<string, string>;
  const socket = kv.LXD_SOCKET ?? '/var/lib/lxd/unix.socket';
  return existsSync(socket) ? { socket, image: kv.LXD_IMAGE ?? 'busybox' } : undefined;
}

const lxc = (...args: string[]) => execFileSync('lxc', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function launchWithLxc(name: string, image: string): Promise<number> {
  const t0 = performance.now();
  lxc('launch', image, name);
  while (!/\d+\.\d+\.\d+\.\d+/.test(lxc('list', name, '--format', 'csv', '-c', '4'))) await sleep(POLL_MS);
  const ms = performance.now() - t0;
  lxc('delete', '--force', name);
  return ms;
}

async function launchWithConverge(name: string, f: { socket: string; image: string }, dir: string): Promise<number> {
  const provider = prova({ socketPath: f.socket, configDir: dir, pollIntervalMs: POLL_MS });
  const engine = new Engine({ providers: [provider], state: new MemoryStateStore() });
  const plan = await engine.plan([prova.instance('web', { name, image: f.image })]);
  const t0 = performance.now();
  await engine.apply(plan);
  const ms = performance.now() - t0;
  await engine.destroy();
  await provider.close();
  return ms;
}

export async function benchLxd(): Promise<Record<string, number>> {
  const f = facts();
  if (!f) {
    process.stderr.write(`lxd_launch_ratio_to_lxc skipped: no LXD daemon (${FACTS} missing; run scripts/lxd-test-env.sh)\n`);
    return {};
  }
  const dir = mkdtempSync(join(tmpdir(), 'cvt-bench-'));
  const ours: number[] = [];
  const theirs: number[] = [];
  try {
    for (let i = 0; i < 5; i++) {
      theirs.push(await launchWithLxc(`cvt-bench-lxc-${i}`, f.image));
      ours.push(await launchWithConverge(`cvt-bench-cvg-${i}`, f, dir));
    }
  } finally {
    for (let i = 0; i < 5; i++) for (const n of [`cvt-bench-lxc-${i}`, `cvt-bench-cvg-${i}`]) { try { lxc('delete', '--force', n); } catch { /* already gone */ } }
    rmSync(dir, { recursive: true, force: true });
  }
  return { lxd_launch_ratio_to_lxc: median(ours) / median(theirs), lxd_launch_converge_ms: median(ours), lxd_launch_lxc_ms: median(theirs) };
}
