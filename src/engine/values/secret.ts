// The twin of unknown.ts: a marker that stands in for a sensitive value wherever values leave the
// engine (plan steps, JSON, events, errors). In JSON it is {"@converge":"sensitive"}.

/** The marker's type. */
type Sensitive = { readonly '@converge': 'sensitive' };

/** The marker that stands for a secret value in plans, results, events and errors; JSON `{"@converge":"sensitive"}`, rendered `(sensitive value)`. */
export const sensitive: Sensitive = Object.freeze({ '@converge': 'sensitive' as const });

/** True when `value` is the {@link sensitive} marker (or its JSON form). */
export function isSensitive(value: unknown): value is Sensitive {
  return (
    value === sensitive ||
    (typeof value === 'object' && value !== null && (value as { '@converge'?: unknown })['@converge'] === 'sensitive')
  );
}

/**
 * A value the user marks secret: `secret(value)` in any input. The resolver unwraps it and marks the
 * path it stands at secret (plan, state, events, errors), and every reference to that path onward.
 * Plain data like a Ref: {"@converge":"secret","value":…}; util.inspect shows the marker only.
 */
export type Secret<T = unknown> = {
  /** Marks the object as a secret: always `'secret'`. */
  readonly '@converge': 'secret';
  /** The secret value itself. */
  readonly value: T;
};

const inspectCustom = Symbol.for('nodejs.util.inspect.custom');

/**
 * Marks an input value secret: plans, results, events and errors show `(sensitive value)` in its
 * place, the state records its path as secret (encrypted at rest when the store has a
 * passphrase), and so does every reference to it. Works at any depth of the inputs.
 *
 * @example
 * ```ts
 * import { secret, type ResourceDecl } from 'converge';
 *
 * const user: ResourceDecl = {
 *   type: 'mine:index/user:User',
 *   name: 'admin',
 *   inputs: { login: 'admin', password: secret(process.env.ADMIN_PASSWORD ?? '') },
 * };
 * // util.inspect(user) and JSON show the password as [secret (sensitive)], never its value
 * ```
 */
export function secret<T>(value: T): Secret<T> {
  const wrapped = { '@converge': 'secret' as const, value };
  Object.defineProperty(wrapped, inspectCustom, { value: () => '[secret (sensitive)]', enumerable: false });
  return Object.freeze(wrapped);
}

export function isSecret(value: unknown): value is Secret {
  return typeof value === 'object' && value !== null && (value as { '@converge'?: unknown })['@converge'] === 'secret';
}
