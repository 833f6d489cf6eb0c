// prova:index/instanceFile:InstanceFile: a file in an existing instance. Every change replaces it
// (no update); read refreshes uid, gid and mode from the file's headers (not when appending: then the
// file is someone else's and only the appended text is ours); a missing file is gone. No find: a
// file carries no mark of the create that wrote it.
import { z } from 'zod';
import { defineResource, type CheckIssue } from '../../../engine/provider/define.js';
import type { OperationContext } from '../../../engine/provider/context.js';
import { scopeIssues } from '../checks.js';
import type { ProvaConfig } from '../connections.js';
import { absoluteTarget, canonicalMode, deleteFile, fileIssues, statFile, uploadFile } from '../files.js';
import { projectOf } from '../objects.js';

const inputs = z.object({
  instance: z.string().min(1),
  targetPath: z.string().min(1),
  content: z.string().optional(),
  sourcePath: z.string().optional(),
  append: z.boolean().default(false),
  createDirectories: z.boolean().default(false),
  uid: z.number().int().nonnegative().default(0),
  gid: z.number().int().nonnegative().default(0),
  mode: z.string().default('0755').transform(canonicalMode),
  project: z.string().optional(),
  remote: z.string().optional(),
});
const outputs = z.object({ resourceId: z.string() });

type Ctx = OperationContext<ProvaConfig>;
type Inputs = z.output<typeof inputs>;

/** id = `<remote>:<instance>:<targetPath>` (the upstream resource_id); project comes from the inputs. */
function partsOf(id: string): { remote: string; instance: string; target: string } {
  const [remote = '', instance = '', ...rest] = id.split(':');
  return { remote, instance, target: rest.join(':') };
}

export const instanceFile = defineResource({
  token: 'prova:index/instanceFile:InstanceFile',
  inputs,
  outputs,
  replaceOn: ['instance', 'targetPath', 'content', 'sourcePath', 'append', 'createDirectories', 'uid', 'gid', 'mode', 'project', 'remote'],
  check(i, config: ProvaConfig): CheckIssue[] {
    const issues: CheckIssue[] = scopeIssues(i, config);
    if ((i.content === undefined) === (i.sourcePath === undefined)) issues.push({ path: ['content'], message: 'needs exactly one of content and sourcePath' });
    issues.push(...fileIssues(i));
    return issues;
  },
  async create(ctx: Ctx, i) {
    const client = await ctx.config.client(ctx, i.remote);
    const target = absoluteTarget(i.targetPath);
    await uploadFile(ctx, client, i.instance, projectOf(i.project), { ...i, targetPath: target });
    const id = `${client.remote}:${i.instance}:${target}`;
    return { id, outputs: { resourceId: id } };
  },
  async read(ctx: Ctx, id, prior) {
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
  async delete(ctx: Ctx, id, prior) {
    const { remote, instance, target } = partsOf(id);
    const client = await ctx.config.client(ctx, remote);
    await deleteFile(ctx, client, instance, projectOf((prior.inputs as Partial<Inputs>).project), target).catch((error) => {
      if (!(error as { notFound?: boolean }).notFound) throw error;
    });
  },
});
