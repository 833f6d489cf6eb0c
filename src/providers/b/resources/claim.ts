// How provider B's `find` decides whether an object is the one an interrupted create made. It must
// never claim an object that existed before the create started (someone else's, another stack's);
// when it cannot tell, it says so (cannotTell) and the engine keeps the pending record. Per resource,
// the strongest key the Civo API offers is used:
//   - a tag carrying the operation id, written in the create request itself (instances): exact;
//   - the objects matching the create's key that existed just before it sent its request, which the
//     resource's `existing` lists and the engine records in the pending record before the request
//     (`hint.existing`, in any process: networks, firewalls, reserved IPs, load balancers, databases,
//     DNS domains, object stores, credentials, node pools, attachments): any new one is ours;
//   - `created_at` against the create's start (volumes, SSH keys, clusters, DNS records): an object
//     made after the start is ours, one made well before is not, one made just before (within the
//     clock-skew allowance, which also covers whole-second timestamps) cannot be told;
//   - none of these (a record written by an earlier release): an existing match cannot be told
//     apart (the candidates' ids are named, for an import); no match = none.
import { createHash } from 'node:crypto';
import { cannotTell, type CannotTell, type FindHint } from '../../../engine/provider/define.js';
import type { Listed } from '../wire/objects.js';

/** How far the API's clock may lag ours: objects made this long before the start cannot be told apart. */
export const CLOCK_SKEW_MS = 60_000;

/** The tag an instance carries so that `find` can recognise it (hidden from `read`). */
export const OPERATION_TAG_PREFIX = 'converge-op-';
export const operationTag = (operationId: string) => `${OPERATION_TAG_PREFIX}${operationId.replace(/\s+/g, '_')}`;
export const isOperationTag = (tag: unknown) => typeof tag === 'string' && tag.startsWith(OPERATION_TAG_PREFIX);

/** A pool id derived from the operation id, so a generated id is known to `find` too (UUID-shaped). */
export function derivedId(operationId: string): string {
  const h = createHash('sha256').update(`converge:${operationId}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

export type ClaimOptions<T> = {
  /** What is looked for, for the cannotTell reason ("network 'prod-net'"). */
  readonly what: string;
  /** The object's id (for notes); default `o.id`. */
  readonly idOf?: (o: T) => string;
  /** The object's creation time (the API's `created_at`). */
  readonly createdAt?: (o: T) => unknown;
  /** True when the object carries the operation's tag (the tag is written at creation: no tag = not ours). */
  readonly tagged?: (o: T, operationId: string) => boolean;
};

/** Which of `candidates` (the objects matching the create's key) this create made: it, null (none), or cannotTell. */
export function claim<T extends Listed>(
  hint: FindHint,
  candidates: readonly T[],
  options: ClaimOptions<T>,
): T | null | CannotTell {
  if (candidates.length === 0) return null;
  const idOf = options.idOf ?? ((o: T) => String(o.id));
  const one = (xs: readonly T[], why: string): T | null | CannotTell =>
    xs.length === 1
      ? xs[0]!
      : xs.length === 0
        ? null
        : cannotTell(`${xs.length} objects match ${options.what} (${why})`, xs.map(idOf));
  if (options.tagged)
    return one(
      candidates.filter((c) => options.tagged!(c, hint.operationId)),
      "each carries this operation's tag",
    );
  if (hint.existing) {
    const before = new Set(hint.existing);
    return one(
      candidates.filter((c) => !before.has(idOf(c))),
      'each is new since the create sent its request',
    );
  }
  if (options.createdAt) {
    const start = Date.parse(hint.startedAt);
    const ours: T[] = [];
    let unsure = 0;
    for (const c of candidates) {
      const raw = options.createdAt(c);
      const t = typeof raw === 'string' ? Date.parse(raw) : NaN;
      if (Number.isNaN(t) || Number.isNaN(start)) {
        unsure++;
        continue;
      }
      if (t >= start) ours.push(c);
      else if (t >= start - CLOCK_SKEW_MS) unsure++;
    }
    if (unsure)
      return cannotTell(
        `${options.what} exists, created too close to the create's start (${hint.startedAt}) to tell whose it is`,
        candidates.map(idOf),
      );
    return one(ours, 'created since the create started');
  }
  return cannotTell(
    `${options.what} exists and the Civo API records nothing (no tag, no creation time) that tells whether this create made it`,
    candidates.map(idOf),
  );
}
