// Every rule seed 001 (provb, Civo) and its wire notes state, as a plan-time check: input → issue code and path.
import { describe } from 'vitest';
import { provb } from 'converge/providers/b';
import { describeRules, type Row, type Valid } from './table.js';

const endpoint = { token: 'valid-test-token', apiEndpoint: 'http://127.0.0.1:9', env: {} };
const regional = () => provb({ ...endpoint, region: 'LON1' });
const regionless = () => provb(endpoint);
const lk = (name: string, args: Record<string, unknown>) => ({ token: `provb:index/${name}:${name}`, args });
const rec = (inputs: Record<string, unknown>) =>
  provb.dnsDomainRecord('r', {
    domainId: 'd',
    type: 'a',
    name: 'www',
    value: '192.0.2.1',
    ttl: 600,
    ...inputs,
  } as never);
const rule = { label: 'ssh', protocol: 'tcp', portRange: '22', cidrs: ['0.0.0.0/0'], action: 'allow' };
const pools = { nodeCount: 1, size: 'g4s.kube.small' };

const rows: Row[] = [
  {
    rule: 'Database engine, nodes, size and version are required',
    decl: provb.database('db', { nodes: 1, size: 's', version: '8' } as never),
    code: 'invalid_type',
    path: ['engine'],
  },
  {
    rule: 'Database nodes is a count',
    decl: provb.database('db', { engine: 'mysql', nodes: 0, size: 's', version: '8' } as never),
    code: 'too_small',
    path: ['nodes'],
  },
  {
    rule: 'DnsDomainName name is required',
    decl: provb.dnsDomainName('dn', {} as never),
    code: 'invalid_type',
    path: ['name'],
  },
  {
    rule: 'DnsDomainRecord type is a, cname, mx or txt',
    decl: rec({ type: 'aaaa' }),
    code: 'invalid_value',
    path: ['type'],
  },
  { rule: 'DnsDomainRecord ttl is at least 600', decl: rec({ ttl: 5 }), code: 'too_small', path: ['ttl'] },
  {
    rule: 'DnsDomainRecord ttl is at most 3600 (wire notes, v1.x)',
    decl: rec({ ttl: 7200 }),
    code: 'too_big',
    path: ['ttl'],
  },
  {
    rule: 'Firewall portRange is required unless the protocol is icmp',
    decl: provb.firewall('f', {
      name: 'f',
      createDefaultRules: false,
      ingressRules: [{ protocol: 'udp', cidrs: ['0.0.0.0/0'], action: 'allow' }],
    } as never),
    code: 'invalid_value',
    path: ['ingressRules', 0, 'portRange'],
  },
  {
    rule: 'Firewall with createDefaultRules false needs a rule',
    decl: provb.firewall('f', { name: 'f', createDefaultRules: false } as never),
    code: 'too_small',
    path: ['ingressRules'],
  },
  {
    rule: 'Firewall portRange is a port or a range',
    decl: provb.firewall('f', {
      name: 'f',
      createDefaultRules: false,
      ingressRules: [{ ...rule, portRange: '22,80' }],
    } as never),
    code: 'invalid_format',
    path: ['ingressRules', 0, 'portRange'],
  },
  {
    rule: 'Instance hostname has no whitespace',
    decl: provb.instance('i', { diskImage: 'img', firewallId: '', hostname: 'a b' } as never),
    code: 'invalid_format',
    path: ['hostname'],
  },
  {
    rule: 'Instance hostname is at most 63 characters',
    decl: provb.instance('i', { diskImage: 'img', firewallId: '', hostname: 'h'.repeat(64) } as never),
    code: 'too_big',
    path: ['hostname'],
  },
  {
    rule: 'Instance script is non-empty',
    decl: provb.instance('i', { diskImage: 'img', firewallId: '', script: '' } as never),
    code: 'too_small',
    path: ['script'],
  },
  {
    rule: 'Network label has no whitespace',
    decl: provb.network('n', { label: 'a b' } as never),
    code: 'invalid_format',
    path: ['label'],
  },
  {
    rule: 'KubernetesCluster talos cannot use cilium',
    decl: provb.kubernetesCluster('k', { firewallId: 'fw', pools, clusterType: 'talos', cni: 'cilium' } as never),
    code: 'invalid_value',
    path: ['cni'],
  },
  {
    rule: 'DnsDomainRecord A value is an IPv4 address',
    decl: rec({ value: 'not-an-ip' }),
    code: 'invalid_format',
    path: ['value'],
  },
  {
    rule: 'DnsDomainRecord A value is IPv4, not IPv6',
    decl: rec({ value: '2001:db8::1' }),
    code: 'invalid_format',
    path: ['value'],
  },
  {
    rule: 'DnsDomainRecord CNAME value is a hostname',
    decl: rec({ type: 'cname', value: 'not a host' }),
    code: 'invalid_format',
    path: ['value'],
  },
  {
    rule: 'DnsDomainRecord an A record cannot be at the apex',
    decl: rec({ name: '@' }),
    code: 'invalid_value',
    path: ['name'],
  },
  {
    rule: 'DnsDomainRecord priority is for MX only',
    decl: rec({ priority: 10 }),
    code: 'invalid_value',
    path: ['priority'],
  },
  {
    rule: 'DnsDomainRecord domainId is required',
    decl: provb.dnsDomainRecord('r', { type: 'a', name: 'w', value: '192.0.2.1' } as never),
    code: 'invalid_type',
    path: ['domainId'],
  },
  {
    rule: 'Firewall createDefaultRules must be false with custom rules',
    decl: provb.firewall('f', { name: 'f', ingressRules: [rule] } as never),
    code: ['invalid_value', 'custom'],
    path: ['createDefaultRules'],
  },
  {
    rule: 'Firewall rule action is allow or deny',
    decl: provb.firewall('f', {
      name: 'f',
      createDefaultRules: false,
      ingressRules: [{ ...rule, action: 'drop' }],
    } as never),
    code: 'invalid_value',
    path: ['ingressRules', 0, 'action'],
  },
  {
    rule: 'Firewall rule cidrs is a list',
    decl: provb.firewall('f', {
      name: 'f',
      createDefaultRules: false,
      egressRules: [{ ...rule, cidrs: '0.0.0.0/0' }],
    } as never),
    code: 'invalid_type',
    path: ['egressRules', 0, 'cidrs'],
  },
  {
    rule: 'Firewall rule keys are known (path, not [])',
    decl: provb.firewall('f', {
      name: 'f',
      createDefaultRules: false,
      ingressRules: [{ ...rule, port: '22' }],
    } as never),
    code: 'unrecognized_keys',
    path: ['ingressRules', 0, 'port'],
  },
  {
    rule: 'Instance diskImage is required',
    decl: provb.instance('i', { firewallId: '' } as never),
    code: 'invalid_type',
    path: ['diskImage'],
  },
  {
    rule: 'Instance firewallId is required',
    decl: provb.instance('i', { diskImage: 'img' } as never),
    code: 'invalid_type',
    path: ['firewallId'],
  },
  {
    rule: 'Instance publicIpRequired is none or create',
    decl: provb.instance('i', { diskImage: 'img', firewallId: '', publicIpRequired: 'move' } as never),
    code: 'invalid_value',
    path: ['publicIpRequired'],
  },
  {
    rule: 'Instance volumeType is ssd or bssd',
    decl: provb.instance('i', { diskImage: 'img', firewallId: '', volumeType: 'hdd' } as never),
    code: 'invalid_value',
    path: ['volumeType'],
  },
  {
    rule: 'Instance tags is list<string>',
    decl: provb.instance('i', { diskImage: 'img', firewallId: '', tags: 'a b' } as never),
    code: 'invalid_type',
    path: ['tags'],
  },
  {
    rule: 'Instance unknown key is named at its path',
    decl: provb.instance('i', { diskImage: 'img', firewallId: '', hostnme: 'x' } as never),
    code: 'unrecognized_keys',
    path: ['hostnme'],
  },
  {
    rule: 'InstanceReservedIpAssignment instanceId and reservedIpId are required',
    decl: provb.instanceReservedIpAssignment('a', { reservedIpId: 'r' } as never),
    code: 'invalid_type',
    path: ['instanceId'],
  },
  {
    rule: 'KubernetesCluster firewallId is required',
    decl: provb.kubernetesCluster('k', { pools } as never),
    code: 'invalid_type',
    path: ['firewallId'],
  },
  {
    rule: 'KubernetesCluster pools is required',
    decl: provb.kubernetesCluster('k', { firewallId: 'fw' } as never),
    code: 'invalid_type',
    path: ['pools'],
  },
  {
    rule: 'KubernetesCluster clusterType is k3s or talos',
    decl: provb.kubernetesCluster('k', { firewallId: 'fw', pools, clusterType: 'eks' } as never),
    code: 'invalid_value',
    path: ['clusterType'],
  },
  {
    rule: 'KubernetesCluster cni is cilium or flannel',
    decl: provb.kubernetesCluster('k', { firewallId: 'fw', pools, cni: 'calico' } as never),
    code: 'invalid_value',
    path: ['cni'],
  },
  {
    rule: 'KubernetesCluster tags is a space-separated string',
    decl: provb.kubernetesCluster('k', { firewallId: 'fw', pools, tags: ['a'] } as never),
    code: 'invalid_type',
    path: ['tags'],
  },
  {
    rule: 'KubernetesNodePool clusterId, nodeCount and size are required',
    decl: provb.kubernetesNodePool('p', { clusterId: 'c', size: 's' } as never),
    code: 'invalid_type',
    path: ['nodeCount'],
  },
  {
    rule: 'KubernetesNodePool labels is map<string,string>',
    decl: provb.kubernetesNodePool('p', { clusterId: 'c', size: 's', nodeCount: 1, labels: { a: 1 } } as never),
    code: 'invalid_type',
    path: ['labels', 'a'],
  },
  { rule: 'Network label is required', decl: provb.network('n', {} as never), code: 'invalid_type', path: ['label'] },
  {
    rule: 'Network vlanId is a number',
    decl: provb.network('n', { label: 'n', vlanId: '7' } as never),
    code: 'invalid_type',
    path: ['vlanId'],
  },
  {
    rule: 'Network nameserversV4s is list<string>',
    decl: provb.network('n', { label: 'n', nameserversV4s: '8.8.8.8' } as never),
    code: 'invalid_type',
    path: ['nameserversV4s'],
  },
  {
    rule: 'ObjectStore maxSizeGb is a number',
    decl: provb.objectStore('o', { name: 'o', maxSizeGb: '500' } as never),
    code: 'invalid_type',
    path: ['maxSizeGb'],
  },
  {
    rule: 'getDnsDomainRecord domainId and name are required',
    lookup: lk('getDnsDomainRecord', { name: 'www' }),
    code: 'invalid_type',
    path: ['domainId'],
  },
  {
    rule: 'getVpcSubnet networkId is required',
    lookup: lk('getVpcSubnet', { name: 's' }),
    code: 'invalid_type',
    path: ['networkId'],
  },
  {
    rule: 'list lookups: filters entries have key and values',
    lookup: lk('getSize', { filters: [{ key: 'name' }] }),
    code: 'invalid_type',
    path: ['filters', 0, 'values'],
  },
  {
    rule: 'list lookups: sorts direction is asc or desc',
    lookup: lk('getRegion', { sorts: [{ key: 'code', direction: 'up' }] }),
    code: 'invalid_value',
    path: ['sorts', 0, 'direction'],
  },
  {
    rule: 'list lookups: unknown filter key is named at its path',
    lookup: lk('getRegion', { filters: [{ key: 'code', values: ['x'], mode: 'x' }] }),
    code: 'unrecognized_keys',
    path: ['filters', 0, 'mode'],
  },
  {
    rule: 'getInstance takes no unknown argument',
    lookup: lk('getInstance', { hostnme: 'x' }),
    code: 'unrecognized_keys',
    path: ['hostnme'],
  },
];

