// What the reference pages say that the schemas cannot: the import id formats (the grammar each
// resource's `importId` accepts, from the seeds and the wire notes), the Terraform resource or
// data source each token corresponds to, and hand-written examples where the generated one would
// not say enough. A definition's own `docs` (ResourceDefinition.docs) wins over this table.
import type { AnyResource } from '../../src/engine/provider/define.js';

/** The Terraform provider behind each package. */
export const terraformPrefix: Readonly<Record<string, string>> = { prova: 'lxd', provb: 'civo', provc: 'gcore' };

/** Tokens whose Terraform name is not the snake_case of the token's name. */
const terraformNames: Readonly<Record<string, string>> = {};

const LXD_ONE = '`[<remote>:][<project>/]<name>`: the remote and project default to the provider\'s default remote and `default`';
const LXD_GLOBAL = '`[<remote>:]<name>`: the remote defaults to the provider\'s default remote';
const ID = '`<id>`: the object\'s id';

/** The import id grammar per resource token; a resource without `importId` cannot be imported. */
export const importIdFormats: Readonly<Record<string, readonly string[]>> = {
  'prova:index/authGroup:AuthGroup': [LXD_GLOBAL],
  'prova:index/instance:Instance': [
    LXD_ONE,
    '`[<remote>:][<project>/]<name>,image=<image>`: also records `image` in the imported inputs (e.g. `proj/web1,image=ubuntu:24.04`)',
  ],
  'prova:index/instanceDevice:InstanceDevice': ['`[<remote>:][<project>]/<instance>/<device>`: the project segment may be empty (e.g. `/c2/eth1`); stored as `<remote>:<project>/<instance>/<device>`'],
  'prova:index/network:Network': [LXD_ONE],
  'prova:index/networkAcl:NetworkAcl': [LXD_ONE],
  'prova:index/networkForward:NetworkForward': [
    '`[<remote>:][<project>]/<network>/<listenAddress>`: the project segment may be empty (e.g. `/lxdbr0/10.0.0.5`, `r:/br0/fd00::5`)',
  ],
  'prova:index/profile:Profile': [LXD_ONE],
  'prova:index/project:Project': [LXD_GLOBAL],
  'prova:index/storagePool:StoragePool': [LXD_ONE],
  'prova:index/storageVolume:StorageVolume': ['`[<remote>:][<project>]/<pool>/<name>`: the project segment may be empty (e.g. `/default/vol1`)'],
  'provb:index/database:Database': [ID],
  'provb:index/dnsDomainName:DnsDomainName': ['`<domain name>`: the domain\'s name (e.g. `example.com`), not its id'],
  'provb:index/dnsDomainRecord:DnsDomainRecord': ['`<domainId>:<recordId>`'],
  'provb:index/firewall:Firewall': [ID],
  'provb:index/instance:Instance': [ID],
  'provb:index/instanceReservedIpAssignment:InstanceReservedIpAssignment': ['`<reservedIpId>:<instanceId>`'],
  'provb:index/kubernetesCluster:KubernetesCluster': [ID],
  'provb:index/kubernetesNodePool:KubernetesNodePool': ['`<clusterId>:<poolId>`'],
  'provb:index/loadBalancer:LoadBalancer': [ID],
  'provb:index/network:Network': [ID],
  'provb:index/objectStore:ObjectStore': [ID],
  'provb:index/objectStoreCredential:ObjectStoreCredential': [ID],
  'provb:index/reservedIp:ReservedIp': [ID],
  'provb:index/sshKey:SshKey': [ID],
  'provb:index/volume:Volume': [ID],
  'provb:index/volumeAttachment:VolumeAttachment': ['`<instanceId>:<volumeId>`'],
  'provc:index/cdnCertificate:CdnCertificate': ['`<sslId>`: the certificate\'s numeric id'],
  'provc:index/cdnOriginGroup:CdnOriginGroup': ['`<originGroupId>`: the origin group\'s numeric id'],
  'provc:index/cdnResource:CdnResource': ['`<resourceId>`: the CDN resource\'s numeric id'],
  'provc:index/cdnResourceRule:CdnResourceRule': ['`<resourceId>/<ruleId>`: both numeric'],
  'provc:index/cdnRuleTemplate:CdnRuleTemplate': ['`<ruleTemplateId>`: the template\'s numeric id'],
  'provc:index/cdnTrustedCaCertificate:CdnTrustedCaCertificate': ['`<id>`: the CA certificate\'s numeric id'],
  'provc:index/cloudFloatingIp:CloudFloatingIp': [
    '`<uuid>`: in the provider\'s default project and region',
    '`<projectId>/<regionId>/<uuid>`',
  ],
};

/** Hand-written examples (the body after the import line), for resources whose fields refer to others. */
export const examples: Readonly<Record<string, string>> = {
  'provb:index/firewall:Firewall': `const net = provb.network('net', { label: 'private' });
const fw = provb.firewall('fw', {
  name: 'web',
  networkId: net.out('networkId'),
  createDefaultRules: false,
  ingressRules: [{ label: 'https', protocol: 'tcp', portRange: '443', cidrs: ['0.0.0.0/0'], action: 'allow' }],
});`,
  'provb:index/instance:Instance': `const net = provb.network('net', { label: 'private' });
const fw = provb.firewall('fw', { name: 'web', networkId: net.out('networkId') });
const web = provb.instance('web', {
  hostname: 'web1', diskImage: 'ubuntu-jammy', size: 'g3.small',
  networkId: net.out('networkId'), firewallId: fw.out('firewallId'),
});`,
};

/** The token's name part: 'provb:index/dnsDomainRecord:DnsDomainRecord' → 'dnsDomainRecord'. */
export function nameOf(token: string): string {
  return token.split(':')[1]!.split('/')[1]!;
}

export function snakeCase(name: string): string {
  return name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();
}

export function kebabCase(name: string): string {
  return snakeCase(name).replaceAll('_', '-');
}

/** The Terraform resource (or, for a lookup, data source) a token corresponds to. */
export function terraformNameOf(token: string, definition?: AnyResource): string {
  if (definition?.docs?.terraform) return definition.docs.terraform;
  if (terraformNames[token]) return terraformNames[token];
  const pkg = token.split(':')[0]!;
  const name = nameOf(token).replace(/^get(?=[A-Z])/, '');
  return `${terraformPrefix[pkg] ?? pkg}_${snakeCase(name[0]!.toLowerCase() + name.slice(1))}`;
}
