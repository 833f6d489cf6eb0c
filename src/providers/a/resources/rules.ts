// Plan-time rules for network ACL rules and forward ports, as the LXD wire notes state them:
// ports only with tcp/udp, ICMP type and code (0–255) only with icmp4/icmp6, no IPv4/IPv6 mix
// between source and destination, forward addresses that are IPs, and only user.* config keys.
import { isIP } from 'node:net';
import type { CheckIssue } from '../../../engine/provider/define.js';

type Path = readonly (string | number)[];
const PORTS = /^\d{1,5}(-\d{1,5})?(,\d{1,5}(-\d{1,5})?)*$/;

function portsOk(text: string): boolean {
  return PORTS.test(text) && text.split(/[,-]/).every((p) => Number(p) <= 65535);
}

/** IP families named in a comma-separated source/destination list (CIDRs, addresses, a-b ranges). */
function families(list: string): Set<number> {
  const out = new Set<number>();
  for (const entry of list
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const f = isIP(entry.split('/')[0]!.split('-')[0]!);
    if (f) out.add(f);
  }
  return out;
}

export type AclRule = {
  readonly protocol: string;
  readonly destinationPort: string;
  readonly icmpType: string;
  readonly icmpCode: string;
  readonly source: string;
  readonly destination: string;
};

export function aclRuleIssues(r: AclRule, at: Path): CheckIssue[] {
  const issues: CheckIssue[] = [];
  const add = (key: string, message: string) => issues.push({ path: [...at, key], code: 'invalid_value', message });
  const icmp = r.protocol === 'icmp4' || r.protocol === 'icmp6';
  if (r.destinationPort) {
    if (r.protocol !== 'tcp' && r.protocol !== 'udp')
      add('destinationPort', 'is allowed only with protocol tcp or udp');
    else if (!portsOk(r.destinationPort)) add('destinationPort', 'must be ports or ranges like "22,80-81"');
  }
  for (const key of ['icmpType', 'icmpCode'] as const) {
    if (!r[key]) continue;
    if (!icmp) add(key, 'is allowed only with protocol icmp4 or icmp6');
    else if (!/^\d{1,3}$/.test(r[key]) || Number(r[key]) > 255) add(key, 'must be a number from 0 to 255');
  }
  const src = families(r.source);
  const dst = families(r.destination);
  if (src.size && dst.size && ![...src].some((f) => dst.has(f)))
    add('destination', 'mixes IPv4 and IPv6 with the source; LXD rejects that');
  return issues;
}

export function userConfigIssues(
  config: Readonly<Record<string, string>>,
  allowed: readonly string[] = [],
): CheckIssue[] {
  return Object.keys(config)
    .filter((k) => !k.startsWith('user.') && !allowed.includes(k))
    .map((k) => ({
      path: ['config', k],
      code: 'invalid_value',
      message: `only user.* keys${allowed.length ? ` and ${allowed.join(', ')}` : ''} may be set here`,
    }));
}

export type ForwardPort = { readonly listenPort: string; readonly targetAddress: string; readonly targetPort: string };

export function forwardPortIssues(p: ForwardPort, at: Path): CheckIssue[] {
  const issues: CheckIssue[] = [];
  if (!portsOk(p.listenPort))
    issues.push({
      path: [...at, 'listenPort'],
      code: 'invalid_value',
      message: 'must be ports or ranges like "8080,8081-8082"',
    });
  if (p.targetPort && !portsOk(p.targetPort))
    issues.push({
      path: [...at, 'targetPort'],
      code: 'invalid_value',
      message: 'must be ports or ranges like "80,81-82"',
    });
  if (!isIP(p.targetAddress))
    issues.push({ path: [...at, 'targetAddress'], code: 'invalid_format', message: 'must be an IP address' });
  return issues;
}
