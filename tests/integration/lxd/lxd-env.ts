// The real LXD daemon for integration tests: facts from /tmp/converge-lxd-env (written by
// scripts/lxd-test-env.sh) or CONVERGE_TEST_LXD=1. In CI a missing daemon fails the tests;
// elsewhere they are skipped with a loud warning.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'vitest';
import { prova, type ProvaOptions, type ProvaConfig } from '../../../src/providers/a/index.js';
import { standaloneContext, type OperationContext, type Report } from '../../../src/engine/provider/context.js';
import type { Provider } from '../../../src/engine/provider/define.js';
import { Engine, MemoryStateStore } from '../../../src/index.js';
import { runStep } from '../../providers/a/lxc-script.js';

export type LxdFacts = { socket: string; https: string; trustPassword: string; bridge: string; image: string };

const FACTS = '/tmp/converge-lxd-env';

export function lxdFacts(): LxdFacts | undefined {
  if (!existsSync(FACTS) && process.env.CONVERGE_TEST_LXD !== '1') return undefined;
  const kv: Record<string, string> = {};
  if (existsSync(FACTS)) {
    for (const line of readFileSync(FACTS, 'utf8').split('\n')) {
      const m = /^([A-Z_]+)=(.*)$/.exec(line.trim());
      if (m) kv[m[1]!] = m[2]!.replace(/^["']|["']$/g, '');
    }
  }
  const facts = {
    socket: kv.LXD_SOCKET ?? process.env.LXD_SOCKET ?? '/var/lib/lxd/unix.socket',
    https: kv.LXD_HTTPS ?? '127.0.0.1:8443',
    trustPassword: kv.LXD_TRUST_PASSWORD ?? 'converge-test',
    bridge: kv.LXD_BRIDGE ?? 'convergebr0',
    image: kv.LXD_IMAGE ?? 'busybox',
  };
  return existsSync(facts.socket) ? facts : undefined;
}

/** describe() when the daemon is there; a failing test in CI; a loud skip elsewhere. */
export function describeLxd(name: string, body: (facts: LxdFacts) => void): void {
  const facts = lxdFacts();
  if (facts) {
    describe(name, () => body(facts));
    return;
  }
  if (process.env.CI === 'true') {
    describe(name, () =>
      it('needs a real LXD daemon (run scripts/lxd-test-env.sh)', () => {
        throw new Error(`no LXD daemon: ${FACTS} is missing or its socket does not exist`);
      }),
    );
    return;
  }

  console.warn(
    `\n!!! SKIPPING real-LXD tests "${name}": no daemon (${FACTS} missing). Run scripts/lxd-test-env.sh as root. !!!\n`,
  );
  describe.skip(name, () => it('needs a real LXD daemon', () => {}));
}

export type RealEnv = {
  readonly provider: Provider<ProvaConfig>;
  readonly ctx: OperationContext<ProvaConfig>;
  readonly reports: Report[];
  readonly dir: string;
  res(token: string): NonNullable<ReturnType<Provider<ProvaConfig>['resources']['get']>>;
  close(): Promise<void>;
};

export function realEnv(facts: LxdFacts, args: ProvaOptions = {}): RealEnv {
  const dir = mkdtempSync(join(tmpdir(), 'cvt-lxd-'));
  const provider = prova({ socketPath: facts.socket, configDir: join(dir, 'config'), pollIntervalMs: 100, ...args });
  const reports: Report[] = [];
  const ctx = standaloneContext(provider.config, {
    retry: { retries: 2, minTimeoutMs: 50, maxTimeoutMs: 200 },
    report: (r) => reports.push(r),
  });
  return {
    provider,
    ctx,
    reports,
    dir,
    res: (token) => provider.resources.get(token)!,
    close: async () => {
      await provider.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

// Names on the real daemon carry this run's suffix, so two suites on one daemon never touch each
// other's objects: "-t", the minute of the run (3 base-36 digits, wrapping every 32 days) and a
// digit drawn for the run (tests/setup/global.ts) and offset by the fork's pool id, so the forks of
// one run differ. A cleanup deletes its own fork's objects and those of runs over an hour old (a
// killed suite's leftovers), never a live run's.
const MINUTES = 36 ** 3;
const minuteNow = (): number => Math.floor(Date.now() / 60_000) % MINUTES;
const DRAW = Number(process.env.CONVERGE_TEST_RUN_DRAW ?? Math.floor(Math.random() * 1800));
const POOL = Number(process.env.VITEST_POOL_ID ?? 0);
const RUN = `t${minuteNow().toString(36).padStart(3, '0')}${((DRAW + POOL) % 36).toString(36)}`;

/** A real-daemon object name for this run: `n('cvt-web')` is `cvt-web-t1x2k`. */
export const n = (base: string): string => `${base}-${RUN}`;

// A network forward is named by its listen address, which cannot carry a suffix: each fork takes a
// block of three addresses in 198.18.0.100-.249 (50 blocks: the run's draw, offset by the fork's
// pool id), and its cleanup removes forwards in its own block only (a killed run's leftovers there
// included).
const FORWARD_BLOCK = 100 + 3 * ((Math.floor(DRAW / 36) + POOL) % 50);

/** This fork's forward listen address number `k`: one per test file that makes a forward. */
export function forwardAddress(k: 0 | 1 | 2): string {
  return `198.18.0.${FORWARD_BLOCK + k}`;
}

/** Whether a cvt-/aprov- object is this run's, or a leftover of a run over an hour old (or of no run). */
export function cleanable(name: string): boolean {
  if (name.endsWith(`-${RUN}`)) return true;
  const m = /-t([0-9a-z]{3})[0-9a-z]$/.exec(name);
  if (!m) return true;
  return (minuteNow() - parseInt(m[1]!, 36) + MINUTES) % MINUTES > 60;
}

/** Runs the lxc CLI (for drift and cleanup); returns stdout, or '' when it fails and `quiet`. */
export function lxc(args: string[], quiet = false): string {
  try {
    return execFileSync('lxc', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 60_000 });
  } catch (error) {
    if (quiet) return '';
    throw error;
  }
}

/**
 * What a command that always prints prints inside an instance (`lxc exec` on the local daemon),
 * through the lxc scripts' runner, which asks again an exec that lost its output (canonical/lxd#11422).
 */
export async function lxcExecOut(instance: string, command: string[]): Promise<string> {
  const r = await runStep(process.env, { argv: ['exec', instance, '--', ...command], compare: false });
  if (r.code !== 0) throw new Error(`${r.cmd} exited ${r.code}: ${r.stderr}`);
  return r.stdout;
}

/** Deletes this fork's objects named cvt-* and stale ones (see `cleanable`): instances, profiles, networks, …, and the forwards in this fork's block. */
export function cleanupCvt(): void {
  const names = (kind: string[]) =>
    lxc([...kind, '--format', 'csv', '-c', 'n'], true)
      .split('\n')
      .map((l) => l.split(',')[0]!.trim())
      .filter((n) => n.startsWith('cvt-') && cleanable(n));
  for (const n of names(['list'])) lxc(['delete', '--force', n], true);
  for (const line of lxc(['query', '/1.0/networks/convergebr0/forwards'], true).match(/"[^"]+"/g) ?? []) {
    const addr = line.replace(/"/g, '').split('/').pop()!;
    const last = Number(/^198\.18\.0\.(\d+)$/.exec(addr)?.[1]);
    if (last >= FORWARD_BLOCK && last < FORWARD_BLOCK + 3)
      lxc(['network', 'forward', 'delete', 'convergebr0', addr], true);
  }
  for (const line of lxc(['query', '/1.0/profiles'], true).match(/cvt-[\w-]+/g) ?? [])
    if (cleanable(line)) lxc(['profile', 'delete', line], true);
  for (const line of lxc(['query', '/1.0/network-acls'], true).match(/cvt-[\w-]+/g) ?? [])
    if (cleanable(line)) lxc(['network', 'acl', 'delete', line], true);
  for (const line of lxc(['query', '/1.0/networks'], true).match(/cvt-[\w-]+/g) ?? [])
    if (cleanable(line)) lxc(['network', 'delete', line], true);
  for (const line of lxc(['query', '/1.0/storage-pools/default/volumes/custom'], true).match(/cvt-[\w-]+/g) ?? [])
    if (cleanable(line)) lxc(['storage', 'volume', 'delete', 'default', line], true);
  for (const line of lxc(['query', '/1.0/storage-pools'], true).match(/cvt-[\w-]+/g) ?? [])
    if (cleanable(line)) lxc(['storage', 'delete', line], true);
  for (const line of lxc(['query', '/1.0/projects'], true).match(/cvt-[\w-]+/g) ?? [])
    if (cleanable(line)) lxc(['project', 'delete', line], true);
}

/** Deletes this run's and stale objects named aprov-* (the provider-A issue tests' prefix): instances, profiles, networks. */
export function cleanupAprov(): void {
  const instances = lxc(['list', '--format', 'csv', '-c', 'n'], true)
    .split('\n')
    .map((l) => l.trim())
    .filter((n) => n.startsWith('aprov-') && cleanable(n));
  for (const n of instances) lxc(['delete', '--force', n], true);
  for (const p of lxc(['query', '/1.0/profiles'], true).match(/aprov-[\w-]+/g) ?? [])
    if (cleanable(p)) lxc(['profile', 'delete', p], true);
  for (const n of lxc(['query', '/1.0/networks'], true).match(/aprov[\w-]*/g) ?? [])
    if (cleanable(n)) lxc(['network', 'delete', n], true);
}

/** An Engine over a memory state with provider A on the real daemon (fast polls, as tests use). */
export function realEngine(
  facts: LxdFacts,
  dir: string,
  args: ProvaOptions = {},
): { engine: Engine; store: MemoryStateStore; provider: Provider<ProvaConfig> } {
  const provider = prova({ socketPath: facts.socket, configDir: join(dir, 'config'), pollIntervalMs: 100, ...args });
  const store = new MemoryStateStore();
  return { engine: new Engine({ providers: [provider], state: store }), store, provider };
}
