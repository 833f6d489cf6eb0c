// The twin of unknown.ts: a marker that stands in for a sensitive value wherever values leave the
// engine (plan steps, JSON, events, errors). In JSON it is {"@converge":"sensitive"}.

export type Sensitive = { readonly '@converge': 'sensitive' };

export const sensitive: Sensitive = Object.freeze({ '@converge': 'sensitive' as const });

export function isSensitive(value: unknown): value is Sensitive {
  return value === sensitive || (typeof value === 'object' && value !== null && (value as { '@converge'?: unknown })['@converge'] === 'sensitive');
}
