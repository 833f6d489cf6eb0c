// Gcore Cloud list queries and paging: the offset paging of the SDKs, and the encodings the wire
// notes give (hyphenated change filters, JSON-encoded tag_key_value, repeated tag_value).
import type { QueryValue } from '../../../kit/http.js';
import type { CloudPage } from '../wire/answers.js';

type Wire = Record<string, unknown>;

/** The largest page a CDN list gives (its `limit` maximum). */
const CDN_PAGE = 1000;

/** A CDN list's answer: a bare array, or {count, next, previous, results} when `limit` was sent. */
export type CdnList<T = Wire> = T[] | { count: number; next: string | null; previous: string | null; results: T[] };

/** The items of a CDN list answer, either shape. */
export function cdnItems<T = Wire>(body: CdnList<T> | undefined): T[] {
  if (Array.isArray(body)) return body;
  return body?.results ?? [];
}

/**
 * Every item of a CDN list, by pages of 1,000 (the spec's `limit` maximum): the first page says the
 * count, the other pages are fetched at once. A server that ignores `limit` answers a bare array: all of it.
 */
export async function collectCdnPages<T = Wire>(
  fetch: (query: { readonly limit: number; readonly offset: number }) => Promise<CdnList<T>>,
): Promise<T[]> {
  const first = await fetch({ limit: CDN_PAGE, offset: 0 });
  if (Array.isArray(first)) return first;
  const offsets: number[] = [];
  for (let offset = first.results.length; offset < first.count && first.results.length > 0; offset += CDN_PAGE)
    offsets.push(offset);
  const rest = await Promise.all(offsets.map((offset) => fetch({ limit: CDN_PAGE, offset }).then((b) => cdnItems(b))));
  return [...first.results, ...rest.flat()];
}

/**
 * Cloud paging (the SDKs' rule): the first request sends neither limit nor offset, so the server's
 * default page applies; next offset = offset + results; stop at the total, an empty page, or maxItems.
 */
export async function collectPages<T>(
  fetch: (offset: number | undefined) => Promise<CloudPage<T>>,
  maxItems: number,
): Promise<T[]> {
  const items: T[] = [];
  let offset: number | undefined;
  for (;;) {
    const page = await fetch(offset);
    items.push(...page.results);
    if (items.length >= maxItems || page.results.length === 0) break;
    const next = (offset ?? 0) + page.results.length;
    if (next >= page.count || next === 0) break;
    offset = next;
  }
  return items.slice(0, maxItems);
}

/** `tag_key_value` travels as one JSON-encoded object in a string. */
export function encodeTagKeyValue(tags: Readonly<Record<string, string>> | undefined): string | undefined {
  return tags && Object.keys(tags).length ? JSON.stringify(tags) : undefined;
}

export type TagKeyValue = Readonly<Record<string, string>> | string;

export type BaremetalFilters = {
  readonly changesBefore?: string;
  readonly changesSince?: string;
  readonly flavorId?: string;
  readonly flavorPrefix?: string;
  readonly includeK8s?: boolean;
  readonly ip?: string;
  readonly name?: string;
  readonly onlyIsolated?: boolean;
  readonly onlyWithFixedExternalIp?: boolean;
  readonly orderBy?: string;
  readonly profileName?: string;
  readonly protectionStatus?: string;
  readonly status?: string;
  readonly tagKeyValue?: TagKeyValue;
  readonly tagValues?: readonly string[];
  readonly uuid?: string;
  readonly withInterfacesName?: boolean;
  readonly withDdos?: boolean;
  readonly typeDdosProfile?: string;
};

/** Bare metal list query: hyphenated change filters, JSON tag_key_value, repeated tag_value. */
export function baremetalQuery(f: BaremetalFilters): Record<string, QueryValue> {
  return {
    'changes-before': f.changesBefore,
    'changes-since': f.changesSince,
    flavor_id: f.flavorId,
    flavor_prefix: f.flavorPrefix,
    include_k8s: f.includeK8s,
    ip: f.ip,
    name: f.name,
    only_isolated: f.onlyIsolated,
    only_with_fixed_external_ip: f.onlyWithFixedExternalIp,
    order_by: f.orderBy,
    profile_name: f.profileName,
    protection_status: f.protectionStatus,
    status: f.status,
    tag_key_value: tagKeyValueParam(f.tagKeyValue),
    tag_value: f.tagValues?.length ? f.tagValues : undefined,
    uuid: f.uuid,
    with_interfaces_name: f.withInterfacesName,
    with_ddos: f.withDdos,
    type_ddos_profile: f.typeDdosProfile,
  };
}

export type FloatingIpFilters = {
  readonly status?: string;
  readonly tagKeys?: readonly string[];
  readonly tagKeyValue?: TagKeyValue;
};

export function floatingIpQuery(f: FloatingIpFilters): Record<string, QueryValue> {
  return {
    status: f.status,
    tag_key: f.tagKeys?.length ? f.tagKeys : undefined,
    tag_key_value: tagKeyValueParam(f.tagKeyValue),
  };
}

function tagKeyValueParam(v: TagKeyValue | undefined): string | undefined {
  return typeof v === 'string' ? v || undefined : encodeTagKeyValue(v);
}
