// The fake LXD's exec: a few commands interpreted against the instance's files (cat, echo, true,
// false, sh -c "exit N" / "echo …"), recorded output in log files, `return` in the operation's
// metadata, and op Failure with return 127 for an unknown command, as the daemon does.
import type { Route } from '../../../kit/sim/router.js';
import { scoped, type Instance, type LxdStore } from './store.js';
import { asyncOp, error, projectOf, type Body } from './wire.js';

type Result = { code: number; stdout: string; stderr: string } | 'not-found';

function interpret(i: Instance, argv: string[], env: Record<string, string>): Result {
  const [cmd, ...args] = argv;
  switch (cmd) {
    case 'true': return { code: 0, stdout: '', stderr: '' };
    case 'false': return { code: 1, stdout: '', stderr: '' };
    case 'echo': return { code: 0, stdout: `${args.join(' ')}\n`, stderr: '' };
    case 'env': return { code: 0, stdout: Object.entries(env).map(([k, v]) => `${k}=${v}\n`).join(''), stderr: '' };
    case 'cat': {
      const f = i.files.get(args[0] ?? '');
      return f && f.type === 'file' ? { code: 0, stdout: f.content, stderr: '' } : { code: 1, stdout: '', stderr: `cat: can't open '${args[0]}': No such file or directory\n` };
    }
    case 'sh': case '/bin/sh': {
      const script = args[0] === '-c' ? (args[1] ?? '') : '';
      const exit = /^exit (\d+)$/.exec(script.trim());
      if (exit) return { code: Number(exit[1]), stdout: '', stderr: '' };
      const echo = /^echo (.*)$/.exec(script.trim());
      if (echo) return { code: 0, stdout: `${echo[1]!.replace(/^["']|["']$/g, '')}\n`, stderr: '' };
      return { code: 0, stdout: '', stderr: '' };
    }
    default: return 'not-found';
  }
}

export const execRoute: Route<LxdStore> = {
  method: 'POST', path: '/1.0/instances/:name/exec', handler: (req, s) => {
    const i = s.instances.get(scoped(projectOf(req), req.params.name!));
    if (!i) return error(404, 'Instance not found');
    if (!i.running) return error(400, 'Instance is not running');
    const b = (req.body ?? {}) as Body;
    const argv = Array.isArray(b.command) ? (b.command as string[]) : [];
    const record = b['record-output'] === true && b['wait-for-websocket'] === false;
    const op = s.operation('Executing command', { instances: [`/1.0/instances/${i.name}`] }, (o) => {
      const r = interpret(i, argv, (b.environment ?? {}) as Record<string, string>);
      if (r === 'not-found') {
        o.metadata = { return: 127 };
        throw new Error('Command not found');
      }
      const md: Record<string, unknown> = { return: r.code };
      if (record) {
        const base = `/1.0/instances/${i.name}/logs/exec_${o.id}`;
        s.logs.set(`${base}.stdout`, r.stdout);
        s.logs.set(`${base}.stderr`, r.stderr);
        md.output = { 1: `${base}.stdout`, 2: `${base}.stderr` };
      }
      o.metadata = md;
    });
    return asyncOp(op);
  },
};
