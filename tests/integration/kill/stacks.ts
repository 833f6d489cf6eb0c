// The stacks of the kill test: for each scenario, what is applied before the child starts and what
// the child applies (and is killed during). All over Civo's simulator: SSH keys, networks, DNS
// domains and records, so creates, in-place updates, delete-first and create-first replacements
// and deletes all happen.
import { ref, type ResourceDecl } from '../../../src/index.js';

export const scenarios = ['create', 'update', 'replace', 'replace-cbd', 'delete', 'mixed'] as const;
export type Scenario = (typeof scenarios)[number];

const N = 4;
const key = (i: number, v: number): ResourceDecl => ({ type: 'provb:index/sshKey:SshKey', name: `key${i}`, inputs: { name: `key${i}`, publicKey: `ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI${i}v${v} k${i}` } });
const net = (i: number, label: string): ResourceDecl => ({ type: 'provb:index/network:Network', name: `net${i}`, inputs: { label } });
const domain = (d: number): ResourceDecl => ({ type: 'provb:index/dnsDomainName:DnsDomainName', name: `zone${d}`, inputs: { name: `kill${d}.example.com` } });
const record = (i: number, d: number, value: string, cbd: boolean): ResourceDecl => ({
  type: 'provb:index/dnsDomainRecord:DnsDomainRecord', name: `rec${i}`,
  inputs: { domainId: ref(`zone${d}`, 'dnsDomainNameId'), type: 'a', name: `host${i}`, value },
  ...(cbd ? { options: { createBeforeDestroy: true } } : {}),
});

function stack(opts: { keys?: number; keyVersion?: number; nets?: number; label?: string; zones?: number[]; recDomain?: number; value?: string; cbd?: boolean }): ResourceDecl[] {
  const out: ResourceDecl[] = [];
  for (let i = 0; i < (opts.keys ?? N); i++) out.push(key(i, opts.keyVersion ?? 1));
  for (let i = 0; i < (opts.nets ?? N); i++) out.push(net(i, `${opts.label ?? 'a'}-n${i}`));
  for (const d of opts.zones ?? [0]) out.push(domain(d));
  for (let i = 0; i < N; i++) out.push(record(i, opts.recDomain ?? 0, opts.value ?? '198.18.0.10', opts.cbd ?? false));
  return out;
}

/** [applied before the child, applied by the child]. */
export function stacksOf(s: Scenario): [ResourceDecl[], ResourceDecl[]] {
  switch (s) {
    case 'create': return [[], stack({})];
    case 'update': return [stack({}), stack({ label: 'b', value: '198.18.0.20' })];
    case 'replace': return [stack({}), stack({ keyVersion: 2 })];
    case 'replace-cbd': return [stack({ zones: [0, 1], cbd: true }), stack({ zones: [0, 1], recDomain: 1, cbd: true })];
    case 'delete': return [stack({}), stack({ keys: 1, nets: 1 })];
    case 'mixed': return [stack({ zones: [0, 1] }), stack({ keys: 2, keyVersion: 2, label: 'c', zones: [0, 1], recDomain: 1, value: '198.18.0.30', cbd: true })];
  }
}
