// The `converge` command: commander wiring, exit codes (0 ok, 1 error, 2 changes with
// --detailed-exitcode) and the one place errors are printed. The only module that reads argv.
import { Command, Option } from 'commander';
import { applyCommand, destroyCommand, graphCommand, importCommand, planCommand, refreshCommand } from './commands.js';
import { forceUnlockCommand, stateList, stateMv, stateRm, stateShow } from './state.js';
import { terminal, type Io } from './io.js';
import { addFleetCommands } from './fleet.js';
import { renderError } from './advice.js';
import { simulatorCommand, untilInterrupted } from './simulator.js';
import { initCommand } from './init.js';

const many = (v: string, prev: string[] = []) => [
  ...prev,
  ...v
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean),
];

function program(io: Io, done: (code: number) => void): Command {
  const cmd = new Command('converge')
    .description('Plan and apply a converge stack')
    .showHelpAfterError()
    .addOption(new Option('-s, --stack <file>', 'the stack module').env('CONVERGE_STACK').default('converge.stack.ts'));
  const run = (f: () => Promise<number>) => async () => {
    done(await f());
  };
  const common = () => ({ stack: cmd.opts().stack as string });
  const planOpts = (c: Command) =>
    c
      .option('--target <names>', 'only these resources and what they depend on (repeatable, comma-separated)', many)
      .option('--exclude <names>', 'leave out these resources and what depends on them', many)
      .option('--replace <names>', 'replace these resources although nothing forces it', many)
      .option('--refresh-only', 'only record what changed outside converge')
      .option('--no-refresh', 'plan against the state without reading the objects');

  planOpts(cmd.command('plan').description('show what apply would do'))
    .option('--out <file>', 'save the plan for `converge apply <file>`')
    .option('--destroy', 'plan the deletion of everything')
    .option('--detailed-exitcode', 'exit 2 when there are changes (state-only ones included)')
    .option('--markdown', 'print the plan as Markdown (pull-request comments)')
    .option('--json', 'print the plan as JSON')
    .option('--allow-plaintext-secrets', 'with --out: write secret values in clear when no passphrase is set')
    .action(function (this: Command) {
      return run(() => planCommand(io, { ...common(), ...this.opts() }))();
    });
  planOpts(cmd.command('apply [plan]').description('apply a saved plan, or plan and apply after confirmation'))
    .option('--auto-approve', 'skip the confirmation')
    .action(function (this: Command, planFile?: string) {
      return run(() => applyCommand(io, planFile, { ...common(), ...this.opts() }))();
    });
  cmd
    .command('destroy')
    .description('delete everything the state holds')
    .option('--auto-approve', 'skip the confirmation')
    .option('--target <names>', 'only these resources and what depends on them', many)
    .action(function (this: Command) {
      return run(() => destroyCommand(io, { ...common(), ...this.opts() }))();
    });
  cmd
    .command('refresh')
    .description('read every object and record what changed outside converge')
    .action(run(() => refreshCommand(io, common())));
  cmd
    .command('import <name> <id>')
    .description('adopt an existing object as the declared resource <name>')
    .action((name: string, id: string) => run(() => importCommand(io, name, id, common()))());
  const state = cmd.command('state').description('inspect and edit the state');
  state
    .command('list')
    .description('list the records')
    .action(run(() => stateList(io, common())));
  state
    .command('show <address>')
    .description('show one record (secrets hidden)')
    .action((a: string) => run(() => stateShow(io, a, common()))());
  state
    .command('rm <addresses...>')
    .description('forget records without deleting the objects')
    .action((a: string[]) => run(() => stateRm(io, a, common()))());
  state
    .command('mv <from> <to>')
    .description('rename a record')
    .action((f: string, t: string) => run(() => stateMv(io, f, t, common()))());
  cmd
    .command('force-unlock <lockId>')
    .description('release a lock whose holder is gone (a live holder: only with --force, or confirmed on a terminal)')
    .option('--force', 'release it even when its holder is alive or cannot be checked')
    .action(function (this: Command, id: string) {
      return run(() => forceUnlockCommand(io, id, { ...common(), ...this.opts() }))();
    });
  cmd
    .command('simulator <provider>')
    .description(
      'run a shipped simulator (a: the fake LXD, b: Civo, c: Gcore) until Ctrl-C; prints its endpoint and token',
    )
    .option('--port <n>', 'listen on this port (b and c; default: a free one)')
    .action(function (this: Command, which: string) {
      return run(() => simulatorCommand(io, which, this.opts(), untilInterrupted()))();
    });
  cmd
    .command('init [dir]')
    .description(
      'write a stack module, tsconfig.json and package.json to start from (planning against `converge simulator b`)',
    )
    .action((dir?: string) => run(async () => initCommand(io, dir))());
  planOpts(cmd.command('graph').description("print the plan's graph as Mermaid")).action(function (this: Command) {
    return run(() => graphCommand(io, { ...common(), ...this.opts() }))();
  });
  addFleetCommands(cmd, io, (f) => run(f)());
  return cmd;
}

export async function main(argv: readonly string[], io: Io = terminal()): Promise<number> {
  let code = 0;
  const cmd = program(io, (c) => {
    code = c;
  });
  cmd.exitOverride();
  try {
    await cmd.parseAsync([...argv], { from: 'user' });
  } catch (error) {
    const e = error as Error & { code?: string; exitCode?: number };
    if (typeof e.code === 'string' && e.code.startsWith('commander.')) return e.exitCode ?? 1;
    io.err(`\nError: ${renderError(e)}`);
    return 1;
  }
  return code;
}

const invoked = process.argv[1] ?? '';
if (/[\\/]cli[\\/]main\.(ts|js|mjs)$/.test(invoked) || process.env.CONVERGE_CLI_MAIN === '1') {
  void main(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
}
