// The demo stack: an LXD profile and container (provider A), a Civo network, firewall, instance and DNS zone
// whose A records point at the container's and the instance's IPv4 (provider B), and a Gcore CDN
// origin group on the Civo instance feeding a CDN resource (provider C). References cross providers.
import type { ResourceDecl } from 'converge';
import { prova } from 'converge/providers/a';
import { provb } from 'converge/providers/b';
import { provc } from 'converge/providers/c';
import { LXD_BRIDGE, LXD_IMAGE } from './demo-lxd.js';

export type DemoNames = {
  /** The LXD container's and profile's names (unique per run, so a crashed run never collides with the next). */
  readonly container: string;
  readonly profile: string;
  /** The DNS zone in the Civo simulator. */
  readonly zone: string;
};

/** The declarations; `inference` is the Gcore inference flavor a lookup chose, named in the CDN's description. */
export function demoStack(names: DemoNames, inference: string): ResourceDecl[] {
  // A: a profile, and a container with it on the test bridge (and no other network).
  const team = prova.profile('team', { name: names.profile, config: { 'user.team': 'demo' } });
  const app = prova.instance('app', {
    name: names.container,
    image: LXD_IMAGE,
    profiles: ['default', team.out('name')],
    devices: [{ name: 'eth0', type: 'nic', properties: { network: LXD_BRIDGE } }],
    config: { 'user.role': 'demo-app' },
  });

  // B: network, firewall with one rule, an instance behind it, and DNS records for both machines.
  const net = provb.network('net', { label: 'converge-demo' });
  const fw = provb.firewall('fw', {
    name: 'converge-demo-fw',
    networkId: net.out('networkId'),
    createDefaultRules: false,
    ingressRules: [{ label: 'http', portRange: '80', cidrs: ['0.0.0.0/0'], action: 'allow' }],
  });
  const web = provb.instance('web', {
    hostname: 'demo-web',
    diskImage: 'ubuntu-jammy',
    networkId: net.out('networkId'),
    firewallId: fw.out('firewallId'),
    tags: ['demo'],
  });
  const zone = provb.dnsDomainName('zone', { name: names.zone });
  const appRecord = provb.dnsDomainRecord('app-record', {
    domainId: zone.out('dnsDomainNameId'),
    type: 'a',
    name: 'app',
    value: app.out('ipv4Address'),
  });
  const webRecord = provb.dnsDomainRecord('web-record', {
    domainId: zone.out('dnsDomainNameId'),
    type: 'a',
    name: 'www',
    value: web.out('publicIp'),
  });

  // C: the Civo instance as the CDN's origin.
  const origins = provc.cdnOriginGroup('origins', {
    name: 'converge-demo-origins',
    sources: [{ source: web.out('publicIp') }],
  });
  const cdn = provc.cdnResource('cdn', {
    cname: `cdn.${names.zone}`,
    originGroup: origins.out('originGroupId'),
    description: `demo site; its inference backend runs on ${inference}`,
    options: { gzipOn: { enabled: true, value: true } },
  });
  return [team, app, net, fw, web, zone, appRecord, webRecord, origins, cdn];
}
