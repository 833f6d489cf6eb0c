// What the CDN resources share: find through the activity log, integer CDN ids, options as inputs,
// and the output fields of every certificate answer.
import { z } from 'zod';
import { isCannotTell, type CreateResult, type FindHint, type FindResult } from '../../../engine/provider/define.js';
import type { Wire } from '../client.js';
import type { ProvcContext } from '../config.js';
import { orNull } from '../../../kit/gone.js';
import { createdSince } from '../support/activity.js';

/**
 * find for a CDN create (see ../support/activity.ts): the object the POST of `body` to `path` made since the
 * create started, read back by id; null when it made none (or it is gone since); cannotTell when
 * the activity log cannot say which.
 */
export async function findCdnCreated(
  ctx: ProvcContext,
  path: string,
  body: Wire,
  hint: FindHint,
  read: (id: number) => Promise<CreateResult | null>,
): Promise<FindResult> {
  const made = await createdSince(ctx, ctx.config.client, path, body, hint);
  if (made === null || isCannotTell(made)) return made;
  return orNull(() => read(made.id)).then((r) => r ?? null);
}

/** CDN options as inputs: the options set (an option the API answers null is not set, so inherited). */
export const setOptions = (o: Readonly<Record<string, unknown>> | undefined): Record<string, unknown> =>
  Object.fromEntries(Object.entries(o ?? {}).filter(([, v]) => v !== null && v !== undefined));

/** A CDN id from the engine's string id; throws on anything but a positive integer. */
export function cdnId(id: string, what: string): number {
  const n = Number(id);
  if (!Number.isInteger(n) || n <= 0)
    throw new TypeError(`Expected a ${what} id to be a positive integer, got '${id}'`);
  return n;
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
