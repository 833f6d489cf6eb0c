// The real `lxc` client (Debian's lxd-client, /usr/bin/lxc) driven against an LXD remote over
// HTTPS from a scratch LXD_CONF: one script of commands every object kind goes through, the
// runner (async: the fake LXD may live in this very process), and the normalisation of what
// legitimately differs between two daemons (ids, MACs, veth names, addresses, timestamps, the
// image unpack progress only a daemon with a real image store prints).
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { LxdSimulator } from '../../../src/providers/a/simulator/index.js';

export const LXC = '/usr/bin/lxc';

/** One lxc command; `compare` says whether its output must match between two daemons. */
export type LxcStep = {
  readonly argv: readonly string[];
  readonly compare: boolean;
  readonly exitCode?: number;
  readonly thenRead?: string;
  readonly stdin?: string;
};
export type LxcResult = {
  readonly cmd: string;
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
  readonly pulled?: string;
};

/** How a script names its objects: as written against the fake alone; with the run's suffix on a real daemon. */
export type Namer = (base: string) => string;
export const asWritten: Namer = (base) => base;

/** The forward's listen address against the fake alone (a real daemon's run takes its own, see lxd-env's forwardAddress). */
export const FORWARD_ADDRESS = '198.18.0.197';

/**
 * The script, on remote `r`; files live in `dir`. Every object is named cvt-lx* through `name`
 * (its instances are listed by an anchored pattern of `name`, so only this run's show) and the
 * forward listens on `forward`.
 */
