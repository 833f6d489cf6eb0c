// `converge fleet`: the fleet (converge/fleet) from the command line — a worker, the status of every
// stack, the run history, and the operator's verbs (register, enqueue, approve, pause, resume,
// cancel). Each prints a plain-text table or line, or JSON with --json; all print through Io only.
import { type Command, Option } from 'commander';
import { Fleet, RUN_KINDS, RUN_STATUSES } from '../fleet/index.js';
import type { FleetEvent, Run, RunKind, RunStatus, StackRegistration } from '../fleet/index.js';
import { interrupts, type Io } from './io.js';

/** Where the fleet is: its database and schema (the same in every process of one fleet). */
type FleetFlags = { readonly database?: string; readonly schema?: string; readonly json?: boolean };

type Runner = (f: () => Promise<number>) => Promise<void>;

async function withFleet(flags: FleetFlags, f: (fleet: Fleet) => Promise<number>, poolSize = 4): Promise<number> {
  if (!flags.database)
    throw new TypeError('Expected a database: give --database <url> or set CONVERGE_FLEET_DATABASE_URL');
  const fleet = await Fleet.open({ connectionString: flags.database, schema: flags.schema, poolSize });
  try {
    return await f(fleet);
  } finally {
    await fleet.close();
  }
}

/** Columns padded to their widest cell; a header line first. */
function table(head: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (r: readonly string[]) =>
    r
      .map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  return [line(head), ...rows.map(line)].join('\n');
}

const time = (iso: string | null) => (iso ? iso.replace('T', ' ').replace(/\.\d+Z$/, 'Z') : '-');
const short = (id: string) => id.slice(0, 8);

function summaryText(r: Run): string {
  if (r.errorCode) return `${r.errorCode}: ${(r.errorMessage ?? '').split('\n')[0]!.slice(0, 80)}`;
  if (r.driftFound !== null) return r.driftFound ? 'drift found' : 'no drift';
  const s = r.summary as Record<string, number> | null;
  if (!s) return '';
  const parts = ['create', 'update', 'replace', 'delete', 'read'].filter((k) => s[k]).map((k) => `${s[k]} to ${k}`);
  return parts.length ? parts.join(', ') : 'no changes';
}

function runsTable(runs: readonly Run[]): string {
  if (runs.length === 0) return 'No runs.';
  return table(
    ['RUN', 'STACK', 'KIND', 'STATUS', 'QUEUED', 'FINISHED', 'RESULT'],
    runs.map((r) => [r.id, r.stack, r.kind, r.status, time(r.queuedAt), time(r.finishedAt), summaryText(r)]),
  );
}

/** One event as a line of the worker's log. */
function eventLine(e: FleetEvent): string {
  const at = time(e.at);
  switch (e.type) {
    case 'run_queued':
      return `${at}  queued    ${e.stack} ${e.kind} (run ${short(e.runId)})`;
    case 'run_started':
      return `${at}  started   ${e.stack} ${e.kind} (run ${short(e.runId)}, attempt ${e.attempt}, ${e.worker})`;
    case 'run_finished':
      return `${at}  ${e.status.padEnd(9)} ${e.stack} ${e.kind} (run ${short(e.runId)})${e.errorCode ? `: ${e.errorCode}` : ''}`;
    case 'drift_found':
      return `${at}  drift     ${e.stack}: ${e.addresses.join(', ')} (${e.then}${e.followUpRunId ? `, run ${short(e.followUpRunId)}` : ''})`;
    case 'drift_skipped':
      return `${at}  skipped   drift check of ${e.stack}: ${e.reason}`;
    case 'connection_wait':
      return `${at}  waiting   the database refused a connection for capacity: retry ${e.attempt} in ${e.delayMs} ms`;
    case 'budget_wait':
      return `${at}  waiting   ${e.stack} (run ${short(e.runId)}): account ${e.account}'s request budget, ${e.waitMs} ms`;
    case 'account_wait':
      return `${at}  waiting   ${e.stack} (run ${short(e.runId)}): account ${e.account}'s run limit, ${e.running} of ${e.limit} running`;
    case 'queue_error':
      return `${at}  queue     ${e.message}`;
  }
}

