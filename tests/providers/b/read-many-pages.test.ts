// A listing read page by page is not proof that an object is gone. Civo's paged listings (instances,
// Kubernetes clusters, databases, reserved IPs, object stores and their credentials) are read by
// `page`/`per_page`, the pages after the first fetched once the first has answered; the API offers no
// order or cursor to page by. When one object is deleted between the page-1 and page-2 requests, the
// rest shift down by one and the object that opened page 2 falls into page 1, already read: the
// listing leaves out an object that exists. The refresh must read each missing object alone before it
// plans it as gone: the existing one stays (no create planned), the deleted one is gone.
import { afterEach, describe, expect, it } from 'vitest';
import { planBothWays } from '../../helpers/read-many.js';
import { Engine, MemoryStateStore, MemoryLocation, type ResourceDecl } from 'converge';
import { provb } from 'converge/providers/b';
import { startSimulator, type CivoSimulator } from 'converge/providers/b/simulator';
import { fastTransitions } from './harness.js';

let sim: CivoSimulator | undefined;
afterEach(async () => {
  await sim?.close();
  sim = undefined;
});

/** The client's page size (`per_page`); checked against the requests below. */
const PER_PAGE = 100;

const three = <T>(make: (i: number) => T): T[] => [0, 1, 2].map(make);

/** Three of every type read from a paged listing (prefix `a`), and what they need. */
function stack(): ResourceDecl[] {
  const cred = provb.objectStoreCredential('cred', { name: 'cred' });
  const fw = provb.firewall('fw', { name: 'fw' });
  return [
    cred,
    fw,
    ...three((i) => provb.instance(`vm${i}`, { hostname: `vm${i}`, diskImage: 'ubuntu-jammy', firewallId: '' })),
    ...three((i) =>
      provb.kubernetesCluster(`kc${i}`, {
        name: `kc${i}`,
        firewallId: fw.out('firewallId'),
        pools: { label: 'main', nodeCount: 1, size: 'g4s.kube.small' },
      }),
    ),
    ...three((i) =>
      provb.database(`db${i}`, { name: `db${i}`, engine: 'mysql', version: '8.0', size: 'g3.db.small', nodes: 1 }),
    ),
    ...three((i) => provb.reservedIp(`ip${i}`, { name: `ip${i}` })),
    ...three((i) => provb.objectStore(`bucket${i}`, { name: `bucket${i}`, accessKeyId: cred.out('accessKeyId') })),
    ...three((i) => provb.objectStoreCredential(`key${i}`, { name: `key${i}` })),
  ];
}

/** Each paged listing: its path, the simulator's map, and the stack's three objects in it. */
const listings = [
  { path: '/v2/instances', map: 'instances', type: 'vm' },
  { path: '/v2/kubernetes/clusters', map: 'clusters', type: 'kc' },
  { path: '/v2/databases', map: 'databases', type: 'db' },
  { path: '/v2/vpc/ips', map: 'ips', type: 'ip' },
  { path: '/v2/objectstores', map: 'objectStores', type: 'bucket' },
  { path: '/v2/objectstore/credentials', map: 'credentials', type: 'key' },
] as const;
type Wire = Record<string, unknown>;

describe('provb: an object deleted between two page requests', () => {
  it('does not make the object that shifted across the page boundary look gone, in every paged listing', async () => {
    sim = await startSimulator({ transitions: fastTransitions });
    const provider = provb({ token: sim.token, apiEndpoint: sim.url, region: 'LON1', pollIntervalMs: 1 });
    const location = new MemoryLocation();
    // two reads at once: each type's three objects are more than that, so they are read by the listing
    // (a type with no more objects than reads run at once is read one by one)
    const engine = new Engine({ providers: [provider], state: new MemoryStateStore(location), parallelism: 2 });
    await engine.apply(await engine.plan(stack()));
    const state = await engine.state();
    const store = sim.store as unknown as Record<string, Map<string, Wire>>;

    // Each listing in the order the simulator lists it: another stack's object first, more up to
    // the end of page 1, then the stack's object that opens page 2, the one to delete, the last one.
    const deleteOnPage2 = new Map<string, readonly string[]>();
    for (const l of listings) {
      const map = store[l.map]!;
      const id = (i: number) => state.resources[`${l.type}${i}`]!.id;
      const ours = [id(0), id(2), id(1)];
      const others = [...map].filter(([k]) => !ours.includes(k));
      const fillers = Array.from({ length: PER_PAGE - others.length }, (_, i): [string, Wire] => [
        `filler-${l.type}-${i}`,
        { ...structuredClone(map.get(id(0))!), id: `filler-${l.type}-${i}`, name: `filler-${i}` },
      ]);
      const order: [string, Wire][] = [...fillers, ...others, ...ours.map((k): [string, Wire] => [k, map.get(k)!])];
      map.clear();
      for (const [k, v] of order) map.set(k, v);
      expect([...map.keys()].indexOf(id(0)), `${l.type}: first of page 2`).toBe(PER_PAGE);
      // Between the pages: someone else's object on page 1 goes (the rest shift down by one), and
      // so does the stack's object on page 2.
      deleteOnPage2.set(l.path, [fillers[0]![0], id(2)]);
    }
    // Nothing deleted: the plan reads the listings' pages and no object alone (the cost stays ~0.01
    // requests a resource).
    const listed: readonly string[] = listings.map((l) => l.path);
    const aloneOf = (requests: readonly { method: string; path: string }[]) =>
      requests.filter(
        (r) => r.method === 'GET' && !listed.includes(r.path) && listed.some((l) => r.path.startsWith(`${l}/`)),
      );
    sim.clearLog();
    expect((await engine.plan(stack())).steps.filter((s) => s.action !== 'noop')).toEqual([]);
    expect(aloneOf(sim.requests)).toEqual([]);
    const pages = sim.requests.filter((r) => listed.includes(r.path));
    expect(pages).toHaveLength(listed.length * 2);
    for (const r of pages) expect(new URLSearchParams(r.query).get('per_page')).toBe(String(PER_PAGE));

    // The deletions happen once per listing, as page 2 is asked for (after page 1 has answered).
    sim.before((req) => {
      const targets = req.method === 'GET' ? deleteOnPage2.get(req.path) : undefined;
      if (!targets || req.query.get('page') !== '2') return;
      const map = store[listings.find((l) => l.path === req.path)!.map]!;
      for (const t of targets) expect(map.delete(t)).toBe(true);
      deleteOnPage2.delete(req.path);
    });

    const { changed, listRequests } = await planBothWays(provider, location, stack(), sim);
    expect([...deleteOnPage2.keys()], 'every listing was read in two pages').toEqual([]);
    // The stack's deleted objects are gone, nothing else: the objects that shifted are still there.
    expect(changed).toEqual(Object.fromEntries(listings.map((l) => [`${l.type}2`, 'gone'])));
    // Two pages per listing, the one firewall's read, and the missing objects read alone: the one
    // that shifted and the one deleted, per listing.
    expect(listRequests).toBeLessThanOrEqual(listings.length * 2 + 1 + listings.length * 2);
  });
});
