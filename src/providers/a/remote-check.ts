// Seed rule 1 ("every lookup and every resource accepts an optional string `remote`"), checked at
// plan time for all of them: a `remote` must name one of the provider's configured remotes.
import type { CheckIssue } from '../../engine/provider/define.js';
import type { ProvaConfig } from './connections.js';

type Checked = { readonly check?: (inputs: never, config: never) => readonly CheckIssue[] };

export function remoteIssues(inputs: { readonly remote?: unknown }, config: ProvaConfig | undefined): CheckIssue[] {
  const remote = inputs?.remote;
  const known = config?.settings?.remotes;
  if (typeof remote !== 'string' || !remote || !known || known.has(remote)) return [];
  const names = [...known.keys()];
  return [{ path: ['remote'], code: 'invalid_value', message: `names an unknown remote "${remote.slice(0, 60)}"; configured: ${names.slice(0, 10).join(', ') || '(none)'}` }];
}

/** The same definition, its `check` preceded by the remote rule. */
export function withRemoteCheck<T extends Checked>(def: T): T {
  const own = def.check as ((inputs: unknown, config: unknown) => readonly CheckIssue[]) | undefined;
  return Object.freeze({ ...def, check: (inputs: { remote?: unknown }, config: ProvaConfig) => [...remoteIssues(inputs, config), ...(own?.(inputs, config) ?? [])] }) as T;
}
