// Every Gcore type that refreshes by the listing (readMany) plans exactly as one read per resource
// does, on the same state: objects changed outside (drift), deleted outside (gone), unchanged, and
// another stack's objects in the same listings (never claimed). One table over the types; the
// harness checks every request (limit/offset paging included) against Gcore's OpenAPI specs.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { planBothWays } from '../../helpers/read-many.js';
import { Engine, MemoryStateStore, MemoryLocation, type ResourceDecl } from 'converge';
import { provc } from 'converge/providers/c';
import { useHarness } from './helpers/harness.js';

const pem = (f: string) => readFileSync(new URL(`./fixtures/${f}`, import.meta.url), 'utf8');

const three = <T>(make: (i: number) => T): T[] => [0, 1, 2].map(make);

/** Three of every batched type (prefix `p`), their parents once. */
function stack(p: string): ResourceDecl[] {
  const origins = provc.cdnOriginGroup(`${p}origins`, {
    name: `${p}-origins`,
    sources: [{ source: `${p}.origin.example.com` }],
  });
  const site = provc.cdnResource(`${p}site`, {
    cname: `${p}.cdn.example.com`,
    originGroup: origins.out('originGroupId'),
  });
  return [
    origins,
    site,
    ...three((i) =>
      provc.cdnOriginGroup(`${p}og${i}`, { name: `${p}-og${i}`, sources: [{ source: `${p}${i}.example.com` }] }),
    ),
    ...three((i) =>
      provc.cdnResource(`${p}res${i}`, {
        cname: `${p}${i}.cdn.example.com`,
        originGroup: origins.out('originGroupId'),
        description: 'd',
      }),
    ),
    ...three((i) =>
      provc.cdnResourceRule(`${p}rule${i}`, {
        resourceId: site.out('resourceId'),
        name: `${p}-rule${i}`,
        rule: `/r${i}/*`,
      }),
    ),
    ...three((i) => provc.cdnRuleTemplate(`${p}tpl${i}`, { name: `${p}-tpl${i}`, rule: `/t${i}/*` })),
    ...three((i) =>
      provc.cdnCertificate(`${p}cert${i}`, {
        name: `${p}-cert${i}`,
        sslCertificate: pem('cdn.crt'),
        sslPrivateKey: pem('cdn.key'),
      }),
    ),
    ...three((i) =>
      provc.cdnTrustedCaCertificate(`${p}ca${i}`, { name: `${p}-ca${i}`, sslCertificate: pem('ca.crt') }),
    ),
    ...three((i) => provc.cloudFloatingIp(`${p}ip${i}`, { tags: { stack: p, n: String(i) } })),
  ];
}

/** For each type: where the simulator keeps it, how its state id names it, and what changes outside. */
const types = [
  {
    type: 'og',
    map: (s: Stores) => s.cdn.originGroups,
    key: Number,
    change: (w: Wire) => {
      w.name = 'renamed';
    },
  },
  {
    type: 'res',
    map: (s: Stores) => s.cdn.resources,
    key: Number,
    change: (w: Wire) => {
      w.description = 'changed outside';
    },
  },
  {
    type: 'rule',
    map: (s: Stores) => s.cdn.rules,
    key: (id: string) => Number(id.split('/')[1]),
    change: (w: Wire) => {
      w.rule = '/changed/*';
    },
  },
  {
    type: 'tpl',
    map: (s: Stores) => s.cdn.ruleTemplates,
    key: Number,
    change: (w: Wire) => {
      w.rule = '/changed/*';
    },
  },
  {
    type: 'cert',
    map: (s: Stores) => s.cdn.certificates,
    key: Number,
    change: (w: Wire) => {
      w.name = 'renamed';
    },
  },
  {
    type: 'ca',
    map: (s: Stores) => s.cdn.caCertificates,
    key: Number,
    change: (w: Wire) => {
      w.name = 'renamed';
    },
  },
  {
    type: 'ip',
    map: (s: Stores) => s.floatingIps,
    key: (id: string) => id.split('/').pop()!,
    change: (w: Wire) => {
      w.port_id = null;
      w.tags = [];
    },
  },
] as const;
type Wire = Record<string, unknown>;
type Stores = { cdn: Record<string, Map<number, Wire>>; floatingIps: Map<string, Wire> };

describe('provc refresh by the listing, every batched type', () => {
  const h = useHarness();

  it('plans exactly as one read per resource does (drift, gone, unchanged, foreign objects), with listings instead of GETs', async () => {
    h().secrets.push(pem('cdn.key').split('\n')[1]!);
    const { sim, provider } = h();
    const location = new MemoryLocation();
    const batched = new Engine({ providers: [provider], state: new MemoryStateStore(location), parallelism: 20 });
    await batched.apply(await batched.plan(stack('a')));
    const other = new Engine({ providers: [provider], state: new MemoryStateStore(), parallelism: 20 });
    await other.apply(await other.plan(stack('z')));

    const state = await batched.state();
    const stores = sim.store as unknown as Stores;
    for (const t of types) {
      const map = t.map(stores) as Map<number | string, Wire>;
      const key = (name: string) => t.key(state.resources[name]!.id) as number | string;
      t.change(map.get(key(`a${t.type}1`))!);
      expect(map.delete(key(`a${t.type}2`)), `${t.type}: the object to delete`).toBe(true);
    }

    const {
      plan: viaLists,
      listRequests,
      readRequests,
      changed,
    } = await planBothWays(provider, location, stack('a'), sim);
    for (const t of types) {
      expect(['drift', 'replace_forced'], `${t.type} changed outside`).toContain(changed[`a${t.type}1`]);
      expect(changed[`a${t.type}2`], `${t.type} deleted outside`).toBe('gone');
      expect(changed[`a${t.type}0`], `${t.type} untouched`).toBeUndefined();
    }
    expect(viaLists.steps.filter((s) => s.address.startsWith('z'))).toEqual([]);
    expect(viaLists.steps).toHaveLength(stack('a').length);
    // One listing per type (the rules' one per CDN resource, the IPs' one per project and region),
    // and a GET for each object deleted outside (a listing is no proof of absence).
    expect(readRequests).toBeGreaterThanOrEqual(stack('a').length);
    expect(listRequests).toBeLessThanOrEqual(types.length + types.length);
  });

  it('lists by pages of 1,000, the pages after the first fetched at once', async () => {
    const { sim, provider } = h();
    const resources = (sim.store as unknown as Stores).cdn.resources;
    await h().engine.apply(await h().engine.plan(stack('p').slice(0, 2)));
    const model = [...resources.values()][0]!;
    for (let i = 0; i < 2500; i++)
      resources.set(10_000 + i, { ...structuredClone(model), id: 10_000 + i, cname: `n${i}.cdn.example.com` });
    sim.clearLog();
    const all = await provider.config.client.allCdnResources(h().ctx());
    expect(all).toHaveLength(resources.size);
    expect(new Set(all.map((w) => w.id)).size).toBe(resources.size);
    expect(sim.requests.map((r) => Number(new URLSearchParams(r.query).get('offset'))).sort((a, b) => a - b)).toEqual([
      0, 1000, 2000,
    ]);
  });
});
