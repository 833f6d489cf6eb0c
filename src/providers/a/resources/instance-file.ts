// prova:index/instanceFile:InstanceFile: a file in an existing instance. Every change replaces it
// (no update); read refreshes uid, gid and mode from the file's headers (not when appending: then the
// file is someone else's and only the appended text is ours); a missing file is gone. A file carries
// no mark of the create that wrote it, so before the request the engine records what was at the
// path (`existing`: the digest of its content, or nothing) and find compares: the write landed when
// the file now holds exactly what it wrote (overwrite) or what was there plus the appended text.
import { z } from 'zod';
import { defineResource, type CheckIssue } from '../../../engine/provider/define.js';
import { scopeIssues } from './checks.js';
import type { ProvaConfig, ProvaContext } from '../config.js';
import { createHash } from 'node:crypto';
import {
  absoluteTarget,
  contentOf,
  deleteFile,
  fileIssues,
  fileOwnership,
  statFile,
  uploadFile,
} from '../support/files.js';
import { cannotTell } from '../../../engine/provider/define.js';
import { projectOf } from '../support/objects.js';

const inputs = z
  .object({
    instance: z.string().min(1).describe('Name of the existing instance that holds the file.'),
    targetPath: z.string().min(1).describe('Absolute path of the file inside the instance, including the file name.'),
    content: z.string().optional().describe('File contents; exactly one of `content` and `sourcePath` must be set.'),
    sourcePath: z
      .string()
      .optional()
      .describe(
        'Path of a local file whose contents are uploaded; exactly one of `content` and `sourcePath` must be set.',
      ),
    append: z
      .boolean()
      .default(false)
      .describe('Append the contents to an existing file instead of overwriting it; default `false`.'),
    createDirectories: z
      .boolean()
      .default(false)
      .describe('Create missing directories leading to `targetPath`; default `false`.'),
    ...fileOwnership,
    project: z
      .string()
      .optional()
      .describe(
        "Project the file lives in; when omitted, the remote's `default` project is used. Changing it replaces the file.",
      ),
    remote: z
      .string()
      .optional()
      .describe(
        "Name of the remote that holds the file; when omitted, the provider's default remote is used. Changing it replaces the file.",
      ),
  })
  .describe(
    'A file in an existing instance, written from `content` or a local `sourcePath`. Changing any field replaces the file.',
  );
const outputs = z.object({
  resourceId: z.string().describe('Identifier of the managed file: remote, project, instance and target path.'),
});

type Inputs = z.output<typeof inputs>;

/** id = `<remote>:<instance>:<targetPath>` (the upstream resource_id); project comes from the inputs. */
function partsOf(id: string): { remote: string; instance: string; target: string } {
  const [remote = '', instance = '', ...rest] = id.split(':');
  return { remote, instance, target: rest.join(':') };
}

const digest = (content: string) => createHash('sha256').update(content).digest('hex');

async function stat(ctx: ProvaContext, i: Inputs) {
  const client = await ctx.config.client(ctx, i.remote);
  return statFile(ctx, client, i.instance, projectOf(i.project), absoluteTarget(i.targetPath));
}

export const instanceFile = defineResource({
  token: 'prova:index/instanceFile:InstanceFile',
  inputs,
  outputs,
  replaceOn: [
    'instance',
    'targetPath',
    'content',
    'sourcePath',
    'append',
    'createDirectories',
    'uid',
    'gid',
    'mode',
    'project',
    'remote',
  ],
  check(i, config: ProvaConfig): CheckIssue[] {
    const issues: CheckIssue[] = scopeIssues(i, config);
    if ((i.content === undefined) === (i.sourcePath === undefined))
      issues.push({ path: ['content'], message: 'needs exactly one of content and sourcePath' });
    issues.push(...fileIssues(i));
    return issues;
  },
  /** The digest of what is at the path before the request, or nothing when no file is there. */
  async existing(ctx: ProvaContext, i) {
    const s = await stat(ctx, i);
    return s ? [digest(s.content)] : [];
  },
  async create(ctx: ProvaContext, i) {
    const client = await ctx.config.client(ctx, i.remote);
    const target = absoluteTarget(i.targetPath);
    await uploadFile(ctx, client, i.instance, projectOf(i.project), { ...i, targetPath: target });
    const id = `${client.remote}:${i.instance}:${target}`;
    return { id, outputs: { resourceId: id } };
  },
  /** The write landed when the file holds what it wrote (see the header); otherwise nothing was done. */
  async find(ctx: ProvaContext, i, hint) {
    const s = await stat(ctx, i);
    if (!s) return null;
    if (!hint.existing)
      return cannotTell(`a file is at ${i.targetPath} and carries no mark of the create that wrote it`);
    const wrote = String(contentOf(i));
    const landed = i.append
      ? s.content.endsWith(wrote) &&
        (hint.existing[0] ?? digest('')) === digest(s.content.slice(0, s.content.length - wrote.length))
      : s.content === wrote;
    if (!landed) return null;
    const client = await ctx.config.client(ctx, i.remote);
    const id = `${client.remote}:${i.instance}:${absoluteTarget(i.targetPath)}`;
    return { id, outputs: { resourceId: id } };
  },
  async read(ctx: ProvaContext, id, prior) {
    const { remote, instance, target } = partsOf(id);
    const p = prior.inputs as Partial<Inputs>;
    const client = await ctx.config.client(ctx, remote);
    const s = await statFile(ctx, client, instance, projectOf(p.project), target);
    if (!s) return null;
    // Appending: the file's owner and mode were there before (or are the first writer's), not ours to diff.
    if (p.append) return { inputs: { ...p }, outputs: { resourceId: id } };
    // Content written from `content` is compared too, so an edit in the guest shows as drift.
    const content = p.content !== undefined ? { content: s.content } : {};
    return { inputs: { ...p, uid: s.uid, gid: s.gid, mode: s.mode, ...content }, outputs: { resourceId: id } };
  },
  async delete(ctx: ProvaContext, id, prior) {
    const { remote, instance, target } = partsOf(id);
    const client = await ctx.config.client(ctx, remote);
    await deleteFile(ctx, client, instance, projectOf((prior.inputs as Partial<Inputs>).project), target);
  },
});
