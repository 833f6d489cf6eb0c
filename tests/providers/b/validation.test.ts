import { describe, expect, it } from 'vitest';
import { provb } from '../../../src/providers/b/index.js';
import type { AnyResource, CheckIssue } from '../../../src/engine/provider/define.js';

const withRegion = provb({ token: 't', apiEndpoint: 'http://127.0.0.1:9', region: 'LON1' });
const noRegion = provb({ token: 't', apiEndpoint: 'http://127.0.0.1:9' });
const res = (p: typeof withRegion, t: string) => p.resources.get(`provb:index/${t}`) as AnyResource;

/** Schema issues and check issues, as the engine collects them at plan time. */
function issues(p: typeof withRegion, token: string, raw: Record<string, unknown>) {
  const def = res(p, token);
  const parsed = def.inputs.safeParse(raw);
  if (!parsed.success)
    return parsed.error.issues.map((i: { path: PropertyKey[]; code: string }) => ({
      path: i.path,
      code: i.code as string,
    }));
  return ((def.check?.(parsed.data, p.config) ?? []) as readonly CheckIssue[]).map((i) => ({
    path: i.path,
    code: i.code,
  }));
}
const paths = (list: { path: readonly PropertyKey[] }[]) => list.map((i) => i.path.join('.'));

describe('provb validation at plan time', () => {
  it('requires a region on every regional resource when the provider has no default', () => {
    const regional: [string, Record<string, unknown>][] = [
      ['instance:Instance', { diskImage: 'x', firewallId: '' }],
      ['network:Network', { label: 'n' }],
      ['volume:Volume', { name: 'v', sizeGb: 1 }],
      ['database:Database', { engine: 'mysql', version: '8.0', size: 's', nodes: 1 }],
      ['objectStore:ObjectStore', { name: 'b' }],
    ];
    for (const [t, raw] of regional) {
      expect(issues(noRegion, t, raw)).toEqual([{ path: ['region'], code: 'missing_region' }]);
      expect(issues(noRegion, t, { ...raw, region: 'FRA1' })).toEqual([]);
      expect(issues(withRegion, t, raw)).toEqual([]);
    }
    expect(issues(noRegion, 'sshKey:SshKey', { name: 'k', publicKey: 'ssh-ed25519 A' })).toEqual([]);
  });

  it('enforces DNS ttl >= 600 with default 600, priority only for MX, and no A record at the apex', () => {
    const base = { domainId: 'd', type: 'a', name: 'www', value: '192.0.2.1' };
    expect(res(withRegion, 'dnsDomainRecord:DnsDomainRecord').inputs.parse(base).ttl).toBe(600);
    expect(paths(issues(withRegion, 'dnsDomainRecord:DnsDomainRecord', { ...base, ttl: 300 }))).toEqual(['ttl']);
    expect(paths(issues(withRegion, 'dnsDomainRecord:DnsDomainRecord', { ...base, priority: 5 }))).toEqual([
      'priority',
    ]);
    expect(issues(withRegion, 'dnsDomainRecord:DnsDomainRecord', { ...base, type: 'mx', priority: 5 })).toEqual([]);
    expect(paths(issues(withRegion, 'dnsDomainRecord:DnsDomainRecord', { ...base, name: '@' }))).toEqual(['name']);
    expect(paths(issues(withRegion, 'dnsDomainRecord:DnsDomainRecord', { ...base, type: 'aaaa' }))).toEqual(['type']);
  });

  it('refuses createDefaultRules with custom rules, a rule without ports, and no rules at all', () => {
    const rule = { portRange: '22', cidrs: ['0.0.0.0/0'], action: 'allow' };
    expect(paths(issues(withRegion, 'firewall:Firewall', { name: 'f', ingressRules: [rule] }))).toEqual([
      'createDefaultRules',
    ]);
    expect(
      issues(withRegion, 'firewall:Firewall', { name: 'f', createDefaultRules: false, ingressRules: [rule] }),
    ).toEqual([]);
    expect(
      paths(
        issues(withRegion, 'firewall:Firewall', {
          name: 'f',
          createDefaultRules: false,
          egressRules: [{ cidrs: ['0.0.0.0/0'], action: 'allow' }],
        }),
      ),
    ).toEqual(['egressRules.0.portRange']);
    expect(paths(issues(withRegion, 'firewall:Firewall', { name: 'f', createDefaultRules: false }))).toEqual([
      'ingressRules',
    ]);
    expect(
      paths(
        issues(withRegion, 'firewall:Firewall', {
          name: 'f',
          createDefaultRules: false,
          ingressRules: [{ ...rule, action: 'maybe' }],
        }),
      ),
    ).toEqual(['ingressRules.0.action']);
  });

  it('enforces the enumerations of instance and cluster fields', () => {
    expect(
      paths(issues(withRegion, 'instance:Instance', { diskImage: 'x', firewallId: '', publicIpRequired: 'yes' })),
    ).toEqual(['publicIpRequired']);
    expect(
      paths(issues(withRegion, 'instance:Instance', { diskImage: 'x', firewallId: '', volumeType: 'hdd' })),
    ).toEqual(['volumeType']);
    const cluster = { firewallId: 'f', pools: { nodeCount: 1, size: 's' } };
    expect(
      paths(issues(withRegion, 'kubernetesCluster:KubernetesCluster', { ...cluster, clusterType: 'eks' })),
    ).toEqual(['clusterType']);
    expect(paths(issues(withRegion, 'kubernetesCluster:KubernetesCluster', { ...cluster, cni: 'calico' }))).toEqual([
      'cni',
    ]);
    expect(
      paths(
        issues(withRegion, 'kubernetesCluster:KubernetesCluster', { ...cluster, clusterType: 'talos', cni: 'cilium' }),
      ),
    ).toEqual(['cni']);
    expect(
      paths(issues(withRegion, 'kubernetesCluster:KubernetesCluster', { ...cluster, kubernetesVersion: 'latest' })),
    ).toEqual(['kubernetesVersion']);
    expect(
      paths(
        issues(withRegion, 'kubernetesCluster:KubernetesCluster', { ...cluster, pools: { nodeCount: 0, size: 's' } }),
      ),
    ).toEqual(['pools.nodeCount']);
  });

  it('applies the seed defaults', () => {
    const i = res(withRegion, 'instance:Instance').inputs.parse({ diskImage: 'x', firewallId: '' });
    expect(i).toMatchObject({ publicIpRequired: 'create', volumeType: 'ssd', size: 'g3.xsmall', writePassword: false });
    const c = res(withRegion, 'kubernetesCluster:KubernetesCluster').inputs.parse({
      firewallId: 'f',
      pools: { nodeCount: 1, size: 's' },
    });
    expect(c).toMatchObject({ clusterType: 'k3s', cni: 'flannel', numTargetNodes: 3, writeKubeconfig: false });
    expect(res(withRegion, 'objectStore:ObjectStore').inputs.parse({ name: 'b' }).maxSizeGb).toBe(500);
    expect(res(withRegion, 'firewall:Firewall').inputs.parse({ name: 'f' }).createDefaultRules).toBe(true);
  });

  it('warns about the deprecated numTargetNodes and targetNodesSize', () => {
    const def = res(withRegion, 'kubernetesCluster:KubernetesCluster');
    const base = { firewallId: 'f', pools: { nodeCount: 1, size: 's' } };
    expect(def.warnings?.(def.inputs.parse(base), withRegion.config)).toEqual([]);
    const w =
      def.warnings?.(
        def.inputs.parse({ ...base, numTargetNodes: 5, targetNodesSize: 'g4s.kube.large' }),
        withRegion.config,
      ) ?? [];
    expect(w).toHaveLength(2);
    expect(w.join(' ')).toMatch(/numTargetNodes.*deprecated/);
  });

  it('rejects unknown input keys', () => {
    expect(paths(issues(withRegion, 'network:Network', { label: 'n', lable: 'typo' }))).toEqual(['']);
  });

  it('exposes typed helpers that build plain declarations with the right tokens', () => {
    const fw = provb.firewall('fw', { name: 'fw' });
    const web = provb.instance('web', { diskImage: 'ubuntu-jammy', firewallId: fw.out('firewallId') });
    expect(web).toEqual({
      type: 'provb:index/instance:Instance',
      name: 'web',
      inputs: { diskImage: 'ubuntu-jammy', firewallId: { '@converge': 'ref', resource: 'fw', path: 'firewallId' } },
    });
    expect(provb.getInstance({ hostname: 'web' })).toEqual({
      token: 'provb:index/getInstance:getInstance',
      args: { hostname: 'web' },
    });
    expect(JSON.parse(JSON.stringify(web))).toEqual(web);
  });
});
