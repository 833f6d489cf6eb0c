// The `lxc` commands LXD refuses (bad config values and keys on instances, profiles, networks,
// custom volumes, pools and projects; snapshots and routes that do not exist) and the snapshot,
// copy and exec commands users run every day, on remote `r`. Each refusal carries the exit code and
// first line of error the real daemon printed (LXD 5.0.2, Debian's lxc 5.0.2, on this project's test
// machine); the fake must print the same. Every object is named cvt-lxr* through a `Namer` (with the
// run's suffix on a real daemon), and the recorded messages name it the same way.
import { expect, it } from 'vitest';
import type { LxdSimulator } from '../../../src/providers/a/simulator/index.js';
import { asWritten, normalizeLxc, runLxc, runStep, type LxcResult, type LxcStep, type Namer } from './lxc-script.js';

/** A refusal: the command, the exit code and the first stderr line the real daemon gives (remote shown as R:). */
export type LxcRefusal = { readonly argv: readonly string[]; readonly exitCode: number; readonly firstLine: string };

const NO_ADDR = ['ipv4.address=none', 'ipv6.address=none'];

/** Objects the refusals and everyday commands work on; made before, removed after. */
export function refusalSetup(r: string, name: Namer = asWritten): LxcStep[] {
  const step = (...argv: string[]): LxcStep => ({ argv, compare: false });
  return [
    step('launch', `${r}:busybox`, `${r}:${name('cvt-lxr1')}`),
    step('profile', 'create', `${r}:${name('cvt-lxr-prof')}`),
    step('network', 'create', `${r}:${name('cvt-lxrn')}`, ...NO_ADDR),
    step('storage', 'volume', 'create', `${r}:default`, name('cvt-lxr-vol')),
    step('project', 'create', `${r}:${name('cvt-lxr-proj')}`),
  ];
}

