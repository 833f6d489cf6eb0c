// Every rule seed 000 (prova, LXD) states, as a plan-time check: input → issue code and path.
import { describe } from 'vitest';
import { prova } from 'converge/providers/a';
import { describeRules, type Row, type Valid } from './table.js';

const provider = () => prova({ socketPath: '/nonexistent/converge-valid.sock', configDir: '/tmp/converge-valid-a' });
const inst = (inputs: Record<string, unknown>, options?: object) =>
  prova.instance('i', { name: 'i', image: 'busybox', ...inputs } as never, options as never);
const file = (inputs: Record<string, unknown>) =>
  prova.instanceFile('f', { instance: 'i', targetPath: '/etc/motd', content: 'x', ...inputs } as never);
const port = (o: object) => ({ protocol: 'tcp', listenPort: '80', targetAddress: '198.18.0.10', ...o });
const aclRule = (o: object) => ({ action: 'allow', state: 'enabled', ...o });
const lk = (name: string, args: Record<string, unknown>) => ({ token: `prova:index/${name}:${name}`, args });

const rows: Row[] = [
  { rule: 'AuthGroup name is required', decl: prova.authGroup('g', {} as never), code: 'invalid_type', path: ['name'] },
  {
    rule: 'AuthGroup permissions is a list',
    decl: prova.authGroup('g', { name: 'g', permissions: 'all' } as never),
    code: 'invalid_type',
    path: ['permissions'],
  },
  {
    rule: 'remote is a string',
    decl: prova.network('n', { name: 'n', remote: 1 } as never),
    code: 'invalid_type',
    path: ['remote'],
  },
  {
    rule: 'Instance remote must name a configured remote',
    decl: inst({ remote: 'elsewhere' }),
    code: 'unknown_remote',
    path: ['remote'],
  },
  {
    rule: "every resource's remote must name a configured remote",
    decl: prova.storageVolume('sv', { pool: 'p', name: 'v', remote: 'elsewhere' }),
    code: 'unknown_remote',
    path: ['remote'],
  },
  {
    rule: "every lookup's remote must name a configured remote",
    lookup: lk('getInfo', { remote: 'elsewhere' }),
    code: 'unknown_remote',
    path: ['remote'],
  },
  {
    rule: 'Instance name is required',
    decl: prova.instance('i', { image: 'busybox' } as never),
    code: 'invalid_type',
    path: ['name'],
  },
  {
    rule: 'Instance type is container or virtual-machine',
    decl: inst({ type: 'vm' }),
    code: 'invalid_value',
    path: ['type'],
  },
  {
    rule: 'Instance image is needed for a container',
    decl: prova.instance('i', { name: 'i' }),
    code: 'custom',
    path: ['image'],
  },
  {
    rule: 'Instance ephemeral is a boolean',
    decl: inst({ ephemeral: 'yes' }),
    code: 'invalid_type',
    path: ['ephemeral'],
  },
  { rule: 'Instance running is a boolean', decl: inst({ running: 'no' }), code: 'invalid_type', path: ['running'] },
  {
    rule: 'Instance runing (misspelt) is not an input',
    decl: inst({ runing: false }),
    code: 'unrecognized_keys',
    path: ['runing'],
  },
  {
    rule: 'Instance waitForNetwork is a boolean',
    decl: inst({ waitForNetwork: 1 }),
    code: 'invalid_type',
    path: ['waitForNetwork'],
  },
  {
    rule: 'Instance config is map<string,string>',
    decl: inst({ config: { 'user.a': 1 } }),
    code: 'invalid_type',
    path: ['config', 'user.a'],
  },
  {
    rule: 'Instance limits is map<string,string>',
    decl: inst({ limits: { cpu: 2 } }),
    code: 'invalid_type',
    path: ['limits', 'cpu'],
  },
  {
    rule: 'Instance profiles is list<string>',
    decl: inst({ profiles: [1] }),
    code: 'invalid_type',
    path: ['profiles', 0],
  },
  {
    rule: 'Instance files[].targetPath is absolute',
    decl: inst({ files: [{ targetPath: 'etc/motd', content: 'x' }] }),
    code: 'invalid_value',
    path: ['files', 0, 'targetPath'],
  },
  {
    rule: 'Instance files[].targetPath names a file',
    decl: inst({ files: [{ targetPath: '/etc/', content: 'x' }] }),
    code: 'invalid_value',
    path: ['files', 0, 'targetPath'],
  },
  {
    rule: "Instance files[].mode is octal ('999')",
    decl: inst({ files: [{ targetPath: '/x', content: 'x', mode: '999' }] }),
    code: 'invalid_value',
    path: ['files', 0, 'mode'],
  },
  {
    rule: 'Instance files[] needs content or sourcePath',
    decl: inst({ files: [{ targetPath: '/x' }] }),
    code: 'custom',
    path: ['files', 0],
  },
  {
    rule: 'Instance files[].uid is an unquoted integer',
    decl: inst({ files: [{ targetPath: '/x', content: 'x', uid: '0' }] }),
    code: 'invalid_type',
    path: ['files', 0, 'uid'],
  },
  {
    rule: 'Instance files[].gid is an integer',
    decl: inst({ files: [{ targetPath: '/x', content: 'x', gid: 1.5 }] }),
    code: 'invalid_type',
    path: ['files', 0, 'gid'],
  },
  {
    rule: "Instance timeouts.create is a duration ('banana')",
    decl: inst({ timeouts: { create: 'banana' } }),
    code: 'invalid_value',
    path: ['timeouts', 'create'],
  },
  {
    rule: 'Instance timeouts fit a timer',
    decl: inst({ timeouts: { delete: '600h' } }),
    code: 'invalid_value',
    path: ['timeouts', 'delete'],
  },
  {
    rule: 'Instance timeouts has create/read/update/delete only',
    decl: inst({ timeouts: { craete: '1m' } }),
    code: 'unrecognized_keys',
    path: ['timeouts', 'craete'],
  },
  {
    rule: 'Instance execs keys are [a-z0-9_]+',
    decl: inst({ execs: { 'Bad-Key': { command: ['true'] } } }),
    code: 'custom',
    path: ['execs', 'Bad-Key'],
  },
  {
    rule: 'Instance ephemeral cannot be stopped',
    decl: inst({ ephemeral: true, running: false }),
    code: 'custom',
    path: ['running'],
  },
  {
    rule: 'InstanceDevice type is one of the twelve',
    decl: prova.instanceDevice('d', { instanceName: 'i', name: 'd', type: 'floppy', properties: {} } as never),
    code: 'invalid_value',
    path: ['type'],
  },
  {
    rule: 'InstanceDevice properties is required',
    decl: prova.instanceDevice('d', { instanceName: 'i', name: 'd', type: 'disk' } as never),
    code: 'invalid_type',
    path: ['properties'],
  },
  {
    rule: 'InstanceDevice instanceName is required',
    decl: prova.instanceDevice('d', { name: 'd', type: 'disk', properties: {} } as never),
    code: 'invalid_type',
    path: ['instanceName'],
  },
  {
    rule: 'InstanceFile targetPath is absolute',
    decl: file({ targetPath: 'etc/motd' }),
    code: 'invalid_value',
    path: ['targetPath'],
  },
  {
    rule: 'InstanceFile targetPath names a file',
    decl: file({ targetPath: '/etc/' }),
    code: 'invalid_value',
    path: ['targetPath'],
  },
  { rule: "InstanceFile mode is octal ('0999')", decl: file({ mode: '0999' }), code: 'invalid_value', path: ['mode'] },
  {
    rule: 'InstanceFile needs exactly one of content and sourcePath',
    decl: file({ sourcePath: '/tmp/x' }),
    code: 'custom',
    path: ['content'],
  },
  { rule: 'InstanceFile uid is an unquoted integer', decl: file({ uid: '0' }), code: 'invalid_type', path: ['uid'] },
  {
    rule: 'InstanceFile instance is required',
    decl: prova.instanceFile('f', { targetPath: '/x', content: 'x' } as never),
    code: 'invalid_type',
    path: ['instance'],
  },
  {
    rule: 'Network type is bridge, macvlan, sriov, ovn or physical',
    decl: prova.network('n', { name: 'n', type: 'vxlan' } as never),
    code: 'invalid_value',
    path: ['type'],
  },
  { rule: 'Network name is required', decl: prova.network('n', {} as never), code: 'invalid_type', path: ['name'] },
  {
    rule: 'NetworkAcl ingresses is list<rule>',
    decl: prova.networkAcl('a', { name: 'a', ingresses: [{ action: 'permit', state: 'enabled' }] } as never),
    code: 'invalid_value',
    path: ['ingresses', 0, 'action'],
  },
  {
    rule: 'NetworkAcl rule keys are known',
    decl: prova.networkAcl('a', { name: 'a', egresses: [{ action: 'allow', state: 'enabled', port: '22' }] } as never),
    code: 'unrecognized_keys',
    path: ['egresses', 0, 'port'],
  },
  {
    rule: 'NetworkForward listenAddress is an IP address',
    decl: prova.networkForward('f', { network: 'n', listenAddress: 'not-an-ip' }),
    code: 'invalid_format',
    path: ['listenAddress'],
  },
  {
    rule: 'NetworkForward network is required',
    decl: prova.networkForward('f', { listenAddress: '198.18.0.9' } as never),
    code: 'invalid_type',
    path: ['network'],
  },
  {
    rule: 'NetworkForward ports[].protocol is tcp or udp',
    decl: prova.networkForward('f', {
      network: 'n',
      listenAddress: '198.18.0.9',
      ports: [{ protocol: 'sctp', listenPort: '80', targetAddress: '198.18.0.10' }],
    } as never),
    code: 'invalid_value',
    path: ['ports', 0, 'protocol'],
  },
  {
    rule: 'NetworkAcl destinationPort only with tcp or udp',
    decl: prova.networkAcl('a', {
      name: 'a',
      ingresses: [aclRule({ protocol: 'icmp4', destinationPort: '22' })],
    } as never),
    code: 'invalid_value',
    path: ['ingresses', 0, 'destinationPort'],
  },
  {
    rule: 'NetworkAcl destinationPort is ports or ranges',
    decl: prova.networkAcl('a', {
      name: 'a',
      ingresses: [aclRule({ protocol: 'tcp', destinationPort: '22-x' })],
    } as never),
    code: 'invalid_value',
    path: ['ingresses', 0, 'destinationPort'],
  },
  {
    rule: 'NetworkAcl icmpType only with icmp4 or icmp6',
    decl: prova.networkAcl('a', { name: 'a', ingresses: [aclRule({ protocol: 'tcp', icmpType: '8' })] } as never),
    code: 'invalid_value',
    path: ['ingresses', 0, 'icmpType'],
  },
  {
    rule: 'NetworkAcl icmpCode is 0-255',
    decl: prova.networkAcl('a', { name: 'a', ingresses: [aclRule({ protocol: 'icmp4', icmpCode: '256' })] } as never),
    code: 'invalid_value',
    path: ['ingresses', 0, 'icmpCode'],
  },
  {
    rule: 'NetworkAcl source and destination do not mix IPv4 and IPv6',
    decl: prova.networkAcl('a', {
      name: 'a',
      ingresses: [aclRule({ source: '10.0.0.0/8', destination: 'fd00::/8' })],
    } as never),
    code: 'invalid_value',
    path: ['ingresses', 0, 'destination'],
  },
  {
    rule: 'NetworkForward ports[].listenPort is ports or ranges',
    decl: prova.networkForward('f', {
      network: 'n',
      listenAddress: '198.18.0.9',
      ports: [port({ listenPort: 'http' })],
    } as never),
    code: 'invalid_value',
    path: ['ports', 0, 'listenPort'],
  },
  {
    rule: 'NetworkForward ports[].targetAddress is an IP',
    decl: prova.networkForward('f', {
      network: 'n',
      listenAddress: '198.18.0.9',
      ports: [port({ targetAddress: 'web' })],
    } as never),
    code: 'invalid_format',
    path: ['ports', 0, 'targetAddress'],
  },
  {
    rule: 'NetworkForward ports[].targetPort is ports or ranges',
    decl: prova.networkForward('f', {
      network: 'n',
      listenAddress: '198.18.0.9',
      ports: [port({ targetPort: '8080-' })],
    } as never),
    code: 'invalid_value',
    path: ['ports', 0, 'targetPort'],
  },
  {
    rule: 'NetworkAcl config has only user.* keys',
    decl: prova.networkAcl('a', { name: 'a', config: { 'security.x': '1' } }),
    code: 'invalid_value',
    path: ['config', 'security.x'],
  },
  {
    rule: 'NetworkForward config has only target_address and user.* keys',
    decl: prova.networkForward('f', { network: 'n', listenAddress: '198.18.0.9', config: { 'x.y': '1' } }),
    code: 'invalid_value',
    path: ['config', 'x.y'],
  },
  {
    rule: 'NetworkForward config target_address is an IP',
    decl: prova.networkForward('f', { network: 'n', listenAddress: '198.18.0.9', config: { target_address: 'web' } }),
    code: 'invalid_format',
    path: ['config', 'target_address'],
  },
  { rule: 'getAuthGroup name is required', lookup: lk('getAuthGroup', {}), code: 'invalid_type', path: ['name'] },
  {
    rule: 'getAuthIdentity authMethod is tls, bearer or oidc',
    lookup: lk('getAuthIdentity', { authMethod: 'password', name: 'x' }),
    code: 'invalid_value',
    path: ['authMethod'],
  },
  {
    rule: 'getAuthIdentity name is required',
    lookup: lk('getAuthIdentity', { authMethod: 'tls' }),
    code: 'invalid_type',
    path: ['name'],
  },
  {
    rule: 'getImage type is container or virtual-machine',
    lookup: lk('getImage', { type: 'vm' }),
    code: 'invalid_value',
    path: ['type'],
  },
  {
    rule: 'getImage takes no unknown argument',
    lookup: lk('getImage', { fingerprnt: 'abc' }),
    code: 'unrecognized_keys',
    path: ['fingerprnt'],
  },
  { rule: 'getInfo remote is a string', lookup: lk('getInfo', { remote: 5 }), code: 'invalid_type', path: ['remote'] },
  {
    rule: 'getInstance name is required',
    lookup: lk('getInstance', { project: 'p' }),
    code: 'invalid_type',
    path: ['name'],
  },
  { rule: 'getNetwork name is required', lookup: lk('getNetwork', {}), code: 'invalid_type', path: ['name'] },
  { rule: 'getProfile name is required', lookup: lk('getProfile', {}), code: 'invalid_type', path: ['name'] },
  { rule: 'getProject name is required', lookup: lk('getProject', {}), code: 'invalid_type', path: ['name'] },
  { rule: 'getStoragePool name is required', lookup: lk('getStoragePool', {}), code: 'invalid_type', path: ['name'] },
];