export function lxcScript(r: string, dir: string, name: Namer = asWritten, forward = FORWARD_ADDRESS): LxcStep[] {
  const c = `${r}:${name('cvt-lxc-c1')}`;
  const step = (compare: boolean, ...argv: string[]): LxcStep => ({ argv, compare });
  return [
    step(false, 'launch', `${r}:busybox`, c),
    step(true, 'list', `${r}:${name('cvt-lxc-c.')}`, '--format', 'csv', '-c', 'ns'),
    step(true, 'exec', c, '--', 'echo', 'hello', 'from', 'lxcfake'),
    { argv: ['exec', c, '--', 'sh', '-c', 'exit 3'], compare: true, exitCode: 3 },
    { argv: ['exec', c, '--', 'cat'], compare: true, stdin: 'piped into lxcfake\n' },
    step(false, 'file', 'push', join(dir, 'push.txt'), `${c}/tmp/lxcfake.txt`),
    step(true, 'exec', c, '--', 'cat', '/tmp/lxcfake.txt'),
    {
      argv: ['file', 'pull', `${c}/tmp/lxcfake.txt`, join(dir, 'pull.txt')],
      compare: true,
      thenRead: join(dir, 'pull.txt'),
    },
    step(true, 'file', 'delete', `${c}/tmp/lxcfake.txt`),
    step(true, 'config', 'set', c, 'user.lxcfake=yes'),
    step(true, 'config', 'get', c, 'user.lxcfake'),
    step(true, 'config', 'device', 'add', c, 'lxcfake-dev', 'none'),
    step(true, 'config', 'device', 'show', c),
    step(true, 'config', 'show', c),
    step(true, 'config', 'device', 'remove', c, 'lxcfake-dev'),
    step(true, 'stop', c),
    step(true, 'config', 'show', c),
    step(true, 'start', c),
    step(true, 'restart', '--force', c),
    // --force: busybox's init may not yet handle SIGPWR right after a restart, and a clean stop then waits forever.
    step(true, 'stop', '--force', c),
    step(true, 'delete', c),
    step(true, 'init', `${r}:busybox`, `${r}:${name('cvt-lxc-c2')}`),
    step(true, 'move', `${r}:${name('cvt-lxc-c2')}`, `${r}:${name('cvt-lxc-c3')}`),
    step(true, 'config', 'show', `${r}:${name('cvt-lxc-c3')}`),
    step(false, 'info', `${r}:${name('cvt-lxc-c3')}`),
    step(true, 'delete', `${r}:${name('cvt-lxc-c3')}`),
    step(true, 'list', `${r}:${name('cvt-lxc-c.')}`, '--format', 'csv', '-c', 'ns'),
    step(false, 'operation', 'list', `${r}:`),
    step(false, 'image', 'alias', 'list', `${r}:`),
    step(false, 'config', 'trust', 'list', `${r}:`),
    step(false, 'warning', 'list', `${r}:`),
    step(true, 'network', 'create', `${r}:${name('cvt-lxn')}`, 'ipv4.address=none', 'ipv6.address=none'),
    step(true, 'network', 'set', `${r}:${name('cvt-lxn')}`, 'user.k=v'),
    step(true, 'network', 'show', `${r}:${name('cvt-lxn')}`),
    step(false, 'network', 'info', `${r}:convergebr0`),
    step(false, 'network', 'list-leases', `${r}:convergebr0`),
    step(true, 'network', 'delete', `${r}:${name('cvt-lxn')}`),
    step(true, 'network', 'acl', 'create', `${r}:${name('cvt-lxc-acl')}`),
    step(
      true,
      'network',
      'acl',
      'rule',
      'add',
      `${r}:${name('cvt-lxc-acl')}`,
      'ingress',
      'action=allow',
      'protocol=tcp',
      'destination_port=22',
    ),
    step(true, 'network', 'acl', 'show', `${r}:${name('cvt-lxc-acl')}`),
    step(true, 'network', 'acl', 'delete', `${r}:${name('cvt-lxc-acl')}`),
    step(true, 'network', 'forward', 'create', `${r}:convergebr0`, forward),
    step(true, 'network', 'forward', 'port', 'add', `${r}:convergebr0`, forward, 'tcp', '80', '198.18.0.30', '8080'),
    step(true, 'network', 'forward', 'show', `${r}:convergebr0`, forward),
    step(true, 'network', 'forward', 'delete', `${r}:convergebr0`, forward),
    step(true, 'profile', 'create', `${r}:${name('cvt-lxc-prof')}`),
    step(true, 'profile', 'set', `${r}:${name('cvt-lxc-prof')}`, 'user.k=v'),
    step(
      true,
      'profile',
      'device',
      'add',
      `${r}:${name('cvt-lxc-prof')}`,
      'lxcfake-dev',
      'disk',
      'source=/tmp',
      'path=/mnt',
    ),
    step(true, 'profile', 'show', `${r}:${name('cvt-lxc-prof')}`),
    step(true, 'profile', 'delete', `${r}:${name('cvt-lxc-prof')}`),
    step(true, 'project', 'create', `${r}:${name('cvt-lxc-proj')}`),
    step(true, 'project', 'set', `${r}:${name('cvt-lxc-proj')}`, 'user.k=v'),
    step(true, 'project', 'show', `${r}:${name('cvt-lxc-proj')}`),
    step(true, 'project', 'delete', `${r}:${name('cvt-lxc-proj')}`),
    step(true, 'storage', 'create', `${r}:${name('cvt-lxc-pool')}`, 'dir'),
    step(true, 'storage', 'show', `${r}:${name('cvt-lxc-pool')}`),
    step(false, 'storage', 'info', `${r}:default`),
    step(true, 'storage', 'volume', 'create', `${r}:${name('cvt-lxc-pool')}`, name('cvt-lxc-vol')),
    step(true, 'storage', 'volume', 'set', `${r}:${name('cvt-lxc-pool')}`, name('cvt-lxc-vol'), 'user.k=v'),
    step(true, 'storage', 'volume', 'show', `${r}:${name('cvt-lxc-pool')}`, name('cvt-lxc-vol')),
    step(true, 'storage', 'show', `${r}:${name('cvt-lxc-pool')}`),
    step(true, 'storage', 'volume', 'delete', `${r}:${name('cvt-lxc-pool')}`, name('cvt-lxc-vol')),
    step(true, 'storage', 'delete', `${r}:${name('cvt-lxc-pool')}`),
    step(true, 'query', `${r}:/`),
  ];
}

/** A scratch LXD_CONF directory with the file the script pushes. */
export function scratchConf(): { dir: string; env: NodeJS.ProcessEnv; close(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'lxcfake-'));
  writeFileSync(join(dir, 'push.txt'), 'hello from the lxcfake script\n');
  return {
    dir,
    env: { ...process.env, LXD_CONF: join(dir, 'conf'), HOME: dir },
    close: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** Runs one lxc command without blocking the event loop (the fake may be served by this process). */
export function runLxc(
  env: NodeJS.ProcessEnv,
  argv: readonly string[],
  timeoutMs = 60_000,
  stdin = '',
): Promise<LxcResult> {
  return new Promise((resolve) => {
    const child = execFile(LXC, [...argv], { env, timeout: timeoutMs, encoding: 'utf8' }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
      resolve({ cmd: `lxc ${argv.join(' ')}`, code, stdout, stderr });
    });
    // stdin is never left open: lxc init/launch read a YAML config from a stdin that is not a terminal.
    child.stdin?.end(stdin);
  });
}

/**
 * Runs one step. Every exec of the scripts that exits 0 prints something, and LXD 5.0 sometimes ends
 * an exec before its output reached the client when the machine is busy (canonical/lxd#11422): such
 * an exec that printed nothing is run again, three times in all, on either daemon.
 */