/** Commands LXD refuses, with what it says. They change nothing, so they may run in any order. */
export function lxcRefusals(r: string, name: Namer = asWritten): LxcRefusal[] {
  const c = `${r}:${name('cvt-lxr1')}`;
  const refuse = (firstLine: string, ...argv: string[]): LxcRefusal => ({ argv, exitCode: 1, firstLine });
  const init = (kv: string) => ['init', `${r}:busybox`, `${r}:${name('cvt-lxr0')}`, '-c', kv];
  const net = (...kv: string[]) => ['network', 'create', `${r}:${name('cvt-lxrn2')}`, ...kv];
  return [
    refuse('Error: Failed creating instance record: Invalid value: notasize', ...init('limits.memory=notasize')),
    refuse('Error: Failed creating instance record: Unknown configuration key: nosuch.key', ...init('nosuch.key=1')),
    refuse(
      'Error: Failed creating instance record: Invalid value for a boolean "maybe"',
      ...init('security.nesting=maybe'),
    ),
    refuse(
      'Error: Failed creating instance record: Invalid value for an integer "soon"',
      ...init('boot.autostart.delay=soon'),
    ),
    refuse('Error: Invalid config: Invalid value: notasize', 'config', 'set', c, 'limits.memory=notasize'),
    refuse('Error: Invalid config: Invalid value: 1.5GiB', 'config', 'set', c, 'limits.memory=1.5GiB'),
    refuse('Error: Invalid config: Unknown configuration key: limits.memry', 'config', 'set', c, 'limits.memry=1GiB'),
    refuse('Error: Invalid config: Invalid CPU limit syntax', 'config', 'set', c, 'limits.cpu=lots'),
    refuse(
      'Error: Invalid config: Invalid value "medium" (not one of [soft hard])',
      'config',
      'set',
      c,
      'limits.memory.enforce=medium',
    ),
    refuse('Error: Invalid config: Invalid allowance: lots', 'config', 'set', c, 'limits.cpu.allowance=lots'),
    refuse(
      'Error: Invalid config: Schedule must be of the form: <minute> <hour> <day-of-month> <month> <day-of-week>',
      'config',
      'set',
      c,
      'snapshots.schedule=whenever',
    ),
    refuse('Error: Invalid config: Invalid expiry expression', 'config', 'set', c, 'snapshots.expiry=forever'),
    refuse('Error: Invalid config: Unknown configuration key: volatile.foo', 'config', 'set', c, 'volatile.foo=1'),
    refuse(
      'Error: Invalid config: Invalid value for an integer "soon"',
      'config',
      'set',
      c,
      'boot.host_shutdown_timeout=soon',
    ),
    refuse('Error: Invalid CPU limit syntax', 'profile', 'set', `${r}:${name('cvt-lxr-prof')}`, 'limits.cpu=lots'),
    refuse(
      'Error: Unknown configuration key: nosuch.key',
      'profile',
      'set',
      `${r}:${name('cvt-lxr-prof')}`,
      'nosuch.key=1',
    ),
    refuse(
      'Error: Invalid value for a boolean "maybe"',
      'profile',
      'set',
      `${r}:${name('cvt-lxr-prof')}`,
      'security.nesting=maybe',
    ),
    refuse(
      `Error: Invalid value for network "${name('cvt-lxrn2')}" option "ipv4.address": invalid CIDR address: 10.200.0.1/33`,
      ...net('ipv4.address=10.200.0.1/33', 'ipv6.address=none'),
    ),
    refuse(
      `Error: Invalid value for network "${name('cvt-lxrn2')}" option "ipv4.nat": Invalid value for a boolean "perhaps"`,
      ...net(...NO_ADDR, 'ipv4.nat=perhaps'),
    ),
    refuse(
      `Error: Invalid option for network "${name('cvt-lxrn2')}" option "nosuch.key"`,
      ...net(...NO_ADDR, 'nosuch.key=1'),
    ),
    refuse(
      'Error: Network interface is too long (maximum 15 characters)',
      'network',
      'create',
      `${r}:cvt-lxr-toolongname`,
      ...NO_ADDR,
    ),
    refuse(
      `Error: Invalid value for network "${name('cvt-lxrn2')}" option "dns.mode": Invalid value "loud" (not one of [dynamic managed none])`,
      ...net(...NO_ADDR, 'dns.mode=loud'),
    ),
    refuse(
      `Error: Invalid value for network "${name('cvt-lxrn2')}" option "ipv6.address": invalid CIDR address: fd00::1/200`,
      ...net('ipv4.address=none', 'ipv6.address=fd00::1/200'),
    ),
    refuse(
      `Error: Invalid value for network "${name('cvt-lxrn')}" option "bridge.mtu": Invalid MTU "big"`,
      'network',
      'set',
      `${r}:${name('cvt-lxrn')}`,
      'bridge.mtu=big',
    ),
    refuse(
      `Error: Invalid value for volume "default_${name('cvt-lxr-vol2')}" option "size": Invalid value: big`,
      'storage',
      'volume',
      'create',
      `${r}:default`,
      name('cvt-lxr-vol2'),
      'size=big',
    ),
    refuse(
      `Error: Invalid option for volume "default_${name('cvt-lxr-vol2')}" option "nosuch.key"`,
      'storage',
      'volume',
      'create',
      `${r}:default`,
      name('cvt-lxr-vol2'),
      'nosuch.key=1',
    ),
    refuse(
      `Error: Invalid value for volume "default_${name('cvt-lxr-vol')}" option "snapshots.expiry": Invalid expiry expression`,
      'storage',
      'volume',
      'set',
      `${r}:default`,
      name('cvt-lxr-vol'),
      'snapshots.expiry=forever',
    ),
    refuse(
      'Error: Invalid project configuration key "limits.instances" value: Invalid value for uint32 "many": strconv.ParseUint: parsing "many": invalid syntax',
      'project',
      'create',
      `${r}:${name('cvt-lxr-proj2')}`,
      '-c',
      'limits.instances=many',
    ),
    refuse(
      'Error: Invalid project configuration key "nosuch.key"',
      'project',
      'create',
      `${r}:${name('cvt-lxr-proj2')}`,
      '-c',
      'nosuch.key=1',
    ),
    refuse(
      'Error: Invalid project configuration key "restricted.containers.nesting" value: Invalid value "sometimes" (not one of [block allow])',
      'project',
      'set',
      `${r}:${name('cvt-lxr-proj')}`,
      'restricted.containers.nesting=sometimes',
    ),
    refuse(
      'Error: Invalid project configuration key "limits.memory" value: Invalid value: lots',
      'project',
      'set',
      `${r}:${name('cvt-lxr-proj')}`,
      'limits.memory=lots',
    ),
    refuse(
      'Error: Invalid option "nosuch.key"',
      'storage',
      'create',
      `${r}:${name('cvt-lxr-pool2')}`,
      'dir',
      'nosuch.key=1',
    ),
    refuse(
      'Error: Invalid value for option "rsync.compression": Invalid value for a boolean "maybe"',
      'storage',
      'create',
      `${r}:${name('cvt-lxr-pool2')}`,
      'dir',
      'rsync.compression=maybe',
    ),
    refuse('Error: Invalid snapshot name: Cannot contain "/"', 'snapshot', c, 'bad/name'),
    refuse(`Error: Snapshot ${name('cvt-lxr1')}/nosnap does not exist`, 'restore', c, 'nosnap'),
    refuse(
      `Error: Failed checking instance snapshot exists "R:${name('cvt-lxr1')}/nosnap": Failed to fetch snapshot "nosnap" of instance "${name('cvt-lxr1')}" in project "default": InstanceSnapshot not found`,
      'delete',
      `${c}/nosnap`,
    ),
    refuse('Error: Instance not found', 'copy', `${r}:${name('cvt-lxr-nosuch')}`, `${r}:${name('cvt-lxr9')}`),
    refuse('Error: not found', 'query', `${r}:/1.0/nosuch`),
    refuse('Error: not found', 'query', `${r}:/1.0/instances/${name('cvt-lxr1')}/nosuch`),
    refuse('Error: not implemented', 'query', '-X', 'DELETE', `${r}:/1.0/profiles`),
    { argv: ['exec', c, '--', 'nosuchcmd'], exitCode: 127, firstLine: 'Error: Command not found' },
  ];
}

