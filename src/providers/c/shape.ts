// Wire objects → the seed's camelCase shapes. Keys are camel-cased at every depth except inside
// values whose keys are data (CDN `options` keep the vendor's option names; `addresses` keep the
// network names as keys), and PascalCase keys (blackhole ports) stay as the vendor sends them.

/** 'originGroup_name' → 'originGroupName', 'cert_subject_cn' → 'certSubjectCn'. */
export function camelKey(key: string): string {
  return key.replace(/_+([a-zA-Z0-9])/g, (_m, c: string) => c.toUpperCase());
}

/** Camel-cases keys deeply; keys listed in `opaque` keep their value untouched, `dataKeys` keep their own keys. */
export function camelize(value: unknown, opts: { opaque?: readonly string[]; dataKeys?: readonly string[] } = {}): unknown {
  if (Array.isArray(value)) return value.map((v) => camelize(v, opts));
  if (!value || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    const key = camelKey(k);
    if (opts.opaque?.includes(k)) out[key] = v;
    else if (opts.dataKeys?.includes(k) && v && typeof v === 'object' && !Array.isArray(v)) {
      out[key] = Object.fromEntries(Object.entries(v).map(([dk, dv]) => [dk, camelize(dv, opts)]));
    } else out[key] = camelize(v, opts);
  }
  return out;
}

/** Tags on Cloud objects: the wire's [{key, value, read_only}] as [{key, value, readOnly}]. */
export type Tag = { readonly key: string; readonly value: string; readonly readOnly: boolean };

/** The user-settable tags as a plain map (read-only tags are the vendor's). */
export function tagMap(tags: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (Array.isArray(tags)) for (const t of tags as { key: string; value: string; read_only?: boolean }[]) if (!t.read_only) out[t.key] = t.value;
  return out;
}