export async function runStep(env: NodeJS.ProcessEnv, s: LxcStep): Promise<LxcResult> {
  let r = await runLxc(env, s.argv, 60_000, s.stdin);
  for (let again = 0; again < 2 && s.argv[0] === 'exec' && r.code === 0 && r.stdout === ''; again++)
    r = await runLxc(env, s.argv, 60_000, s.stdin);
  return s.thenRead && existsSync(s.thenRead) ? { ...r, pulled: readFileSync(s.thenRead, 'utf8') } : r;
}

/** Replaces what legitimately differs between two daemons, and the remote's name. */
export function normalizeLxc(text: string, remote: string, forward = FORWARD_ADDRESS): string {
  const others = new RegExp(`\\b198\\.18\\.0\\.(?!${forward.split('.')[3]}\\b|30\\b|1\\b)\\d+\\b`, 'g');
  return text
    .replace(new RegExp(`(^|[\\s'"(])${remote}:`, 'gm'), '$1R:')
    .replace(/Retrieving image: [^()\n]*\([^)]*\)[ \r]*/g, '')
    .replace(/\r/g, '')
    .replace(/\b[0-9a-f]{64}\b/g, 'FINGERPRINT')
    .replace(/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/g, 'UUID')
    .replace(/\b00:16:3e(:[0-9a-f]{2}){3}\b/g, 'MAC')
    .replace(/\bveth[0-9a-f]{8}\b/g, 'VETH')
    .replace(others, '198.18.0.N')
    .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)/g, 'TIME');
}

/** describe() when the lxc client is installed; a failing test in CI; a loud skip elsewhere. */
export function describeWithLxc(name: string, body: () => void): void {
  if (existsSync(LXC)) {
    describe(name, body);
    return;
  }
  if (process.env.CI === 'true') {
    describe(name, () =>
      it('needs the lxc client (Debian lxd-client, installed by scripts/lxd-test-env.sh)', () => {
        throw new Error(`${LXC} is missing`);
      }),
    );
    return;
  }

  console.warn(`\n!!! SKIPPING "${name}": ${LXC} is missing. Run scripts/lxd-test-env.sh as root. !!!\n`);
  describe.skip(name, () => it('needs the lxc client', () => {}));
}

/**
 * The fake LXD's verdict on the script (its run on remote 'fake'): every step exits as the script
 * says and lxc never panics, a pulled file holds what was pushed, exec streams stdin and output
 * and reports the exit code, the fake sent the operation and lifecycle events lxc waited on, and
 * it answered every request from its route table. Registered by tests/providers/a/lxc-client.test.ts
 * without a daemon and, with one, by tests/integration/lxd/lxc-differential.test.ts on the fake's
 * half of its run: one run of the script against the fake, not two.
 */
export function judgeFakeScript(got: () => { sim: LxdSimulator; results: readonly LxcResult[] }): void {
  const steps = lxcScript('fake', '/SCRATCH');
  it(`the fake: runs the script's ${steps.length} steps as the script says, lxc never panicking`, () => {
    const { results } = got();
    expect(results).toHaveLength(steps.length);
    for (const [n, step] of steps.entries()) {
      const r = results[n]!;
      expect(r.stderr, r.cmd).not.toMatch(/panic:|goroutine \d+/);
      expect(r.code, `step ${n + 1}: ${r.cmd}\n${r.stderr}`).toBe(step.exitCode ?? 0);
      if (step.thenRead) expect(r.pulled, r.cmd).toBe('hello from the lxcfake script\n');
    }
  });

  it('the fake: streams exec stdin and output over the operation websockets and reports the exit code', () => {
    const { results } = got();
    expect(results.find((r) => r.cmd.includes('echo hello'))?.stdout).toBe('hello from lxcfake\n');
    expect(results.find((r) => r.cmd.includes('exit 3'))?.code).toBe(3);
    expect(results.find((r) => r.cmd.endsWith('-- cat'))?.stdout).toBe('piped into lxcfake\n');
  });

  it('the fake: sent the operation and lifecycle events lxc waited on', () => {
    const { sim } = got();
    const types = new Set(sim.store.events.sent.map((e) => e.type));
    expect(types).toEqual(new Set(['operation', 'lifecycle']));
    const actions = sim.store.events.sent
      .filter((e) => e.type === 'lifecycle')
      .map((e) => (e.metadata as { action: string }).action);
    expect(actions).toEqual(
      expect.arrayContaining([
        'instance-created',
        'instance-started',
        'instance-stopped',
        'instance-restarted',
        'instance-deleted',
      ]),
    );
  });

  it('the fake: answered every request lxc made from its route table', () => {
    expect(got().sim.unmatched.map((u) => `${u.method} ${u.path}${u.query}`)).toEqual([]);
  });
}
