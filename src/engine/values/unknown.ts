// Unknown is a typed value: a frozen marker that may stand anywhere inside a value, meaning "known
// only after apply". Diff, graph and render test it with isUnknown(); only render.ts writes the words.
// In JSON it is the tagged object {"@converge":"unknown"}.

/** The marker's type. */
type Unknown = { readonly '@converge': 'unknown' };

/** The marker for a value known only after apply (an output of a resource not yet created); JSON `{"@converge":"unknown"}`, rendered `(known after apply)`. */
export const unknown: Unknown = Object.freeze({ '@converge': 'unknown' as const });

/** True when `value` is the {@link unknown} marker (or its JSON form). */
export function isUnknown(value: unknown): value is Unknown {
  return (
    value === unknown ||
    (typeof value === 'object' && value !== null && (value as { '@converge'?: unknown })['@converge'] === 'unknown')
  );
}

/** True when the value is unknown or holds an unknown anywhere inside it. */
export function containsUnknown(value: unknown): boolean {
  if (isUnknown(value)) return true;
  if (Array.isArray(value)) return value.some(containsUnknown);
  if (value && typeof value === 'object') {
    // Own enumerable string keys, as Object.values reads them, without building the list (asked of every step's inputs).
    for (const k in value)
      if (Object.prototype.hasOwnProperty.call(value, k) && containsUnknown((value as Record<string, unknown>)[k]))
        return true;
  }
  return false;
}
