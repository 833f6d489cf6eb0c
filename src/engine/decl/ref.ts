// A reference to another resource's output: plain data, and a dependency edge.
// In JSON: {"@converge":"ref","resource":"net","path":"networkId"}.

export type Ref = { readonly '@converge': 'ref'; readonly resource: string; readonly path: string };

/** Stands for the output at `path` of resource `name` ('networkId', 'interfaces.eth0.ipv4Address'). */
export function ref(name: string, path: string): Ref {
  if (typeof name !== 'string' || !name) throw new TypeError('Expected `name` to be a non-empty string');
  if (typeof path !== 'string' || !path) throw new TypeError('Expected `path` to be a non-empty string');
  return Object.freeze({ '@converge': 'ref' as const, resource: name, path });
}

export function isRef(value: unknown): value is Ref {
  return typeof value === 'object' && value !== null && (value as { '@converge'?: unknown })['@converge'] === 'ref';
}

/** Every reference inside a value, with where it stands. */
export function collectRefs(value: unknown, at: (string | number)[] = [], into: { ref: Ref; at: (string | number)[] }[] = []): { ref: Ref; at: (string | number)[] }[] {
  if (isRef(value)) into.push({ ref: value, at });
  else if (Array.isArray(value)) value.forEach((v, i) => collectRefs(v, [...at, i], into));
  else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) collectRefs(v, [...at, k], into);
  return into;
}
