// Builds the provider reference pages (docs/providers/**) from the three shipped providers, and
// compares them with the committed ones. Used by scripts/gen-provider-docs.ts and by
// tests/docs/reference.test.ts, which fails when a schema changed without regenerating.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { prova } from '../../src/providers/a/index.js';
import { provb } from '../../src/providers/b/index.js';
import { provc } from '../../src/providers/c/index.js';
import { providerPages, type ProviderEntry } from './pages.js';

export const docsDir = fileURLToPath(new URL('../../docs/providers', import.meta.url));

/** The shipped providers, built with placeholder credentials: only their definitions are read. */
export function providerEntries(): ProviderEntry[] {
  return [
    { letter: 'a', title: 'LXD (the LXD REST API)', provider: prova({}) },
    { letter: 'b', title: 'Civo (the Civo API v2)', provider: provb({ token: 'docs', region: 'LON1' }) },
    { letter: 'c', title: 'Gcore (the Gcore CDN and Cloud API)', provider: provc({ apiKey: 'docs' }) },
  ];
}

/** Every page, keyed by its path relative to docs/providers/. */
export async function generateProviderDocs(): Promise<Map<string, string>> {
  const entries = providerEntries();
  try {
    return providerPages(entries);
  } finally {
    await Promise.all(entries.map((e) => e.provider.close()));
  }
}

/** The committed pages, keyed the same way. */
export function committedProviderDocs(): Map<string, string> {
  const out = new Map<string, string>();
  if (!existsSync(docsDir)) return out;
  const walk = (dir: string) => {
    for (const d of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, d.name);
      if (d.isDirectory()) walk(p);
      else if (d.name.endsWith('.md')) out.set(relative(docsDir, p).split('\\').join('/'), readFileSync(p, 'utf8'));
    }
  };
  walk(docsDir);
  return out;
}

export type DocsDrift = { readonly missing: string[]; readonly stale: string[]; readonly changed: string[] };

/** What differs between generated and committed pages; all empty when the docs are current. */
export function driftOf(generated: ReadonlyMap<string, string>, committed: ReadonlyMap<string, string>): DocsDrift {
  return {
    missing: [...generated.keys()].filter((k) => !committed.has(k)).sort(),
    stale: [...committed.keys()].filter((k) => !generated.has(k)).sort(),
    changed: [...generated.keys()].filter((k) => committed.has(k) && committed.get(k) !== generated.get(k)).sort(),
  };
}
