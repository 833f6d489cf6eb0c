// The stack of the README's "Testing your stacks" (the region below): a Civo network, a firewall
// with an SSH rule and an instance behind it, with the knobs the examples edit.
// #region stack
import { provb } from 'converge/providers/b';

export function webStack(o: { size?: string; sshFrom?: string[] } = {}) {
  const net = provb.network('net', { label: 'app' });
  const fw = provb.firewall('fw', {
    name: 'app-fw',
    networkId: net.out('networkId'),
    createDefaultRules: false,
    ingressRules: [
      { label: 'ssh', protocol: 'tcp', portRange: '22', cidrs: o.sshFrom ?? ['10.0.0.0/8'], action: 'allow' },
    ],
  });
  const web = provb.instance('web', {
    hostname: 'web',
    diskImage: 'ubuntu-jammy',
    size: o.size ?? 'g3.medium',
    networkId: net.out('networkId'),
    firewallId: fw.out('firewallId'),
  });
  return { net, fw, web, all: [net, fw, web] };
}
// #endregion stack
