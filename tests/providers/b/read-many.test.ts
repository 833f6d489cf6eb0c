// Every Civo type that refreshes by the listing (readMany) plans exactly as one read per resource
// does, on the same state: objects changed outside (drift), deleted outside (gone), unchanged, and
// another stack's objects of the same types in the same listings (never claimed). One table over the
// types; the request log shows listings instead of one GET per object.
import { planBothWays } from '../../helpers/read-many.js';
import { afterEach, describe, expect, it } from 'vitest';
import { Engine, MemoryStateStore, MemoryLocation, type ResourceDecl } from 'converge';
import { provb } from 'converge/providers/b';
import { startSimulator, type CivoSimulator } from 'converge/providers/b/simulator';
import { fastTransitions } from './harness.js';

let sim: CivoSimulator | undefined;
afterEach(async () => {
  await sim?.close();
  sim = undefined;
});

/** Three of every batched type (prefix `p`), their parents once. */
function stack(p: string): ResourceDecl[] {
  const domain = provb.dnsDomainName(`${p}zone`, { name: `${p}.example.com` });
  const cred = provb.objectStoreCredential(`${p}cred`, { name: `${p}-cred` });
  const kfw = provb.firewall(`${p}kfw`, { name: `${p}-kfw` });
  const k8s = provb.kubernetesCluster(`${p}k8s`, {
    name: `${p}-k8s`,
    firewallId: kfw.out('firewallId'),
    pools: { label: 'main', nodeCount: 1, size: 'g4s.kube.small' },
  });
  const three = <T>(make: (i: number) => T): T[] => [0, 1, 2].map(make);
  return [
    domain,
    cred,
    kfw,
    k8s,
    ...three((i) => provb.firewall(`${p}fw${i}`, { name: `${p}-fw${i}` })),
    ...three((i) => provb.volume(`${p}vol${i}`, { name: `${p}-vol${i}`, sizeGb: 10 })),
    ...three((i) => provb.reservedIp(`${p}ip${i}`, { name: `${p}-ip${i}` })),
    ...three((i) =>
      provb.dnsDomainRecord(`${p}rec${i}`, {
        domainId: domain.out('dnsDomainNameId'),
        type: 'a',
        name: `h${i}`,
        value: `192.0.2.${10 + i}`,
      }),
    ),
    ...three((i) =>
      provb.database(`${p}db${i}`, {
        name: `${p}-db${i}`,
        engine: 'mysql',
        version: '8.0',
        size: 'g3.db.small',
        nodes: 1,
      }),
    ),
    ...three((i) =>
      provb.loadBalancer(`${p}lb${i}`, {
        name: `${p}-lb${i}`,
        backends: [{ ip: `192.168.1.${10 + i}`, sourcePort: 80, targetPort: 8080 }],
      }),
    ),
    ...three((i) =>
      provb.objectStore(`${p}bucket${i}`, { name: `${p}-bucket${i}`, accessKeyId: cred.out('accessKeyId') }),
    ),
    ...three((i) => provb.objectStoreCredential(`${p}key${i}`, { name: `${p}-key${i}` })),
    ...three((i) =>
      provb.kubernetesNodePool(`${p}pool${i}`, {
        clusterId: k8s.out('clusterId'),
        label: `${p}pool${i}`,
        nodeCount: 1,
        size: 'g4s.kube.medium',
      }),
    ),
    ...three((i) =>
      provb.kubernetesCluster(`${p}kc${i}`, {
        name: `${p}-kc${i}`,
        firewallId: kfw.out('firewallId'),
        pools: { label: 'main', nodeCount: 1, size: 'g4s.kube.small' },
      }),
    ),
  ];
}

/** For each type: the store map, the field changed outside, and the value it gets. */
const outside = [
  { type: 'fw', map: 'firewalls', field: 'name' },
  { type: 'vol', map: 'volumes', field: 'size_gb', value: 20 },
  { type: 'ip', map: 'ips', field: 'name' },
  { type: 'rec', map: 'records', field: 'value', value: '192.0.2.99', key: (id: string) => id.split(':')[1]! },
  { type: 'db', map: 'databases', field: 'nodes', value: 3 },
  { type: 'lb', map: 'loadbalancers', field: 'algorithm', value: 'least_connections' },
  { type: 'bucket', map: 'objectStores', field: 'max_size', value: 999 },
  { type: 'key', map: 'credentials', field: 'name' },
  { type: 'kc', map: 'clusters', field: 'name' },
] as const;

describe('provb refresh by the listing, every batched type', () => {
  it('plans exactly as one read per resource does (drift, gone, unchanged, foreign objects), with listings instead of GETs', async () => {
    sim = await startSimulator({ transitions: fastTransitions });
    const provider = provb({ token: sim.token, apiEndpoint: sim.url, region: 'LON1', pollIntervalMs: 1 });
    const location = new MemoryLocation();
    const batched = new Engine({ providers: [provider], state: new MemoryStateStore(location), parallelism: 20 });
    await batched.apply(await batched.plan(stack('a')));
    // Another stack's objects of the same types, in the same listings.
    const other = new Engine({ providers: [provider], state: new MemoryStateStore(), parallelism: 20 });
    await other.apply(await other.plan(stack('z')));

    const state = await batched.state();
    const idOf = (name: string) => state.resources[name]!.id;
    const store = sim.store as unknown as Record<string, Map<string, Record<string, unknown>>>;
    for (const o of outside) {
      const key = 'key' in o ? o.key : (id: string) => id;
      const changed = store[o.map]!.get(key(idOf(`a${o.type}1`)))!;
      changed[o.field] = 'value' in o ? o.value : `${String(changed[o.field])}-renamed`;
      expect(store[o.map]!.delete(key(idOf(`a${o.type}2`)))).toBe(true);
    }
    // A pool lives inside its cluster.
    const [clusterId, poolId] = idOf('apool2').split(':');
    const cluster = sim.store.clusters.get(clusterId!)!;
    cluster.pools = cluster.pools.filter((p: { id: string }) => p.id !== poolId);
    if (cluster.required_pools)
      cluster.required_pools = cluster.required_pools.filter((p: { id: string }) => p.id !== poolId);

    const {
      plan: viaLists,
      listRequests,
      readRequests,
      changed,
    } = await planBothWays(provider, location, stack('a'), sim);
    for (const o of outside) {
      // A changed field the API cannot update in place forces a replacement; either way the drift is seen.
      expect(['drift', 'replace_forced'], `${o.type} changed outside`).toContain(changed[`a${o.type}1`]);
      expect(changed[`a${o.type}2`], `${o.type} deleted outside`).toBe('gone');
      expect(changed[`a${o.type}0`], `${o.type} untouched`).toBeUndefined();
    }
    expect(changed.apool2).toBe('gone');
    expect(changed.apool0).toBeUndefined();
    // Nothing of the other stack is planned, and the other stack's objects are all still there.
    expect(viaLists.steps.filter((s) => s.address.startsWith('z'))).toEqual([]);
    expect(viaLists.steps).toHaveLength(stack('a').length);

    const objects = stack('a').length;
    expect(readRequests).toBeGreaterThanOrEqual(objects - 2);
    // One listing per type (plus its pages), the records' one per domain, and a read of each object
    // the listings lack (the ten deleted outside: a listing is no proof of absence; the volume's read
    // also looks in the other regions): far fewer than one GET per object.
    const gone = Object.values(changed).filter((c) => c === 'gone').length;
    expect(gone).toBe(outside.length + 1);
    expect(listRequests).toBeLessThanOrEqual(20 + gone);
    expect((listRequests - gone) * 2).toBeLessThan(readRequests);
  });
});
