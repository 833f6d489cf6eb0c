// Commands run inside an instance (the `execs` map): record-output mode without websockets, the exit
// code from the operation's `return` (also on a failed operation), output fetched then deleted.
import { z } from 'zod';
import { ProviderError } from '../../../engine/errors.js';
import type { Ctx, LxdClient } from '../client.js';
import type { Operation } from '../wire/envelope.js';
import { failedOperation } from '../errors.js';

export const execSchema = z.object({
  command: z
    .array(z.string())
    .min(1)
    .describe('Command and its arguments, run directly (no shell); at least one element.'),
  environment: z
    .record(z.string(), z.string())
    .default({})
    .describe('Environment variables for the command; default none.'),
  workingDir: z
    .string()
    .default('')
    .describe("Working directory inside the instance; default empty (the server's default)."),
  trigger: z
    .enum(['on_change', 'on_start', 'once'])
    .default('on_change')
    .describe(
      'When the command runs: `on_change` on every create or update (default), `on_start` when this apply starts the instance, `once` only on its first run.',
    ),
  enabled: z.boolean().default(true).describe('Whether the command runs at all; default `true`.'),
  recordOutput: z.boolean().default(false).describe('Record stdout and stderr into `execResults`; default `false`.'),
  failOnError: z
    .boolean()
    .default(false)
    .describe('Fail the apply when the command exits non-zero; default `false` (the exit code is only recorded).'),
  uid: z.number().int().nonnegative().optional().describe('Numeric user id to run the command as; when omitted, root.'),
  gid: z
    .number()
    .int()
    .nonnegative()
    .optional()
    .describe('Numeric group id to run the command as; when omitted, root.'),
});
export type Exec = z.output<typeof execSchema>;
export type ExecResult = {
  readonly exitCode: number;
  readonly stdout: string;
  readonly stderr: string;
  readonly runCount: number;
};

/** Runs one command; a non-zero exit is a result, not an error (failOnError decides). */
export async function runExec(
  ctx: Ctx,
  client: LxdClient,
  instance: string,
  project: string | undefined,
  key: string,
  exec: Exec,
): Promise<Omit<ExecResult, 'runCount'>> {
  const body: Record<string, unknown> = {
    command: exec.command,
    environment: exec.environment,
    'wait-for-websocket': false,
    interactive: false,
    'record-output': exec.recordOutput,
    ...(exec.workingDir ? { cwd: exec.workingDir } : {}),
    ...(exec.uid !== undefined ? { user: exec.uid } : {}),
    ...(exec.gid !== undefined ? { group: exec.gid } : {}),
  };
  let op: Operation | undefined;
  try {
    op = (
      await client.request(ctx, {
        method: 'POST',
        pathTemplate: '/1.0/instances/{name}/exec',
        params: { name: instance },
        operation: `exec ${key}`,
        project,
        body,
      })
    ).operation;
  } catch (error) {
    op = failedOperation(error);
    if (!op || exec.failOnError) throw error;
  }
  const md = (op?.metadata ?? {}) as { return?: number; output?: Record<string, string> };
  const exitCode = typeof md.return === 'number' ? md.return : -1;
  let stdout = '';
  let stderr = '';
  for (const [fd, logPath] of Object.entries(md.output ?? {})) {
    const text = (
      await client.download(ctx, {
        method: 'GET',
        pathTemplate: '/1.0/instances/{name}/logs/{file}',
        serverPath: logPath,
        operation: 'read exec output',
        project,
      })
    ).body;
    if (fd === '1') stdout = text;
    else if (fd === '2') stderr = text;
    await client
      .request(ctx, {
        method: 'DELETE',
        pathTemplate: '/1.0/instances/{name}/logs/{file}',
        serverPath: logPath,
        operation: 'delete exec output',
        project,
      })
      .catch(() => {});
  }
  if (exitCode !== 0 && exec.failOnError) {
    throw new ProviderError({
      provider: 'prova',
      operation: `exec ${key}`,
      retryable: false,
      vendorCode: 'exec_failed',
      detail: `command of exec "${key}" in instance ${instance} exited with code ${exitCode}`,
    });
  }
  return { exitCode, stdout, stderr };
}

/** Runs the enabled execs in key order; `started` says whether the instance was started by this apply. */
export async function runExecs(
  ctx: Ctx,
  client: LxdClient,
  instance: string,
  project: string | undefined,
  execs: Readonly<Record<string, Exec>>,
  prior: Readonly<Record<string, ExecResult>>,
  mode: { readonly created: boolean; readonly started: boolean },
): Promise<Record<string, ExecResult>> {
  const results: Record<string, ExecResult> = {};
  for (const key of Object.keys(execs).sort()) {
    const e = execs[key]!;
    const before = prior[key];
    const runCount = before?.runCount ?? 0;
    const due =
      e.enabled &&
      (mode.created ||
        e.trigger === 'on_change' ||
        (e.trigger === 'on_start' && mode.started) ||
        (e.trigger === 'once' && runCount === 0));
    if (!due) {
      results[key] = before ?? { exitCode: -1, stdout: '', stderr: '', runCount: 0 };
      continue;
    }
    const r = await runExec(ctx, client, instance, project, key, e);
    results[key] = { ...r, runCount: runCount + 1 };
  }
  return results;
}
