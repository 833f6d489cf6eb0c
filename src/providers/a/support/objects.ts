// The one read-modify-write pattern for named LXD objects: GET (keeping the ETag), build the whole
// desired object from the current one, PUT it back with If-Match; create and delete beside it.
import { ProviderError } from '../../../engine/errors.js';
import { type Ctx, type LxdClient } from '../client.js';
import { isNotFound } from '../../../kit/gone.js';
import type { PathParams } from '../../../kit/wire.js';

export type Where = {
  /** '/1.0/networks/{name}' */
  readonly template: string;
  /** The template's placeholders by name: { name: 'br0' }. */
  readonly params?: PathParams;
  /** 'network', for errors */
  readonly what: string;
  readonly project?: string;
  readonly target?: string;
};

export async function getObject<T>(ctx: Ctx, client: LxdClient, w: Where): Promise<{ obj: T; etag?: string } | null> {
  try {
    const r = await client.request<T>(ctx, {
      method: 'GET',
      pathTemplate: w.template,
      params: w.params,
      operation: `read ${w.what}`,
      project: w.project,
      target: w.target,
    });
    return { obj: r.metadata, etag: r.etag };
  } catch (error) {
    if (isNotFound(error)) return null;
    throw error;
  }
}

export async function mustGet<T>(ctx: Ctx, client: LxdClient, w: Where): Promise<{ obj: T; etag?: string }> {
  const got = await getObject<T>(ctx, client, w);
  if (!got)
    throw new ProviderError({
      provider: 'prova',
      operation: `read ${w.what}`,
      method: 'GET',
      pathTemplate: w.template,
      status: 404,
      notFound: true,
      retryable: false,
      detail: `${w.what} not found`,
    });
  return got;
}

export async function createObject(ctx: Ctx, client: LxdClient, collection: Where, body: unknown): Promise<void> {
  await client.request(ctx, {
    method: 'POST',
    pathTemplate: collection.template,
    params: collection.params,
    operation: `create ${collection.what}`,
    project: collection.project,
    target: collection.target,
    body,
  });
}

/** GET, build the whole object from the current one, PUT it back with If-Match. */
export async function replaceObject<T>(
  ctx: Ctx,
  client: LxdClient,
  w: Where,
  build: (current: T) => unknown,
): Promise<void> {
  const { obj, etag } = await mustGet<T>(ctx, client, w);
  await client.request(ctx, {
    method: 'PUT',
    pathTemplate: w.template,
    params: w.params,
    operation: `update ${w.what}`,
    project: w.project,
    target: w.target,
    etag,
    body: build(obj),
  });
}

/** DELETE; an object already gone throws LXD's not found, which the engine's delete step takes as done. */
export async function deleteObject(ctx: Ctx, client: LxdClient, w: Where): Promise<void> {
  await client.request(ctx, {
    method: 'DELETE',
    pathTemplate: w.template,
    params: w.params,
    operation: `delete ${w.what}`,
    project: w.project,
    target: w.target,
  });
}

/** The project to send: undefined for the default project. */
export function projectOf(p: string | undefined): string | undefined {
  return p && p !== 'default' ? p : undefined;
}
