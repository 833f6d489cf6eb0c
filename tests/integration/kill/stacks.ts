// The stacks of the kill test: for each scenario, what is applied before the child starts and what
// the child applies (and is killed during). All over Civo's simulator: SSH keys, networks, DNS
// domains and records, so creates, in-place updates, delete-first and create-first replacements
// and deletes all happen.
import { ref, type ResourceDecl } from '../../../src/index.js';

export const scenarios = ['create', 'update', 'replace', 'replace-cbd', 'delete', 'mixed'] as const;
export type Scenario = (typeof scenarios)[number];

const N = 4;
const key = (i: number, v: number): ResourceDecl => ({
  type: 'provb:index/sshKey:SshKey',
  name: `key${i}`,
  inputs: { name: `key${i}`, publicKey: `ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI${i}v${v} k${i}` },
});
const net = (i: number, label: string): ResourceDecl => ({
  type: 'provb:index/network:Network',
  name: `net${i}`,
  inputs: { label },
});
const domain = (d: number): ResourceDecl => ({
  type: 'provb:index/dnsDomainName:DnsDomainName',
  name: `zone${d}`,
  inputs: { name: `kill${d}.example.com` },
});
const record = (i: number, d: number, value: string, cbd: boolean): ResourceDecl => ({
  type: 'provb:index/dnsDomainRecord:DnsDomainRecord',
  name: `rec${i}`,
  inputs: { domainId: ref(`zone${d}`, 'dnsDomainNameId'), type: 'a', name: `host${i}`, value },
  ...(cbd ? { options: { createBeforeDestroy: true } } : {}),
});

// Every scenario keeps the zones and networks (their find cannot tell after a crash: Civo keeps no
// creation time for them, so a killed create of one is left for the user to decide): the child
// creates, updates, replaces and deletes keys and records, updates and deletes networks.
function stack(opts: {
  keys?: number;
  keyVersion?: number;
  nets?: number;
  label?: string;
  records?: boolean;
  recDomain?: number;
  value?: string;
  cbd?: boolean;
}): ResourceDecl[] {
  const out: ResourceDecl[] = [domain(0), domain(1)];
  for (let i = 0; i < (opts.nets ?? N); i++) out.push(net(i, `${opts.label ?? 'a'}-n${i}`));
  for (let i = 0; i < (opts.keys ?? N); i++) out.push(key(i, opts.keyVersion ?? 1));
  if (opts.records !== false)
    for (let i = 0; i < N; i++)
      out.push(record(i, opts.recDomain ?? 0, opts.value ?? '198.18.0.10', opts.cbd ?? false));
  return out;
}

/** [applied before the child, applied by the child]. */
export function stacksOf(s: Scenario): [ResourceDecl[], ResourceDecl[]] {
  switch (s) {
    case 'create':
      return [stack({ keys: 0, records: false }), stack({})];
    case 'update':
      return [stack({}), stack({ label: 'b', value: '198.18.0.20' })];
    case 'replace':
      return [stack({}), stack({ keyVersion: 2 })];
    case 'replace-cbd':
      return [stack({ cbd: true }), stack({ recDomain: 1, cbd: true })];
    case 'delete':
      return [stack({}), stack({ keys: 1, nets: 1, records: false })];
    case 'mixed':
      return [
        stack({}),
        stack({ keys: 2, keyVersion: 2, nets: 3, label: 'c', recDomain: 1, value: '198.18.0.30', cbd: true }),
      ];
  }
}
