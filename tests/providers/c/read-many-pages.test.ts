// A listing read page by page is not proof that an object is gone. Gcore's CDN lists (resources,
// origin groups, certificates, CA certificates, a resource's rules, rule templates) are read by
// `limit`/`offset` pages of 1,000 and the floating IPs by the Cloud API's offset pages (default 1,000),
// the pages after the first fetched once the first has answered; neither API offers an order or a
// cursor to page by (the CDN lists' only parameters are filters and limit/offset). When an object is
// deleted between the page-1 and page-2 requests, the rest shift down by one and the object that
// opened page 2 falls into page 1, already read: the listing leaves out an object that exists. The
// refresh reads each missing object alone before it plans it as gone: the existing one stays (no
// create, which the API would refuse with "cname already exists"), the deleted one is gone.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { planBothWays } from '../../helpers/read-many.js';
import { Engine, MemoryStateStore, MemoryLocation, type ResourceDecl } from 'converge';
import { provc } from 'converge/providers/c';
import { SIM_PROJECT_ID, SIM_REGION_ID } from 'converge/providers/c/simulator';
import { useHarness } from './helpers/harness.js';

const pem = (f: string) => readFileSync(new URL(`./fixtures/${f}`, import.meta.url), 'utf8');

/** A page of every list read here: the CDN client's `limit`, the Cloud API's default. */
const PAGE = 1000;

const three = <T>(make: (i: number) => T): T[] => [0, 1, 2].map(make);

/** Three objects of every paged listing, and their parents. */
function stack(): ResourceDecl[] {
  const origins = provc.cdnOriginGroup('origins', { name: 'origins', sources: [{ source: 'origin.example.com' }] });
  const site = provc.cdnResource('site', { cname: 'site.cdn.example.com', originGroup: origins.out('originGroupId') });
  return [
    origins,
    site,
    ...three((i) => provc.cdnOriginGroup(`og${i}`, { name: `og${i}`, sources: [{ source: `${i}.example.com` }] })),
    ...three((i) =>
      provc.cdnResource(`res${i}`, { cname: `${i}.cdn.example.com`, originGroup: origins.out('originGroupId') }),
    ),
    ...three((i) =>
      provc.cdnResourceRule(`rule${i}`, { resourceId: site.out('resourceId'), name: `rule${i}`, rule: `/r${i}/*` }),
    ),
    ...three((i) => provc.cdnRuleTemplate(`tpl${i}`, { name: `tpl${i}`, rule: `/t${i}/*` })),
    ...three((i) =>
      provc.cdnCertificate(`cert${i}`, {
        name: `cert${i}`,
        sslCertificate: pem('cdn.crt'),
        sslPrivateKey: pem('cdn.key'),
      }),
    ),
    ...three((i) => provc.cdnTrustedCaCertificate(`ca${i}`, { name: `ca${i}`, sslCertificate: pem('ca.crt') })),
    ...three((i) => provc.cloudFloatingIp(`ip${i}`, { tags: { n: String(i) } })),
  ];
}

type Wire = Record<string, unknown>;
type Key = number | string;
type Stores = { cdn: Record<string, Map<number, Wire>>; floatingIps: Map<string, Wire> };

/** Each paged listing: its path (the rules' under the site), the simulator's map, how a state id keys it. */
const listings = [
  { type: 'og', path: '/cdn/origin_groups', map: (s: Stores) => s.cdn.originGroups, key: Number },
  { type: 'res', path: '/cdn/resources', map: (s: Stores) => s.cdn.resources, key: Number },
  {
    type: 'rule',
    path: '/cdn/resources/{site}/rules',
    map: (s: Stores) => s.cdn.rules,
    key: (id: string) => Number(id.split('/')[1]),
  },
  { type: 'tpl', path: '/cdn/resources/rule_templates', map: (s: Stores) => s.cdn.ruleTemplates, key: Number },
  { type: 'cert', path: '/cdn/sslData', map: (s: Stores) => s.cdn.certificates, key: Number },
  { type: 'ca', path: '/cdn/sslCertificates', map: (s: Stores) => s.cdn.caCertificates, key: Number },
  {
    type: 'ip',
    path: '/cloud/v1/floatingips/{scope}',
    map: (s: Stores) => s.floatingIps,
    key: (id: string) => id.split('/').pop()!,
  },
] as const;

