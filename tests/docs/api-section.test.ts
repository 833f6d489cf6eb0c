// The README's API section and src/index.ts, one to one (STYLE.md principle 6): every name the
// package exports is named in the section, and every name the section's export lists give as an
// export is one. A new export without a line in the README fails here, naming it.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const root = new URL('../../', import.meta.url);
const index = readFileSync(new URL('src/index.ts', root), 'utf8');
const readme = readFileSync(new URL('README.md', root), 'utf8');

/** Every name src/index.ts exports (values and types), from its explicit export lists. */
function exportedNames(source: string): string[] {
  const names = new Set<string>();
  for (const m of source.matchAll(/export\s+(?:type\s+)?\{([^}]*)\}/g))
    for (const part of m[1]!.split(',')) {
      const name = part
        .trim()
        .replace(/^type\s+/, '')
        .split(/\s+as\s+/)
        .pop()!
        .trim();
      if (name) names.add(name);
    }
  return [...names].sort();
}

/** The README's "## The API" section, up to the next second-level heading. */
function apiSection(text: string): string {
  const start = text.indexOf('\n## The API');
  expect(start, 'README has a "## The API" section').toBeGreaterThan(-1);
  const end = text.indexOf('\n## ', start + 1);
  return text.slice(start, end === -1 ? undefined : end);
}

describe("the README's API section", () => {
  const names = exportedNames(index);
  const section = apiSection(readme);

  it('finds the exports of src/index.ts', () => {
    expect(names.length).toBeGreaterThan(80);
    expect(names).toContain('Engine');
  });

  it('names every export of src/index.ts', () => {
    const mentioned = (n: string) => new RegExp('`' + n + '\\b').test(section);
    expect(names.filter((n) => !mentioned(n))).toEqual([]);
  });

  it('lists as exports only names src/index.ts exports', () => {
    // The section's lists say "Everything below is exported"; its "Types:" line names types only.
    const items = section
      .split(/\n- /)
      .map((item) => item.split('\n\n')[0]!)
      .filter((item) => /^(?:Types|Values|Errors|Stores):/.test(item));
    expect(items).toHaveLength(4);
    const listed = items.flatMap((item) =>
      [...item.matchAll(/`([A-Za-z]\w*)`/g)].map((x) => x[1]!).filter((n) => /^[A-Z]|^(is|define|with|standalone|ref|unknown|secret|sensitive|cannot|progress|resource|lookup|format)/.test(n)),
    );
    expect(listed.filter((n) => !names.includes(n))).toEqual([]);
  });
});