/** Snapshots, copies and exec with --cwd and --env, in order; `compare` steps print the same on both daemons. */
export function lxcEveryday(r: string, name: Namer = asWritten): LxcStep[] {
  const c = `${r}:${name('cvt-lxr1')}`;
  const step = (compare: boolean, ...argv: string[]): LxcStep => ({ argv, compare });
  const listed = step(true, 'list', `${r}:${name('cvt-lxr.')}`, '--format', 'csv', '-c', 'nS');
  return [
    step(true, 'exec', c, '--cwd', '/tmp', '--', 'pwd'),
    step(true, 'exec', c, '--', 'pwd'),
    step(true, 'exec', c, '--cwd', '/nosuchdir', '--', 'pwd'),
    step(true, 'exec', c, '--env', 'FOO=bar', '--', 'sh', '-c', 'echo $FOO'),
    step(true, 'snapshot', c, 's0'),
    step(true, 'snapshot', c, 's1'),
    { argv: ['snapshot', c, 's1'], compare: true, exitCode: 1 },
    step(true, 'query', `${r}:/1.0/instances/${name('cvt-lxr1')}/snapshots`),
    step(false, 'info', c),
    listed,
    step(true, 'restore', c, 's0'),
    step(true, 'copy', c, `${r}:${name('cvt-lxr2')}`),
    step(true, 'copy', c, `${r}:${name('cvt-lxr3')}`, '--instance-only'),
    step(true, 'copy', `${c}/s0`, `${r}:${name('cvt-lxr4')}`),
    { argv: ['copy', c, `${r}:${name('cvt-lxr2')}`], compare: true, exitCode: 1 },
    listed,
    step(true, 'delete', `${c}/s1`),
    step(true, 'query', `${r}:/1.0/instances/${name('cvt-lxr1')}/snapshots`),
    step(true, 'query', `${r}:/1.0/instances/${name('cvt-lxr2')}/snapshots`),
  ];
}

/** Everything the two scripts leave behind, for a cleanup through the daemon's own `lxc`. */
export const refusalLeftovers = (name: Namer) => ({
  instances: [
    name('cvt-lxr0'),
    name('cvt-lxr1'),
    name('cvt-lxr2'),
    name('cvt-lxr3'),
    name('cvt-lxr4'),
    name('cvt-lxr9'),
  ],
  profiles: [name('cvt-lxr-prof')],
  networks: [name('cvt-lxrn'), name('cvt-lxrn2')],
  volumes: [name('cvt-lxr-vol'), name('cvt-lxr-vol2')],
  projects: [name('cvt-lxr-proj'), name('cvt-lxr-proj2')],
  pools: [name('cvt-lxr-pool2')],
});

/** What one daemon answered: the setup, each refusal and each everyday step, in script order. */
export type RefusalRun = { setup: LxcResult[]; refusals: LxcResult[]; everyday: LxcResult[] };