const regionRows: Row[] = [
  {
    rule: 'a resource must name its region when the provider has none',
    decl: provb.volume('v', { name: 'v', sizeGb: 1 } as never),
    code: 'missing_region',
    path: ['region'],
  },
  {
    rule: 'Instance must name its region when the provider has none',
    decl: provb.instance('i', { diskImage: 'img', firewallId: '' }),
    code: 'missing_region',
    path: ['region'],
  },
  {
    rule: 'getDiskImage needs a region when the provider has none',
    lookup: lk('getDiskImage', {}),
    code: 'missing_region',
    path: ['region'],
  },
];

const valid: Valid[] = [
  { rule: 'an A record with an IPv4 value', decl: rec({}) },
  { rule: 'an MX record whose value is a hostname', decl: rec({ type: 'mx', value: 'mail.example.com', priority: 5 }) },
  { rule: 'a CNAME record whose value is a hostname', decl: rec({ type: 'cname', value: 'example.com.' }) },
  {
    rule: 'a firewall with custom rules and no default rules',
    decl: provb.firewall('f', { name: 'f', createDefaultRules: false, ingressRules: [rule] } as never),
  },
];

describe('provb seed rules at plan time', () => describeRules(regional, rows, valid));
describe('provb seed rules without a default region', () => describeRules(regionless, regionRows));
