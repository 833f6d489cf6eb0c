// What the managed resources share: defineResource typed with provc's configuration, the reading of
// a vanished object as null, deletes that treat "already gone" as done, and integer CDN ids.
import { z } from 'zod';
import { defineResource, type ResourceDefinition } from '../../../engine/provider/define.js';
import { ProviderError } from '../../../engine/errors.js';
import { isCannotTell, type CreateResult, type FindHint, type FindResult } from '../../../engine/provider/define.js';
import type { OperationContext } from '../../../engine/provider/context.js';
import type { ProvcConfig, Wire } from '../client.js';
import { createdSince } from '../activity.js';

export function provcResource<I extends z.ZodType, O extends z.ZodType>(def: ResourceDefinition<I, O, ProvcConfig>): ResourceDefinition<I, O, ProvcConfig> {
  return defineResource(def);
}

/** Runs a read; the vendor's "not found" means the object is gone (null). */
export async function orNull<T>(run: () => Promise<T>): Promise<T | null> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof ProviderError && error.notFound) return null;
    throw error;
  }
}

/** Runs a delete; an object that is already gone counts as deleted. */
export async function ignoreGone(run: () => Promise<unknown>): Promise<void> {
  await orNull(run);
}

/**
 * find for a CDN create (see ../activity.ts): the object the POST of `body` to `path` made since the
 * create started, read back by id; null when it made none (or it is gone since); cannotTell when
 * the activity log cannot say which.
 */
export async function findCdnCreated(ctx: OperationContext<ProvcConfig>, path: string, body: Wire, hint: FindHint, read: (id: number) => Promise<CreateResult | null>): Promise<FindResult> {
  const made = await createdSince(ctx, ctx.config.client, path, body, hint);
  if (made === null || isCannotTell(made)) return made;
  return orNull(() => read(made.id)).then((r) => r ?? null);
}

/** A CDN id from the engine's string id; throws on anything but a positive integer. */
export function cdnId(id: string, what: string): number {
  const n = Number(id);
  if (!Number.isInteger(n) || n <= 0) throw new TypeError(`Expected a ${what} id to be a positive integer, got '${id}'`);
  return n;
}

/** Drops undefined values so a wire body carries only what was set. */
export function defined<T extends Record<string, unknown>>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** Output fields every CDN certificate answer carries (client certificates and trusted CAs alike). */
export const certificateOutputFields = {
  certSubjectCn: z.string().optional().describe('Common name (CN) of the certificate subject.'),
  certSubjectAlt: z.string().optional().describe('Subject alternative names (SANs) of the certificate.'),
  validityNotBefore: z.string().optional().describe('Start of validity, an RFC 3339 time.'),
  validityNotAfter: z.string().optional().describe('End of validity, an RFC 3339 time.'),
  hasRelatedResources: z.boolean().optional().describe('True while a CDN resource uses the certificate.'),
  deleted: z.boolean().optional().describe('Deprecated deletion flag; false for a live certificate.'),
  sslCertificateChain: z.string().optional().describe('Deprecated: the certificate chain as the API returns it.'),
};
