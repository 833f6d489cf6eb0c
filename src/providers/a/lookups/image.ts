// The image lookup: an image by alias or fingerprint, on the remote given or the provider's default.
import { z } from 'zod';
import { defineLookup } from '../../../engine/provider/define.js';
import { LookupError } from '../../../engine/errors.js';
import { formatId } from '../support/ids.js';
import { findImage } from '../support/images.js';
import { getObject, projectOf } from '../support/objects.js';
import { remote, project, check, notFound } from './shared.js';
import type { ProvaContext } from '../config.js';

type WireImage = {
  fingerprint: string;
  architecture: string;
  type?: string;
  created_at: string;
  aliases: { name: string }[] | null;
  properties?: Record<string, string>;
};

export const getImage = defineLookup({
  token: 'prova:index/getImage:getImage',
  check,
  args: z
    .object({
      architecture: z
        .string()
        .optional()
        .describe('Architecture the image must have, such as `x86_64` or `aarch64`; when omitted, any.'),
      fingerprint: z
        .string()
        .optional()
        .describe('Image fingerprint (SHA-256 of the image, or a unique prefix of it).'),
      name: z.string().optional().describe('Image alias to look up.'),
      project,
      remote,
      type: z
        .enum(['container', 'virtual-machine'])
        .optional()
        .describe('Image type, `container` or `virtual-machine`; when omitted, any.'),
    })
    .describe(
      'Reads one image (aliases, architecture, fingerprint, type) by name (alias) or fingerprint; every criterion is optional.',
    ),
  async run(ctx: ProvaContext, a) {
    const client = await ctx.config.client(ctx, a.remote);
    const p = projectOf(a.project);
    let candidates: WireImage[];
    if (a.fingerprint || a.name) {
      const found = await findImage(ctx, client, a.fingerprint ?? a.name!, p);
      candidates = found
        ? [
            (await getObject<WireImage>(ctx, client, {
              template: '/1.0/images/{fingerprint}',
              params: { fingerprint: found.fingerprint },
              what: 'image',
              project: p,
            }))!.obj,
          ]
        : [];
    } else {
      candidates =
        (
          await client.request<WireImage[]>(ctx, {
            method: 'GET',
            pathTemplate: '/1.0/images',
            operation: 'list images',
            project: p,
            query: { recursion: '1' },
          })
        ).metadata ?? [];
    }
    const matches = candidates.filter(
      (i) => (!a.architecture || i.architecture === a.architecture) && (!a.type || (i.type ?? 'container') === a.type),
    );
    const criteria = Object.entries(a)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => `${k}=${String(v)}`)
      .join(' ');
    if (matches.length === 0) throw notFound('prova:index/getImage:getImage', criteria);
    if (matches.length > 1)
      throw new LookupError(
        'prova:index/getImage:getImage',
        'ambiguous',
        matches.map((m) => m.fingerprint.slice(0, 12)),
        criteria,
      );
    const img = matches[0]!;
    const aliases = (img.aliases ?? []).map((x) => x.name);
    return {
      id: formatId(client.remote, a.project, [img.fingerprint]),
      aliases,
      architecture: img.architecture,
      createdAt: Math.floor(Date.parse(img.created_at) / 1000),
      fingerprint: img.fingerprint,
      name: a.name ?? aliases[0] ?? '',
      project: a.project ?? 'default',
      remote: client.remote,
      type: img.type ?? 'container',
    };
  },
});
