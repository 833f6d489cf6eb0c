// The stack the converge/testing tests plan: a Civo network, a firewall on it and instances behind
// it, with knobs for the edits the matchers judge.
import { provb } from 'converge/providers/b';

export type StackKnobs = {
  readonly label?: string;
  readonly size?: string;
  readonly diskImage?: string;
  readonly webs?: number;
  readonly retainWeb?: boolean;
  readonly sshFrom?: readonly string[];
};

export const civo = () => provb({ token: 'unused-in-tests', region: 'LON1' });

export function stack(k: StackKnobs = {}) {
  const net = provb.network('net', { label: k.label ?? 'app' });
  const fw = provb.firewall('fw', {
    name: 'app-fw',
    networkId: net.out('networkId'),
    createDefaultRules: false,
    ingressRules: [
      { label: 'ssh', protocol: 'tcp', portRange: '22', cidrs: [...(k.sshFrom ?? ['10.0.0.0/8'])], action: 'allow' },
    ],
  });
  const webs = Array.from({ length: k.webs ?? 1 }, (_, i) =>
    provb.instance(
      i ? `web-${i}` : 'web',
      {
        hostname: i ? `web-${i}` : 'web',
        diskImage: k.diskImage ?? 'ubuntu-jammy',
        size: k.size ?? 'g3.medium',
        networkId: net.out('networkId'),
        firewallId: fw.out('firewallId'),
      },
      k.retainWeb ? { retainOnDelete: true } : undefined,
    ),
  );
  return { net, fw, web: webs[0]!, all: [net, fw, ...webs] };
}
