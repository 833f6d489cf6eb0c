// The fake LXD's exec: a few commands interpreted against the instance's files (cat [file], echo,
// true, false, env, pwd (in the request's cwd), sh -c "exit N" / "echo $VAR"), with `return` in the operation's metadata and op Failure
// with return 127 for an unknown command, as the daemon does. Output goes either to log files
// (record-output) or, with wait-for-websocket, to the operation's websockets the way `lxc exec`
// reads them: fds 0/1/2 + control (or 0 + control when interactive), data as binary messages, each
// stream closed when the command ends; the command runs once every websocket is connected.
import type { WebSocket } from 'ws';
import { randomUUID } from 'node:crypto';
import type { Route } from '../../../kit/sim/router.js';
import { scoped, type Instance, type SimStore, type Operation } from './store.js';
import { asyncOp, error, projectOf, type Body } from './wire.js';

type Result = { code: number; stdout: string; stderr: string } | 'not-found';

/** How long the command waits for its websockets before the operation fails, as on the daemon. */
const CONNECT_TIMEOUT_MS = 10_000;

/** The working directory a command runs in: `cwd` when it is a directory of the instance, else `/` (as the daemon falls back); root's home when unset. */
function workingDir(i: Instance, cwd: string): string {
  const dir = cwd || '/root';
  return i.files.get(dir)?.type === 'directory' ? dir : '/';
}

/** `$NAME` and `${NAME}` replaced by the command's environment (empty when unset), as sh expands them. */
const expand = (text: string, env: Record<string, string>) =>
  text.replace(/\$\{(\w+)\}|\$(\w+)/g, (_m, a: string | undefined, b: string | undefined) => env[(a ?? b)!] ?? '');

function interpret(i: Instance, argv: string[], env: Record<string, string>, stdin: string, cwd = ''): Result {
  const [cmd, ...args] = argv;
  switch (cmd) {
    case 'pwd':
      return { code: 0, stdout: `${workingDir(i, cwd)}\n`, stderr: '' };
    case 'true':
      return { code: 0, stdout: '', stderr: '' };
    case 'false':
      return { code: 1, stdout: '', stderr: '' };
    case 'echo':
      return { code: 0, stdout: `${args.join(' ')}\n`, stderr: '' };
    case 'env':
      return {
        code: 0,
        stdout: Object.entries(env)
          .map(([k, v]) => `${k}=${v}\n`)
          .join(''),
        stderr: '',
      };
    case 'cat': {
      if (!args.length) return { code: 0, stdout: stdin, stderr: '' };
      const f = i.files.get(args[0] ?? '');
      return f && f.type === 'file'
        ? { code: 0, stdout: f.content, stderr: '' }
        : { code: 1, stdout: '', stderr: `cat: can't open '${args[0]}': No such file or directory\n` };
    }
    case 'sh':
    case '/bin/sh': {
      const script = args[0] === '-c' ? (args[1] ?? '') : '';
      const exit = /^exit (\d+)$/.exec(script.trim());
      if (exit) return { code: Number(exit[1]), stdout: '', stderr: '' };
      const echo = /^echo (.*)$/.exec(script.trim());
      if (echo) {
        const text = echo[1]!.replace(/^["']|["']$/g, '');
        return { code: 0, stdout: `${echo[1]!.startsWith("'") ? text : expand(text, env)}\n`, stderr: '' };
      }
      if (script.trim() === 'pwd') return { code: 0, stdout: `${workingDir(i, cwd)}\n`, stderr: '' };
      return { code: 0, stdout: '', stderr: '' };
    }
    default:
      return 'not-found';
  }
}

type Streams = { secrets: Record<string, string>; connected: Promise<Map<string, WebSocket>>; stdin: Promise<string> };

/**
 * Secrets per fd, a promise of the connected sockets (rejected after the connect timeout), and
 * stdin: binary messages on fd 0 until lxc's end-of-input (an empty text message) or a close.
 */
function websocketsFor(op: Operation, fds: readonly string[]): Streams {
  const secrets = Object.fromEntries(fds.map((fd) => [fd, randomUUID().replace(/-/g, '')]));
  const sockets = new Map<string, WebSocket>();
  const chunks: Buffer[] = [];
  let endInput: () => void = () => {};
  const stdin = new Promise<string>((resolve) => {
    endInput = () => resolve(Buffer.concat(chunks).toString('utf8'));
  });
  op.websockets = new Map();
  const connected = new Promise<Map<string, WebSocket>>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error('Timed out waiting for websockets to connect')),
      CONNECT_TIMEOUT_MS,
    );
    for (const fd of fds) {
      op.websockets!.set(secrets[fd]!, (ws) => {
        op.websockets!.delete(secrets[fd]!);
        sockets.set(fd, ws);
        ws.on('error', () => {});
        if (fd === '0') {
          ws.on('message', (data: Buffer, isBinary) => {
            if (isBinary) chunks.push(data);
            else if (!data.length) endInput();
          });
          ws.on('close', endInput);
        }
        if (sockets.size === fds.length) {
          clearTimeout(timer);
          resolve(sockets);
        }
      });
    }
  });
  return { secrets, connected, stdin };
}

