// Dependency direction (DESIGN.md, STYLE.md principle 1) and the library's manners, checked on the source.
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, dirname, resolve } from 'node:path';

const root = resolve(__dirname, '..', 'src');

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? files(p) : p.endsWith('.ts') ? [p] : [];
  });
}

/** Runtime (non-type) imports of a file, as paths relative to src/. */
function runtimeImports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const out: string[] = [];
  for (const m of text.matchAll(/^\s*(import|export)\s+(?!type\b)[^;]*?from\s+'(\.[^']+)'/gms)) {
    out.push(relative(root, resolve(dirname(file), m[2]!)).replace(/\.js$/, '.ts'));
  }
  return out;
}

const layer = (path: string): string => {
  const [top, second] = path.split('/');
  if (top === 'providers') return `providers/${second}`;
  return top!.replace(/\.ts$/, '');
};

const allowed: Record<string, (target: string) => boolean> = {
  state: (t) => t === 'state',
  engine: (t) => t === 'engine' || t === 'state',
  kit: (t) => t === 'kit' || t === 'engine' || t === 'state',
  index: (t) => t !== 'kit' && !t.startsWith('providers'),
};

describe('architecture', () => {
  const all = files(root);

  it('has no backwards import edge under src/', () => {
    const bad: string[] = [];
    for (const f of all) {
      const from = layer(relative(root, f));
      for (const target of runtimeImports(f)) {
        const to = layer(target);
        const ok = from.startsWith('providers/') ? to === from || to === 'kit' || to === 'engine' || to === 'state' : allowed[from]?.(to) ?? true;
        if (!ok) bad.push(`${relative(root, f)} -> ${target}`);
      }
    }
    expect(bad).toEqual([]);
  });

  it('never logs, exits or reads argv in library code', () => {
    const bad = all.filter((f) => /\bconsole\.|process\.exit|process\.argv/.test(readFileSync(f, 'utf8'))).map((f) => relative(root, f));
    expect(bad).toEqual([]);
  });

  it('opens each folder index with a comment saying what it is', () => {
    const indexes = all.filter((f) => f.endsWith('/index.ts'));
    expect(indexes.length).toBeGreaterThan(0);
    for (const f of indexes) expect(readFileSync(f, 'utf8').startsWith('//'), relative(root, f)).toBe(true);
  });
});
