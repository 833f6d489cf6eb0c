// The single lookups' search (civogo's Find): an exact match on any key field wins; otherwise one
// partial (substring) match; several partial matches are ambiguous, none is not found. For the
// database, instance and cluster lookups several exact matches are ambiguous too (the seed's rule).
import { LookupError } from '../../../engine/errors.js';
import type { Listed } from '../wire/objects.js';

export type FindOptions<T extends Listed = Listed> = {
  readonly token: string;
  /** What was looked for, for errors: "name 'web'". */
  readonly criteria: string;
  /** Key fields searched for `search`. */
  readonly keys: (item: T) => readonly (string | null | undefined)[];
  readonly caseInsensitive?: boolean;
  /** Several exact matches are an error listing them (database, instance, cluster). */
  readonly uniqueExact?: boolean;
  /** Only exact matches count (no substring matching). */
  readonly exactOnly?: boolean;
  readonly describe?: (item: T) => string;
};

export function findOne<T extends Listed>(items: readonly T[], search: string, o: FindOptions<T>): T {
  const norm = (s: string) => (o.caseInsensitive ? s.toLowerCase() : s);
  const want = norm(search);
  const describe =
    o.describe ?? ((i: T) => `${[i.name, i.hostname, i.label].find((k) => typeof k === 'string') ?? ''} (${i.id})`);
  const exact = items.filter((i) => o.keys(i).some((k) => typeof k === 'string' && norm(k) === want));
  if (exact.length > 1 && o.uniqueExact) throw new LookupError(o.token, 'ambiguous', exact.map(describe), o.criteria);
  if (exact.length) return exact[exact.length - 1]!;
  if (o.exactOnly) throw new LookupError(o.token, 'not_found', [], o.criteria);
  const partial = items.filter((i) => o.keys(i).some((k) => typeof k === 'string' && norm(k).includes(want)));
  if (partial.length === 1) return partial[0]!;
  if (partial.length > 1) throw new LookupError(o.token, 'ambiguous', partial.map(describe), o.criteria);
  throw new LookupError(o.token, 'not_found', [], o.criteria);
}
