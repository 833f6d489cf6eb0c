// The single lookups' search (civogo's Find): an exact match on any key field wins; otherwise one
// partial (substring) match; several partial matches are ambiguous, none is not found. For the
// database, instance and cluster lookups several exact matches are ambiguous too (the seed's rule).
import { LookupError } from '../../../engine/errors.js';
import type { Wire } from '../client.js';

export type FindOptions = {
  readonly token: string;
  /** What was looked for, for errors: "name 'web'". */
  readonly criteria: string;
  /** Key fields searched for `search`. */
  readonly keys: (item: Wire) => readonly (string | undefined)[];
  readonly caseInsensitive?: boolean;
  /** Several exact matches are an error listing them (database, instance, cluster). */
  readonly uniqueExact?: boolean;
  /** Only exact matches count (no substring matching). */
  readonly exactOnly?: boolean;
  readonly describe?: (item: Wire) => string;
};

export function findOne(items: readonly Wire[], search: string, o: FindOptions): Wire {
  const norm = (s: string) => (o.caseInsensitive ? s.toLowerCase() : s);
  const want = norm(search);
  const describe = o.describe ?? ((i: Wire) => `${i.name ?? i.hostname ?? i.label ?? ''} (${i.id})`);
  const exact = items.filter((i) => o.keys(i).some((k) => k !== undefined && norm(k) === want));
  if (exact.length > 1 && o.uniqueExact) throw new LookupError(o.token, 'ambiguous', exact.map(describe), o.criteria);
  if (exact.length) return exact[exact.length - 1]!;
  if (o.exactOnly) throw new LookupError(o.token, 'not_found', [], o.criteria);
  const partial = items.filter((i) => o.keys(i).some((k) => k !== undefined && norm(k).includes(want)));
  if (partial.length === 1) return partial[0]!;
  if (partial.length > 1) throw new LookupError(o.token, 'ambiguous', partial.map(describe), o.criteria);
  throw new LookupError(o.token, 'not_found', [], o.criteria);
}