const valid: Valid[] = [
  {
    rule: 'an Instance with absolute files, an octal mode and durations',
    decl: inst({ files: [{ targetPath: '/etc/motd', content: 'x', mode: '644' }], timeouts: { create: '10m' } }),
  },
  { rule: 'an empty virtual machine', decl: prova.instance('vm', { name: 'vm', type: 'virtual-machine' }) },
  {
    rule: 'a NetworkForward on an IPv6 address',
    decl: prova.networkForward('f', { network: 'n', listenAddress: 'fd00::1' }),
  },
  {
    rule: 'an InstanceFile from a source path',
    decl: prova.instanceFile('f', { instance: 'i', targetPath: '/x', sourcePath: '/tmp/x', mode: '0600' }),
  },
  { rule: 'getImage with no argument', lookup: lk('getImage', {}) },
  {
    rule: 'an ACL with tcp ports, icmp codes, and same-family source and destination',
    decl: prova.networkAcl('a', {
      name: 'a',
      config: { 'user.k': 'v' },
      ingresses: [
        {
          action: 'allow',
          state: 'enabled',
          protocol: 'tcp',
          destinationPort: '22,80-81',
          source: '10.0.0.0/8,@internal',
          destination: '10.1.0.1',
        },
      ],
      egresses: [
        { action: 'drop', state: 'logged', protocol: 'icmp6', icmpType: '128', icmpCode: '0', destination: 'fd00::/8' },
      ],
    }),
  },
  {
    rule: 'a forward with port ranges and a default target',
    decl: prova.networkForward('f', {
      network: 'n',
      listenAddress: '198.18.0.9',
      config: { target_address: '198.18.0.20', 'user.a': 'b' },
      ports: [
        { protocol: 'udp', listenPort: '53,5353-5354', targetAddress: '198.18.0.10', targetPort: '53,5353-5354' },
      ],
    }),
  },
];

describe('prova seed rules at plan time', () => describeRules(provider, rows, valid));