/** Another stack's object: a number id for the CDN, a UUID for a floating IP. */
const fillerKey = (n: number, like: Key): Key =>
  typeof like === 'number' ? 900_000 + n : `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

describe('provc: an object deleted between two page requests', () => {
  const h = useHarness();

  it('does not make the object that shifted across the page boundary look gone, in every paged listing', async () => {
    h().secrets.push(pem('cdn.key').split('\n')[1]!);
    const { sim, provider } = h();
    const location = new MemoryLocation();
    // two reads at once: each type's three objects are more than that, so they are read by the listing
    // (a type with no more objects than reads run at once is read one by one)
    const engine = new Engine({ providers: [provider], state: new MemoryStateStore(location), parallelism: 2 });
    await engine.apply(await engine.plan(stack()));
    const state = await engine.state();
    const stores = sim.store as unknown as Stores;
    const pathOf = (template: string) =>
      template.replace('{site}', state.resources.site!.id).replace('{scope}', `${SIM_PROJECT_ID}/${SIM_REGION_ID}`);

    // Each listing in the order the simulator lists it: other objects up to the end of page 1 (the
    // first of them another stack's), then the stack's object that opens page 2, the one to delete,
    // the last one.
    const deleteOnPage2 = new Map<string, { map: Map<Key, Wire>; keys: readonly Key[] }>();
    for (const l of listings) {
      const map = l.map(stores) as Map<Key, Wire>;
      const key = (i: number) => l.key(state.resources[`${l.type}${i}`]!.id) as Key;
      const ours = [key(0), key(2), key(1)].map((k): [Key, Wire] => [k, map.get(k)!]);
      const others = [...map].filter(([k]) => !ours.some(([o]) => o === k));
      const fillers = Array.from({ length: PAGE - others.length }, (_, i): [Key, Wire] => {
        const k = fillerKey(i, key(0));
        return [k, { ...structuredClone(ours[0]![1]), id: k, name: `filler-${i}` }];
      });
      map.clear();
      for (const [k, v] of [...fillers, ...others, ...ours]) map.set(k, v);
      // Between the pages: another stack's object on page 1 goes (the rest shift down by one), and
      // so does the stack's object on page 2.
      deleteOnPage2.set(pathOf(l.path), { map, keys: [fillers[0]![0], key(2)] });
    }
    // Nothing deleted: the plan reads the listings' pages and no object alone (the cost stays ~0.01
    // requests a resource).
    const listed = [...deleteOnPage2.keys()];
    const aloneOf = (requests: readonly { method: string; path: string }[]) =>
      requests.filter(
        (r) => r.method === 'GET' && !listed.includes(r.path) && listed.some((l) => r.path.startsWith(`${l}/`)),
      );
    sim.clearLog();
    expect((await engine.plan(stack())).steps.filter((s) => s.action !== 'noop')).toEqual([]);
    expect(aloneOf(sim.requests)).toEqual([]);
    expect(sim.requests.filter((r) => listed.includes(r.path))).toHaveLength(listed.length * 2);

    // The deletions happen once per listing, as page 2 is asked for (after page 1 has answered).
    sim.before((req) => {
      const targets = req.method === 'GET' ? deleteOnPage2.get(req.path) : undefined;
      if (!targets || req.query.get('offset') !== String(PAGE)) return;
      for (const k of targets.keys) expect(targets.map.delete(k)).toBe(true);
      deleteOnPage2.delete(req.path);
    });

    const { changed, listRequests } = await planBothWays(provider, location, stack(), sim);
    expect([...deleteOnPage2.keys()], 'every listing was read in two pages').toEqual([]);
    // The stack's deleted objects are gone, nothing else: the objects that shifted are still there.
    expect(changed).toEqual(Object.fromEntries(listings.map((l) => [`${l.type}2`, 'gone'])));
    // Two pages per listing and the missing objects read alone: the one that shifted and the one
    // deleted, per listing.
    expect(listRequests).toBeLessThanOrEqual(listings.length * 2 + listings.length * 2);
  });
});
