// Files inside an instance (the files API): upload with octet-stream bodies and leading-zero octal
// modes, parent directories one level at a time, stat through the download headers, delete.
import { z } from 'zod';
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { posix } from 'node:path';
import { ConfigError } from '../../../engine/errors.js';
import { type Ctx, type LxdClient } from '../client.js';
import { isNotFound } from '../../../kit/gone.js';

export type FileSpec = {
  readonly targetPath: string;
  readonly content?: string;
  readonly sourcePath?: string;
  readonly uid: number;
  readonly gid: number;
  /** Octal string, '0755'. */
  readonly mode: string;
  readonly createDirectories: boolean;
  readonly append: boolean;
};

export type FileStat = {
  readonly uid: number;
  readonly gid: number;
  readonly mode: string;
  readonly type: string;
  readonly content: string;
};

const T = '/1.0/instances/{name}/files';

/** '755' / '0755' / '0o755' → '0755'. */
export function octalMode(mode: string): string {
  const m = mode.replace(/^0o/, '').replace(/^0+(?=\d)/, '');
  if (!/^[0-7]{1,4}$/.test(m))
    throw new ConfigError('prova', 'mode', `must be an octal permission string like "0755" (got "${mode}")`);
  return `0${m.padStart(3, '0')}`.slice(-4).padStart(4, '0');
}

/** The mode as LXD reports it ('0640'); an invalid one is returned unchanged for check() to report. */
export function canonicalMode(mode: string): string {
  try {
    return octalMode(mode);
  } catch {
    return mode;
  }
}

export function absoluteTarget(target: string): string {
  if (target.endsWith('/'))
    throw new ConfigError('prova', 'targetPath', `must name a file, not a directory (got "${target}")`);
  return target.startsWith('/') ? target : `/${target}`;
}

export async function statFile(
  ctx: Ctx,
  client: LxdClient,
  instance: string,
  project: string | undefined,
  target: string,
): Promise<FileStat | null> {
  try {
    const r = await client.download(ctx, {
      method: 'GET',
      pathTemplate: T,
      params: { name: instance },
      operation: 'read instance file',
      project,
      query: { path: target },
    });
    return {
      uid: Number(r.headers['x-lxd-uid'] ?? 0),
      gid: Number(r.headers['x-lxd-gid'] ?? 0),
      mode: octalMode(r.headers['x-lxd-mode'] ?? '0644'),
      type: r.headers['x-lxd-type'] ?? (r.entries ? 'directory' : 'file'),
      content: r.body,
    };
  } catch (error) {
    if (isNotFound(error)) return null;
    throw error;
  }
}

/** DELETE of one file; a file (or instance) already gone throws LXD's not found. */
export async function deleteFile(
  ctx: Ctx,
  client: LxdClient,
  instance: string,
  project: string | undefined,
  target: string,
): Promise<void> {
  await client.request(ctx, {
    method: 'DELETE',
    pathTemplate: T,
    params: { name: instance },
    operation: 'delete instance file',
    project,
    query: { path: target },
  });
}

/** What a file spec writes: its `content`, or the local file at `sourcePath` (`~` is the home directory). */
export function contentOf(spec: Pick<FileSpec, 'content' | 'sourcePath'>): string | Buffer {
  return spec.content ?? readFileSync(spec.sourcePath!.replace(/^~(?=\/|$)/, homedir()));
}

export async function uploadFile(
  ctx: Ctx,
  client: LxdClient,
  instance: string,
  project: string | undefined,
  spec: FileSpec,
): Promise<void> {
  const target = absoluteTarget(spec.targetPath);
  const mode = octalMode(spec.mode);
  const content = contentOf(spec);
  const owner = { 'x-lxd-uid': String(spec.uid), 'x-lxd-gid': String(spec.gid), 'x-lxd-mode': mode };
  if (spec.createDirectories) {
    const missing: string[] = [];
    for (let dir = posix.dirname(target); dir !== '/'; dir = posix.dirname(dir)) {
      const s = await statFile(ctx, client, instance, project, dir);
      if (s) {
        if (s.type !== 'directory')
          throw new ConfigError('prova', 'targetPath', `has a parent ${dir} that is not a directory`);
        break;
      }
      missing.unshift(dir);
    }
    for (const dir of missing) {
      await client.request(ctx, {
        method: 'POST',
        pathTemplate: T,
        params: { name: instance },
        operation: 'create instance directory',
        project,
        query: { path: dir },
        headers: { ...owner, 'x-lxd-type': 'directory' },
        rawBody: '',
      });
    }
  }
  await client.request(ctx, {
    method: 'POST',
    pathTemplate: T,
    params: { name: instance },
    operation: 'upload instance file',
    project,
    query: { path: target },
    headers: {
      ...owner,
      'x-lxd-type': 'file',
      'x-lxd-write': spec.append ? 'append' : 'overwrite',
      'content-type': 'application/octet-stream',
    },
    rawBody: typeof content === 'string' ? content : new Uint8Array(content),
  });
}

/** The seed's rules for a file, as plan-time issues: an absolute target naming a file, an octal mode. */
export function fileIssues(
  f: { readonly targetPath: string; readonly mode: string },
  at: readonly (string | number)[] = [],
): { path: (string | number)[]; message: string; code: string }[] {
  const issues: { path: (string | number)[]; message: string; code: string }[] = [];
  if (!f.targetPath.startsWith('/'))
    issues.push({
      path: [...at, 'targetPath'],
      code: 'invalid_value',
      message: 'must be an absolute path including the file name, like "/etc/motd"',
    });
  else if (f.targetPath.endsWith('/'))
    issues.push({ path: [...at, 'targetPath'], code: 'invalid_value', message: 'must name a file, not a directory' });
  if (!/^0?[0-7]{3,4}$/.test(f.mode))
    issues.push({
      path: [...at, 'mode'],
      code: 'invalid_value',
      message: 'must be an octal permission string like "0755"',
    });
  return issues;
}

/** Deletes the files an instance had (`previous`), then uploads `files` whole (no append). */
export async function replaceFiles(
  ctx: Ctx,
  client: LxdClient,
  instance: string,
  project: string | undefined,
  previous: readonly { readonly targetPath: string }[],
  files: readonly Omit<FileSpec, 'append'>[],
): Promise<void> {
  // A recorded path is deleted as recorded (made absolute), never refused; one already gone is fine
  // here (a file inside the instance being updated, not the object of a delete step).
  for (const f of previous)
    await deleteFile(
      ctx,
      client,
      instance,
      project,
      f.targetPath.startsWith('/') ? f.targetPath : `/${f.targetPath}`,
    ).catch((error: unknown) => {
      if (!isNotFound(error)) throw error;
    });
  for (const f of files) await uploadFile(ctx, client, instance, project, { ...f, append: false });
}

/** Owner, group and mode of a file written into an instance: the fields the instance's `files` and the InstanceFile resource share. */
export const fileOwnership = {
  uid: z
    .number()
    .int()
    .nonnegative()
    .default(0)
    .describe('Numeric owner user id of the file (an unquoted integer); default `0`.'),
  gid: z
    .number()
    .int()
    .nonnegative()
    .default(0)
    .describe('Numeric owner group id of the file (an unquoted integer); default `0`.'),
  mode: z
    .string()
    .default('0755')
    .transform(canonicalMode)
    .describe('Octal permissions as a quoted string, such as `0644`; default `0755`.'),
};
