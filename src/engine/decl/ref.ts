// A reference to another resource's output: plain data, and a dependency edge.
// In JSON: {"@converge":"ref","resource":"net","path":"networkId"}.

/** A reference to another resource's output, as `ref()` makes it: plain JSON data and a dependency edge. */
export type Ref = {
  /** Marks the object as a reference: always `'ref'`. */
  readonly '@converge': 'ref';
  /** The name of the resource referred to. */
  readonly resource: string;
  /** The output's path in it: `networkId`, `interfaces.eth0.ipv4Address`, `records[0].value`. */
  readonly path: string;
};

/**
 * Stands for the output at `path` of resource `name` ('networkId', 'interfaces.eth0.ipv4Address'):
 * the referring resource is created after it, and the value is filled in at apply (a plan shows
 * `(known after apply)` until then). Typed helpers offer the same as `decl.out('field')`.
 *
 * @example
 * ```ts
 * import { ref, type ResourceDecl } from 'converge';
 *
 * const stack: ResourceDecl[] = [
 *   { type: 'provb:index/network:Network', name: 'net', inputs: { label: 'demo' } },
 *   { type: 'provb:index/firewall:Firewall', name: 'fw', inputs: { name: 'web', networkId: ref('net', 'networkId') } },
 * ];
 * const json = JSON.stringify(stack[1]); // {"@converge":"ref","resource":"net","path":"networkId"} inside
 * ```
 */
export function ref(name: string, path: string): Ref {
  if (typeof name !== 'string' || !name) throw new TypeError('Expected `name` to be a non-empty string');
  if (typeof path !== 'string' || !path) throw new TypeError('Expected `path` to be a non-empty string');
  return Object.freeze({ '@converge': 'ref' as const, resource: name, path });
}

/** True when `value` is a reference made by {@link ref} (or its JSON form). */
export function isRef(value: unknown): value is Ref {
  return typeof value === 'object' && value !== null && (value as { '@converge'?: unknown })['@converge'] === 'ref';
}

/** Every reference inside a value, with where it stands. */
export function collectRefs(value: unknown): { ref: Ref; at: (string | number)[] }[] {
  const into: { ref: Ref; at: (string | number)[] }[] = [];
  eachRef(value, (ref, at) => into.push({ ref, at: at.slice() }));
  return into;
}

/**
 * Calls `visit` for every reference inside a value, in order, with where it stands: one path array,
 * pushed and popped, so `at` is valid only during the call (copy it to keep it). A value without
 * references allocates nothing.
 */
export function eachRef(
  value: unknown,
  visit: (ref: Ref, at: readonly (string | number)[]) => void,
  at: (string | number)[] = [],
): void {
  if (value === null || typeof value !== 'object') return;
  if (isRef(value)) {
    visit(value, at);
    return;
  }
  // A secret(v) stands where it is placed: a reference inside it is at the same path.
  if ((value as { '@converge'?: unknown })['@converge'] === 'secret') {
    eachRef((value as { value?: unknown }).value, visit, at);
    return;
  }
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      at.push(i);
      eachRef(value[i], visit, at);
      at.pop();
    }
    return;
  }
  for (const k in value) {
    at.push(k);
    eachRef((value as Record<string, unknown>)[k], visit, at);
    at.pop();
  }
}
