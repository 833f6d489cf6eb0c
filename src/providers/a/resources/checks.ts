// Plan-time checks every provider A resource and lookup shares: `remote` must name a configured LXD
// remote, and `target` needs a clustered server (known once any request has read the server).
import type { CheckIssue } from '../../../engine/provider/define.js';
import type { ProvaConfig } from '../config.js';

export type Scoped = { readonly remote?: string; readonly target?: string };

/** Issues for an unknown or non-LXD `remote`, and for `target` on a server known to be standalone. */
export function scopeIssues(i: Scoped, config: ProvaConfig | undefined): CheckIssue[] {
  const issues: CheckIssue[] = [];
  if (!config?.settings) return issues;
  const remotes = config.settings.remotes;
  if (i.remote !== undefined) {
    const r = remotes.get(i.remote);
    if (!r)
      issues.push({
        path: ['remote'],
        code: 'unknown_remote',
        message: `names an unknown remote "${i.remote}" (known: ${[...remotes.keys()].join(', ')})`,
      });
    else if (r.protocol !== 'lxd')
      issues.push({
        path: ['remote'],
        code: 'unknown_remote',
        message: `"${i.remote}" is a ${r.protocol} image server, not an LXD server`,
      });
  }
  if (i.target !== undefined && (i.remote === undefined || remotes.has(i.remote))) {
    const server = config.serverKnown(i.remote);
    if (server && server.environment?.server_clustered !== true) {
      issues.push({
        path: ['target'],
        code: 'target_not_clustered',
        message: `Target only allowed when clustered: LXD server ${config.remoteName(i.remote)} is not a cluster; remove \`target\``,
      });
    }
  }
  return issues;
}

/** A `check` for definitions with nothing else to check. */
export function checkScope(i: Scoped, config: ProvaConfig): CheckIssue[] {
  return scopeIssues(i, config);
}