/** `converge fleet worker`: works runs until SIGINT/SIGTERM (once: finish the steps in flight; twice: abort). */
export async function fleetWorker(
  io: Io,
  flags: FleetFlags & { concurrency?: string; accountConcurrency?: string },
  signals?: { stop: AbortSignal; abort: AbortSignal },
): Promise<number> {
  const concurrency = flags.concurrency === undefined ? 4 : Number(flags.concurrency);
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 1000)
    throw new TypeError(`Expected --concurrency to be an integer from 1 to 1000, not '${flags.concurrency}'`);
  // runs hold no connection of their own (their locks share one): a pool that grows with the
  // concurrency up to 20 connections, 4 of them for the events, the locks and the queue
  return withFleet(
    flags,
    async (fleet) => {
      const own = signals ? undefined : interrupts(io);
      const stop = signals?.stop ?? own!.stop;
      const abort = signals?.abort ?? own!.abort;
      const onTerm = () => void process.emit('SIGINT', 'SIGINT'); // SIGTERM as Ctrl-C: stop, then abort
      if (own) process.on('SIGTERM', onTerm);
      const off = await fleet.on((e) => io.out(flags.json ? JSON.stringify(e) : eventLine(e)));
      try {
        if (!flags.json) io.out(`Working runs of fleet ${flags.schema ?? 'converge_fleet'}. Ctrl-C stops.`);
        await fleet.work({
          concurrency,
          accountConcurrency: flags.accountConcurrency === undefined ? undefined : Number(flags.accountConcurrency),
          stopSignal: stop,
          signal: abort,
        });
        return 0;
      } finally {
        off();
        if (own) process.off('SIGTERM', onTerm);
        own?.dispose();
      }
    },
    Math.min(20, concurrency + 4),
  );
}

/** `converge fleet status`: every stack — paused, failed, running, queue length, last run, last drift check. */
function fleetStatus(io: Io, flags: FleetFlags): Promise<number> {
  return withFleet(flags, async (fleet) => {
    const s = await fleet.status();
    if (flags.json) {
      io.out(JSON.stringify(s, null, 2));
      return 0;
    }
    if (s.paused) io.out('The fleet is paused: no run starts until `converge fleet resume`.\n');
    if (s.stacks.length === 0) {
      io.out('No stacks registered.');
      return 0;
    }
    const state = (x: (typeof s.stacks)[number]) =>
      x.failedRunId ? 'failed' : x.paused ? 'paused' : x.running ? 'running' : 'idle';
    io.out(
      table(
        ['STACK', 'STATE', 'QUEUED', 'LAST RUN', 'DRIFT', 'SCHEDULE'],
        s.stacks.map((x) => [
          x.name,
          state(x),
          String(x.queueLength),
          x.lastRun ? `${x.lastRun.kind} ${x.lastRun.status} ${time(x.lastRun.finishedAt ?? x.lastRun.queuedAt)}` : '-',
          x.drift ? `${x.drift.found ? 'found' : 'none'} ${time(x.drift.checkedAt)}` : '-',
          x.driftCron ? `${x.driftCron} (${x.onDrift})` : '-',
        ]),
      ),
    );
    return 0;
  });
}

/** `converge fleet runs`: the run history, newest first. */
function fleetRuns(
  io: Io,
  flags: FleetFlags & { stack?: string; status?: string[]; since?: string; limit?: string },
): Promise<number> {
  for (const s of flags.status ?? [])
    if (!(RUN_STATUSES as readonly string[]).includes(s))
      throw new TypeError(`Expected --status to be one of ${RUN_STATUSES.join(', ')}, not '${s}'`);
  if (flags.since !== undefined && Number.isNaN(Date.parse(flags.since)))
    throw new TypeError(`Expected --since to be a date or time, not '${flags.since}'`);
  return withFleet(flags, async (fleet) => {
    const runs = await fleet.runs({
      stack: flags.stack,
      status: flags.status as RunStatus[] | undefined,
      since: flags.since,
      limit: flags.limit === undefined ? undefined : Number(flags.limit),
    });
    io.out(flags.json ? JSON.stringify(runs, null, 2) : runsTable(runs));
    return 0;
  });
}

/** A verb's result: its JSON, or a sentence. */
function said(io: Io, flags: FleetFlags, json: unknown, text: string): number {
  io.out(flags.json ? JSON.stringify(json) : text);
  return 0;
}

function fleetEnqueue(io: Io, stack: string, kind: string, flags: FleetFlags): Promise<number> {
  if (!(RUN_KINDS as readonly string[]).includes(kind))
    throw new TypeError(`Expected a run kind (${RUN_KINDS.join(', ')}), not '${kind}'`);
  return withFleet(flags, async (fleet) => {
    const runId = await fleet.enqueue(stack, kind as RunKind, { origin: 'cli' });
    return said(io, flags, { runId, stack, kind }, `Queued ${kind} of ${stack}: run ${runId}`);
  });
}

function fleetApprove(io: Io, runId: string, flags: FleetFlags): Promise<number> {
  return withFleet(flags, async (fleet) => {
    const applyRunId = await fleet.approve(runId);
    return said(io, flags, { runId: applyRunId, planRunId: runId }, `Approved: run ${applyRunId} applies that plan`);
  });
}

function fleetCancel(io: Io, runId: string, flags: FleetFlags): Promise<number> {
  return withFleet(flags, async (fleet) => {
    const status = await fleet.cancel(runId);
    const text =
      status === 'running'
        ? `Run ${runId} is running: its worker aborts it`
        : status === 'cancelled'
          ? `Run ${runId} is cancelled`
          : `Run ${runId} had already ended (${status})`;
    return said(io, flags, { runId, status }, text);
  });
}