/** Runs setup, the refusals (they change nothing, so most run eight at a time) and the everyday steps on remote `r`. */
export async function runRefusalScripts(
  env: NodeJS.ProcessEnv,
  r: string,
  name: Namer = asWritten,
): Promise<RefusalRun> {
  const setup: LxcResult[] = [];
  for (const s of refusalSetup(r, name)) setup.push(await runStep(env, s));
  const list = lxcRefusals(r, name);
  const refusals: LxcResult[] = new Array(list.length);
  // Creates from the image one at a time (the daemon serialises image unpacks), the rest eight at a time.
  const inits = list.flatMap((x, n) => (x.argv[0] === 'init' ? [n] : []));
  for (const n of inits) refusals[n] = await runLxc(env, list[n]!.argv, 120_000);
  const rest = list.flatMap((x, n) => (x.argv[0] === 'init' ? [] : [n]));
  for (let k = 0; k < rest.length; k += 8)
    await Promise.all(
      rest.slice(k, k + 8).map(async (n) => {
        refusals[n] = await runLxc(env, list[n]!.argv, 120_000);
      }),
    );
  const everyday: LxcResult[] = [];
  for (const s of lxcEveryday(r, name)) everyday.push(await runStep(env, s));
  return { setup, refusals, everyday };
}

/** The first line of what a command printed on stderr, with the remote's name as R:. */
export const firstLine = (x: LxcResult, remote: string) => normalizeLxc(x.stderr, remote).split('\n')[0]!.trim();

/**
 * The fake LXD's verdict on the refusal scripts (its run on remote 'fake'): the setup succeeds,
 * every refusal exits with LXD's code and first line of error, exec honours --cwd and --env,
 * snapshots and copies list as LXD lists them, and only the script's three unknown routes went
 * unanswered. Registered by tests/providers/a/lxc-refusals.test.ts without a daemon and, with one,
 * by tests/integration/lxd/lxc-refusals.test.ts on the fake's half of its run: one run, not two.
 * `name` is the one the run named its objects with.
 */
export function judgeFakeRefusals(got: () => { sim: LxdSimulator; run: RefusalRun }, name: Namer = asWritten): void {
  it('the fake: sets up the objects the refusals name', () => {
    const { run } = got();
    expect(run.setup.map((x) => [x.cmd, x.code, x.stderr])).toEqual(run.setup.map((x) => [x.cmd, 0, '']));
  });

  const refusals = lxcRefusals('fake', name);
  // titles as written, so they do not change from run to run
  for (const [n, titled] of lxcRefusals('fake').entries())
    it(`the fake: refuses lxc ${titled.argv.join(' ')} as LXD does`, () => {
      const refusal = refusals[n]!;
      const x = got().run.refusals[n]!;
      expect({ code: x.code, firstLine: firstLine(x, 'fake') }).toEqual({
        code: refusal.exitCode,
        firstLine: refusal.firstLine,
      });
    });

  it('the fake: runs exec in --cwd (falling back to /) and with --env', () => {
    expect(
      got()
        .run.everyday.slice(0, 4)
        .map((x) => x.stdout),
    ).toEqual(['/tmp\n', '/root\n', '/\n', 'bar\n']);
  });

  it('the fake: takes, lists, restores and deletes snapshots, and copies with and without them', () => {
    const { run } = got();
    const steps = lxcEveryday('fake', name);
    run.everyday.forEach((x, n) => expect(x.code, `${x.cmd}\n${x.stderr}`).toBe(steps[n]!.exitCode ?? 0));
    const lists = run.everyday.filter((x) => x.cmd.includes(' list '));
    expect(lists.map((x) => x.stdout)).toEqual([
      `${name('cvt-lxr1')},2\n`,
      `${name('cvt-lxr1')},2\n${name('cvt-lxr2')},2\n${name('cvt-lxr3')},0\n${name('cvt-lxr4')},0\n`,
    ]);
    const snapshots = run.everyday.filter((x) => x.cmd.includes('/snapshots')).map((x) => JSON.parse(x.stdout));
    expect(snapshots).toEqual([
      [`/1.0/instances/${name('cvt-lxr1')}/snapshots/s0`, `/1.0/instances/${name('cvt-lxr1')}/snapshots/s1`],
      [`/1.0/instances/${name('cvt-lxr1')}/snapshots/s0`],
      [`/1.0/instances/${name('cvt-lxr2')}/snapshots/s0`, `/1.0/instances/${name('cvt-lxr2')}/snapshots/s1`],
    ]);
  });

  it('the fake: left no request unanswered by a route but the three the script makes up', () => {
    const expected = ['GET /1.0/nosuch', `GET /1.0/instances/${name('cvt-lxr1')}/nosuch`, 'DELETE /1.0/profiles'];
    expect(
      got()
        .sim.unmatched.map((u) => `${u.method} ${u.path}`)
        .sort(),
    ).toEqual(expected.sort());
  });
}
