// Image references `[remote:]image` → the `source` of an instance create: a local alias or
// fingerprint is passed to the server as is (it resolves its own); another LXD remote's image is pulled (public by alias,
// private by fingerprint + secret); a simplestreams remote gets the alias as is.
import { ConfigError, ProviderError } from '../../../engine/errors.js';
import { type Ctx, type LxdClient } from '../client.js';
import { isNotFound } from '../../../kit/gone.js';
import type { ProvaConfig } from '../config.js';

export type ImageSource = Record<string, unknown>;
type WireImage = { fingerprint: string; public?: boolean };

/** Splits at the first ':' into the image server's remote name (if any) and the image. */
export function splitImage(ref: string): { remote?: string; image: string } {
  const i = ref.indexOf(':');
  return i < 0 ? { image: ref } : { remote: ref.slice(0, i), image: ref.slice(i + 1) };
}

/** Alias or fingerprint (prefix) on one server → its image, or null. */
export async function findImage(
  ctx: Ctx,
  client: LxdClient,
  image: string,
  project?: string,
): Promise<WireImage | null> {
  let fingerprint = image;
  try {
    const alias = await client.request<{ target: string }>(ctx, {
      method: 'GET',
      pathTemplate: '/1.0/images/aliases/{name}',
      params: { name: image },
      operation: 'read image alias',
      project,
    });
    fingerprint = alias.metadata.target;
  } catch (error) {
    if (!isNotFound(error)) throw error;
  }
  try {
    return (
      await client.request<WireImage>(ctx, {
        method: 'GET',
        pathTemplate: '/1.0/images/{fingerprint}',
        params: { fingerprint },
        operation: 'read image',
        project,
      })
    ).metadata;
  } catch (error) {
    if (isNotFound(error)) return null;
    throw error;
  }
}

export async function imageSource(
  ctx: Ctx,
  config: ProvaConfig,
  client: LxdClient,
  ref: string | undefined,
  _project?: string,
): Promise<ImageSource> {
  if (!ref) return { type: 'none' };
  const { remote, image } = splitImage(ref);
  const missing = (where: string) =>
    new ProviderError({
      provider: 'prova',
      operation: 'resolve image',
      retryable: false,
      notFound: true,
      status: 404,
      detail: `image "${image}" not found on remote ${where}`,
    });
  if (!remote || remote === client.remote) {
    // The same server resolves its own aliases and fingerprint prefixes (one request fewer each).
    return /^[0-9a-f]{12,64}$/.test(image) ? { type: 'image', fingerprint: image } : { type: 'image', alias: image };
  }
  const spec = config.settings.remotes.get(remote);
  if (!spec) throw new ConfigError('prova', 'image', `names an unknown remote "${remote}"`);
  if (spec.protocol === 'simplestreams')
    return { type: 'image', mode: 'pull', server: spec.address, protocol: 'simplestreams', alias: image };
  const source = await config.client(ctx, remote);
  const found = await findImage(ctx, source, image);
  if (!found) throw missing(remote);
  const certificate = (await source.server(ctx)).environment?.certificate ?? '';
  if (found.public)
    return { type: 'image', mode: 'pull', server: spec.address, protocol: 'lxd', alias: image, certificate };
  const op = await source.request<{ secret?: string }>(ctx, {
    method: 'POST',
    pathTemplate: '/1.0/images/{fingerprint}/secret',
    params: { fingerprint: found.fingerprint },
    operation: 'create image secret',
    body: {},
    noWait: true,
  });
  return {
    type: 'image',
    mode: 'pull',
    server: spec.address,
    protocol: 'lxd',
    fingerprint: found.fingerprint,
    secret: op.metadata.secret ?? '',
    certificate,
  };
}
