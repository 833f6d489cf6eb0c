// The docs site (npm run docs: TypeDoc plus the provider pages) navigates by provider and then by
// resource and lookup: TypeDoc reads docs/providers/index.md as a project document and follows the
// `children` of each page's frontmatter, so every page must be reachable that way.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { committedProviderDocs, docsDir } from '../../scripts/docs/generate.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const typedoc = JSON.parse(readFileSync(join(root, 'typedoc.json'), 'utf8')) as { projectDocuments: string[]; entryPoints: string[] };

function childrenOf(file: string): string[] {
  const m = /^---\n([\s\S]*?)\n---\n/.exec(readFileSync(file, 'utf8'));
  const children = (m ? (parse(m[1]!) as { children?: Record<string, string> | string[] }).children : undefined) ?? [];
  return Object.values(children).map((c) => resolve(dirname(file), c));
}

function reachable(start: string): Set<string> {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file) || !existsSync(file)) return;
    seen.add(file);
    childrenOf(file).forEach(visit);
  };
  visit(start);
  return seen;
}

describe('the docs site navigation', () => {
  it('starts from the provider reference index as a TypeDoc project document', () => {
    expect(typedoc.projectDocuments).toContain('docs/providers/index.md');
  });

  it('reaches every provider page through the frontmatter children', () => {
    const seen = new Set([...reachable(join(docsDir, 'index.md'))].map((f) => relative(docsDir, f).split('\\').join('/')));
    expect([...committedProviderDocs().keys()].filter((p) => !seen.has(p))).toEqual([]);
  });

  it('names no child page that does not exist', () => {
    const all = [...committedProviderDocs().keys()].map((p) => join(docsDir, p));
    expect(all.flatMap((f) => childrenOf(f)).filter((c) => !existsSync(c))).toEqual([]);
  });

  it('documents every public entry point of package.json', () => {
    const exportsMap = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { exports: Record<string, unknown> }).exports;
    const entries = Object.keys(exportsMap).filter((k) => k !== './package.json');
    const sources = entries.map((k) => (k === '.' ? 'src/index.ts' : `src/${k.slice(2)}/index.ts`));
    expect(sources.filter((s) => !typedoc.entryPoints.includes(s))).toEqual([]);
  });
});
