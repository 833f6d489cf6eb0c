// The committed provider reference (docs/providers/**) is what the generator makes from today's
// schemas and definitions: a schema changed without `npm run docs:providers` fails here, naming
// the pages to regenerate.
import { describe, expect, it } from 'vitest';
import { committedProviderDocs, driftOf, generateProviderDocs, providerEntries } from '../../scripts/docs/generate.js';
import { pageName } from '../../scripts/docs/pages.js';

describe('the provider reference pages', () => {
  it('are current: none missing, none stale, none different from what the schemas generate', async () => {
    const drift = driftOf(await generateProviderDocs(), committedProviderDocs());
    expect(drift).toEqual({ missing: [], stale: [], changed: [] });
  });

  it('exist for every resource and lookup of the three providers', async () => {
    const committed = committedProviderDocs();
    const entries = providerEntries();
    const expected = entries.flatMap((e) => [...e.provider.resources.keys(), ...e.provider.lookups.keys()].map((t) => `${e.letter}/${pageName(t)}`));
    await Promise.all(entries.map((e) => e.provider.close()));
    expect(expected.length).toBeGreaterThan(80);
    expect(expected.filter((p) => !committed.has(p))).toEqual([]);
  });

  it('are found stale when a page differs, is missing or is left over', () => {
    const generated = new Map([['a/x.md', 'new'], ['a/y.md', 'same']]);
    const committed = new Map([['a/x.md', 'old'], ['a/y.md', 'same'], ['a/gone.md', 'left over']]);
    expect(driftOf(generated, committed)).toEqual({ missing: [], stale: ['a/gone.md'], changed: ['a/x.md'] });
    expect(driftOf(new Map([['b/new.md', '']]), new Map()).missing).toEqual(['b/new.md']);
  });
});
