// Server-filled configuration keys: which keys the server adds on its own (volatile.*, image.*,
// per-object lists), so reads do not diff against them and whole-object PUTs carry them through.

export type KeyPolicy = (key: string) => boolean;

/**
 * The config key a create writes with its `ctx.operationId`, so `find` knows the object as its own
 * after an unknown outcome. Every policy treats it as computed: reads hide it, whole PUTs keep it.
 */
export const OPERATION_KEY = 'user.converge.operation';

/** A policy from prefixes ('volatile.') and exact keys (the operation key is always one). */
export function computedKeys(prefixes: readonly string[], exact: readonly string[] = []): KeyPolicy {
  const set = new Set([...exact, OPERATION_KEY]);
  return (key) => set.has(key) || prefixes.some((p) => key.startsWith(p));
}

/** State view: the user's keys with server values, plus server keys that are not computed (they diff). */
export function observedConfig(
  server: Readonly<Record<string, string>> | null | undefined,
  isComputed: KeyPolicy,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(server ?? {})) if (!isComputed(k)) out[k] = v;
  return out;
}

/** State view that also keeps computed keys the user asked for. */
export function observedConfigFor(
  server: Readonly<Record<string, string>> | null | undefined,
  user: Readonly<Record<string, string>>,
  isComputed: KeyPolicy,
): Record<string, string> {
  const out = observedConfig(server, isComputed);
  for (const k of Object.keys(user)) if (server && k in server) out[k] = server[k]!;
  return out;
}

/** What to PUT: the user's non-empty keys plus every computed server key the user did not mention. */
export function desiredConfig(
  server: Readonly<Record<string, string>> | null | undefined,
  user: Readonly<Record<string, string>>,
  isComputed: KeyPolicy,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(server ?? {})) if (isComputed(k) && !(k in user)) out[k] = v;
  for (const [k, v] of Object.entries(user)) if (v !== '') out[k] = v;
  return out;
}

/** The config a create sends: the user's, plus the operation key when the engine gave an operation id. */
export function taggedConfig(
  config: Readonly<Record<string, string>>,
  operationId: string | undefined,
): Record<string, string> {
  return operationId ? { ...config, [OPERATION_KEY]: operationId } : { ...config };
}
