// find for CDN creates. The CDN API has no idempotency key, and origin groups, certificates and
// rules carry no creation time and no free-text field a create could mark (an unknown query
// parameter would break the vendor's spec). What it has is the account's activity log: every
// request with its time, body, status and the object it created. find reads the POSTs to the
// create's path made since the create started whose body is the one this create sent:
//   none → the request never arrived: nothing was made (null);
//   one, which created an object → that object (it did not exist before the create started);
//   one, which did not create → it was refused: nothing was made (null);
//   more than one → another run sent the same create meanwhile: which one was this? (cannotTell).
// An object made before the create started can never match. Residual: another run sending the very
// same body after this create started while this request never arrived is taken for this one.
import { cannotTell, type CannotTell, type FindHint } from '../../../engine/provider/define.js';
import type { Ctx, GcoreClient, Wire } from '../client.js';
import type { CdnActivityEntry } from '../wire/answers.js';

const PAGE = 100;
const MAX_PAGES = 20;
/** Secret fields a log may leave out of `data`; they are never compared. */
const SECRET = /private|secret|password|token/i;

/** '2026-11-23 20:01:02' (UTC, whole seconds), the format min_requested_at documents. */
const stamp = (ms: number) => new Date(ms).toISOString().slice(0, 19).replace('T', ' ');

function same(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b))
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => same(x, b[i]));
  if (!a || !b || typeof a !== 'object' || typeof b !== 'object') return false;
  const ka = Object.keys(a).filter((k) => (a as Wire)[k] !== undefined);
  const kb = Object.keys(b).filter((k) => (b as Wire)[k] !== undefined);
  return ka.length === kb.length && ka.every((k) => same((a as Wire)[k], (b as Wire)[k]));
}

/** The logged body is the one sent (secret fields aside). */
export function sentBody(data: Wire | undefined, body: Wire): boolean {
  const keys = Object.keys(body).filter((k) => body[k] !== undefined && !SECRET.test(k));
  return !!data && keys.every((k) => same(data[k], body[k]));
}

/**
 * The id of the object a POST of `body` to `path` (relative to /cdn, e.g. '/origin_groups') made
 * since `hint.startedAt`; null when none made one; cannotTell when the log cannot say which.
 */
export async function createdSince(
  ctx: Ctx,
  client: GcoreClient,
  path: string,
  body: Wire,
  hint: FindHint,
): Promise<{ id: number } | null | CannotTell> {
  const since = Date.parse(hint.startedAt);
  if (!Number.isFinite(since)) return cannotTell(`the create's start time '${hint.startedAt}' is not a time`);
  const sent: CdnActivityEntry[] = [];
  for (let page = 0; ; page++) {
    if (page === MAX_PAGES)
      return cannotTell(
        `more than ${PAGE * MAX_PAGES} CDN activity log entries for POST ${path} since the create started`,
      );
    const res = await client.listCdnActivity(ctx, {
      path,
      method: 'POST',
      min_requested_at: stamp(since),
      limit: PAGE,
      offset: page * PAGE,
    });
    sent.push(...res.results.filter((e) => Date.parse(e.requested_at) >= since && sentBody(e.data, body)));
    if (res.results.length < PAGE || (page + 1) * PAGE >= res.count) break;
  }
  if (sent.length > 1)
    return cannotTell(
      `${sent.length} creates with the same body were sent to /cdn${path} since this one started (activity log entries ${sent.map((e) => e.id).join(', ')})`,
    );
  const e = sent[0];
  if (!e) return null;
  const made = e.actions?.find((a) => a.action_type === 'C')?.state_after_request?.id;
  if (typeof made === 'number') return { id: made };
  if (e.status_code >= 200 && e.status_code < 300)
    return cannotTell(`the CDN activity log shows the create succeeded (entry ${e.id}) but not what it made`);
  return null;
}