function fleetPause(io: Io, stack: string | undefined, resume: boolean, flags: FleetFlags): Promise<number> {
  return withFleet(flags, async (fleet) => {
    await (resume ? fleet.resume(stack) : fleet.pause(stack));
    const what = stack ? `Stack ${stack}` : 'The fleet';
    return said(io, flags, { stack: stack ?? null, paused: !resume }, `${what} is ${resume ? 'resumed' : 'paused'}`);
  });
}

function fleetRegister(
  io: Io,
  name: string,
  module: string,
  flags: FleetFlags & {
    driftCron?: string;
    driftJitter?: string;
    onDrift?: string;
    account?: string;
    paused?: boolean;
  },
): Promise<number> {
  return withFleet(flags, async (fleet) => {
    const reg: StackRegistration = {
      name,
      module,
      ...(flags.driftCron !== undefined ? { driftCron: flags.driftCron } : {}),
      ...(flags.driftJitter !== undefined ? { driftJitterSeconds: Number(flags.driftJitter) } : {}),
      ...(flags.onDrift !== undefined ? { onDrift: flags.onDrift as StackRegistration['onDrift'] } : {}),
      ...(flags.account !== undefined ? { account: flags.account } : {}),
      ...(flags.paused ? { paused: true } : {}),
    };
    await fleet.register(reg);
    return said(io, flags, reg, `Registered stack ${name} (${module})`);
  });
}

/** Adds `fleet` and its subcommands to the program. */
export function addFleetCommands(program: Command, io: Io, run: Runner): void {
  const fleet = program
    .command('fleet')
    .description('many stacks, many workers, one PostgreSQL: queue runs, approve plans, watch drift')
    .addOption(new Option('--database <url>', "the fleet's PostgreSQL").env('CONVERGE_FLEET_DATABASE_URL'))
    .addOption(
      new Option('--schema <name>', "the fleet's schema").env('CONVERGE_FLEET_SCHEMA').default('converge_fleet'),
    );
  const opts = (c: Command) => ({ ...(fleet.opts() as FleetFlags), ...(c.opts() as object) });
  const json = (c: Command) => c.option('--json', 'print JSON');
  json(fleet.command('worker').description('work runs until Ctrl-C or SIGTERM (twice: abort the runs in flight)'))
    .option('--concurrency <n>', 'runs at once in this process (default 4)')
    .option('--account-concurrency <n>', 'runs of one account at once across the fleet (default 4)')
    .action(function (this: Command) {
      return run(() => fleetWorker(io, opts(this)));
    });
  json(fleet.command('status').description('every stack: state, queue, last run, drift')).action(function (
    this: Command,
  ) {
    return run(() => fleetStatus(io, opts(this)));
  });
  const list = (v: string, prev: string[] = []) => [...prev, ...v.split(',').filter(Boolean)];
  json(fleet.command('runs').description('the run history, newest first'))
    .option('--stack <name>', "only this stack's runs")
    .option('--status <status>', `only runs of these statuses (${RUN_STATUSES.join(', ')})`, list)
    .option('--since <time>', 'only runs queued at or after this time')
    .option('--limit <n>', 'at most this many (default 100)')
    .action(function (this: Command) {
      return run(() => fleetRuns(io, opts(this)));
    });
  json(fleet.command('enqueue <stack> <kind>').description(`queue a run (${RUN_KINDS.join(', ')})`)).action(function (
    this: Command,
    stack: string,
    kind: string,
  ) {
    return run(() => fleetEnqueue(io, stack, kind, opts(this)));
  });
  json(fleet.command('approve <run>').description('queue an apply of exactly the plan a plan run saved')).action(
    function (this: Command, id: string) {
      return run(() => fleetApprove(io, id, opts(this)));
    },
  );
  json(fleet.command('cancel <run>').description('cancel a queued run, or abort a running one')).action(function (
    this: Command,
    id: string,
  ) {
    return run(() => fleetCancel(io, id, opts(this)));
  });
  for (const [verb, resume] of [
    ['pause', false],
    ['resume', true],
  ] as const)
    json(
      fleet
        .command(`${verb} [stack]`)
        .description(resume ? 'resume a stack (also after a failed run), or the fleet' : 'pause a stack, or the fleet'),
    ).action(function (this: Command, stack?: string) {
      return run(() => fleetPause(io, stack, resume, opts(this)));
    });
  json(fleet.command('register <name> <module>').description("register a stack, or update a stack's settings"))
    .option('--drift-cron <cron>', 'check drift on this schedule (cron, UTC)')
    .option('--drift-jitter <seconds>', 'wait a random 0..seconds before each check')
    .addOption(new Option('--on-drift <what>', 'what a drift found does').choices(['report', 'plan', 'apply']))
    .option('--account <key>', 'the provider account (its runs are limited across the fleet)')
    .option('--paused', 'register it paused')
    .action(function (this: Command, name: string, module: string) {
      return run(() => fleetRegister(io, name, module, opts(this)));
    });
}