/** Writes a stream's bytes as one binary message (none when empty), then closes the socket. */
function finish(ws: WebSocket | undefined, data: string): Promise<void> {
  if (!ws) return Promise.resolve();
  return new Promise((resolve) => {
    const close = () => {
      ws.close(1000);
      resolve();
    };
    if (data && ws.readyState === ws.OPEN) ws.send(Buffer.from(data), { binary: true }, close);
    else close();
  });
}

export const execRoute: Route<SimStore> = {
  method: 'POST',
  path: '/1.0/instances/:name/exec',
  handler: (req, s) => {
    const i = s.instances.get(scoped(projectOf(req), req.params.name!));
    if (!i) return error(404, 'Instance not found');
    if (!i.running) return error(400, 'Instance is not running');
    const b = (req.body ?? {}) as Body;
    const argv = Array.isArray(b.command) ? (b.command as string[]) : [];
    const env = (b.environment ?? {}) as Record<string, string>;
    const cwd = typeof b.cwd === 'string' ? b.cwd : '';
    const withSockets = b['wait-for-websocket'] === true;
    const interactive = b.interactive === true;
    const record = b['record-output'] === true && !withSockets;
    let sockets: Streams | undefined;
    const op = s.operation(
      'Executing command',
      { instances: [`/1.0/instances/${i.name}`] },
      async (o) => {
        const streams = sockets ? await sockets.connected : undefined;
        const readsStdin = argv.length === 1 && argv[0] === 'cat';
        const r = interpret(i, argv, env, readsStdin && sockets ? await sockets.stdin : '', cwd);
        const code = r === 'not-found' ? 127 : r.code;
        if (streams) {
          const out = r === 'not-found' ? { stdout: '', stderr: '' } : r;
          if (interactive) await finish(streams.get('0'), out.stdout + out.stderr);
          else
            await Promise.all([
              finish(streams.get('1'), out.stdout),
              finish(streams.get('2'), out.stderr),
              finish(streams.get('0'), ''),
            ]);
          await finish(streams.get('control'), '');
        }
        o.metadata = { ...(streams ? { fds: sockets!.secrets } : {}), return: code };
        if (r === 'not-found') throw new Error('Command not found');
        if (record) {
          const base = `/1.0/instances/${i.name}/logs/exec_${o.id}`;
          s.logs.set(`${base}.stdout`, r.stdout);
          s.logs.set(`${base}.stderr`, r.stderr);
          o.metadata.output = { 1: `${base}.stdout`, 2: `${base}.stderr` };
        }
      },
      { cls: withSockets ? 'websocket' : 'task', project: i.project },
    );
    if (withSockets) {
      sockets = websocketsFor(op, interactive ? ['0', 'control'] : ['0', '1', '2', 'control']);
      sockets.connected.catch(() => {});
      op.metadata = { fds: sockets.secrets };
    }
    return asyncOp(op);
  },
};
