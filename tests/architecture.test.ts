// Dependency direction (DESIGN.md, STYLE.md principle 1) and the library's manners, checked on the source.
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, dirname, resolve } from 'node:path';
import { deadExports } from '../scripts/api/dead-exports.js';

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
  fleet: (t) => t === 'fleet' || t === 'engine' || t === 'state',
  testing: (t) => t === 'testing' || t === 'engine' || t === 'state',
  index: (t) => t !== 'kit' && !t.startsWith('providers'),
  policies: (t) => t === 'policies' || t === 'engine',
};

/**
 * The rooms of src/engine (a folder, or a file at its top), floor by floor from the ground up. A
 * room imports only from floors below its own (type imports included): two rooms on one floor know
 * nothing of each other. A new room is placed here on purpose, or the test fails. ARCHITECTURE.md
 * names them in the same order.
 */
const engineFloors: readonly (readonly string[])[] = [
  ['abort', 'action', 'values'], // plain values: the unknown and secret markers, paths, durations
  ['diff', 'events'], // structural diff; what the engine tells listeners
  ['provider', 'progress'], // what a provider is and the context of its calls; a listener that draws progress
  ['decl'], // declarations, references and their resolution
  ['issue', 'apply-result', 'violation'], // the facts the errors carry: a validation issue, what apply returns, what a policy found
  ['errors'], // every error converge throws on purpose
  ['graph', 'run'], // the dependency graph, the runtime (scheduler, ledger, retry, recovery)
  ['validate'], // declarations checked before any request
  ['lookup', 'plan'], // data sources; the plan, its steps and how it is chosen, the policies checked on it
  ['engine-options'], // the options an engine and its operations take (policies among them)
  ['refresh', 'apply', 'state-ops'], // reading what exists; carrying out a plan; the state commands
  ['ops'], // the operations on an engine's core: plan, apply, import
  ['engine'], // the Engine class
];

/** Every import of a file (type-only, re-exports and dynamic imports included), as paths relative to src/. */
function allImports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specs = [
    ...text.matchAll(/^\s*(?:import|export)\s[^;]*?from\s+'(\.[^']+)'/gms),
    ...text.matchAll(/\bimport\(\s*'(\.[^']+)'\s*\)/g),
  ];
  return specs.map((m) => relative(root, resolve(dirname(file), m[1]!)).replace(/\.js$/, '.ts'));
}

/** The room of a path under src/engine: its folder, or the file's own name at the top. */
const roomOf = (path: string): string => path.split('/')[1]!.replace(/\.ts$/, '');

describe('architecture', () => {
  const all = files(root);

  it('has no backwards import edge under src/', () => {
    const bad: string[] = [];
    for (const f of all) {
      const from = layer(relative(root, f));
      for (const target of runtimeImports(f)) {
        const to = layer(target);
        const ok = from.startsWith('providers/')
          ? to === from || to === 'kit' || to === 'engine' || to === 'state'
          : (allowed[from]?.(to) ?? true);
        if (!ok) bad.push(`${relative(root, f)} -> ${target}`);
      }
    }
    expect(bad).toEqual([]);
  });

  it('has no upward import inside src/engine (type imports included)', () => {
    const floor = new Map(engineFloors.flatMap((rooms, i) => rooms.map((r) => [r, i] as const)));
    const engine = all.map((f) => relative(root, f)).filter((f) => f.startsWith('engine/'));
    const unplaced = [...new Set(engine.map(roomOf))].filter((r) => !floor.has(r));
    expect(unplaced, 'rooms missing from engineFloors').toEqual([]);
    const bad: string[] = [];
    for (const f of engine) {
      const from = roomOf(f);
      for (const target of allImports(join(root, f))) {
        if (!target.startsWith('engine/')) continue;
        const to = roomOf(target);
        if (to !== from && !(floor.get(to)! < floor.get(from)!)) bad.push(`${f} -> ${target}`);
      }
    }
    expect(bad).toEqual([]);
  });

  it('has no import cycle inside the engine (type imports included)', () => {
    const engine = all.filter((f) => relative(root, f).startsWith('engine/'));
    const edges = new Map<string, string[]>();
    for (const f of engine) {
      const text = readFileSync(f, 'utf8');
      const targets = [...text.matchAll(/^\s*(?:import|export)\s[^;]*?from\s+'(\.[^']+)'/gms)].map((m) =>
        relative(root, resolve(dirname(f), m[1]!)).replace(/\.js$/, '.ts'),
      );
      edges.set(
        relative(root, f),
        targets.filter((t) => t.startsWith('engine/')),
      );
    }
    const cycles: string[] = [];
    const state = new Map<string, 'open' | 'done'>();
    const visit = (n: string, path: string[]) => {
      if (state.get(n) === 'done') return;
      if (state.get(n) === 'open') {
        cycles.push([...path.slice(path.indexOf(n)), n].join(' -> '));
        return;
      }
      state.set(n, 'open');
      for (const t of edges.get(n) ?? []) visit(t, [...path, n]);
      state.set(n, 'done');
    };
    for (const n of edges.keys()) visit(n, []);
    expect(cycles).toEqual([]);
  });

  it('never logs, exits or reads argv in library code (src/cli, the command, is the one place that may)', () => {
    // Doc comments too: an @example that logs shows library code writing to the console.
    const bad = all
      .filter((f) => !relative(root, f).startsWith('cli/'))
      .filter((f) => /\bconsole\.|process\.exit|process\.argv/.test(readFileSync(f, 'utf8')))
      .map((f) => relative(root, f));
    expect(bad).toEqual([]);
  });

  it('fills vendor URL paths one way: from a template, by name (kit fillPath), never by splicing values in', () => {
    // A path literal of a vendor API (LXD /1.0, Civo /v2, Gcore /cdn, /cloud, /iam) with a ${...} in it
    // is a path built by hand; the simulators are left out (they route, they do not build requests).
    const spliced = /`\/(?:1\.0|v2|cdn|cloud|iam)\b[^`]*\$\{/;
    const bad = all
      .filter((f) => relative(root, f).startsWith('providers/') && !relative(root, f).includes('/simulator/'))
      .flatMap((f) =>
        readFileSync(f, 'utf8')
          .split('\n')
          .map((line, i) => ({ line, at: `${relative(root, f)}:${i + 1}` }))
          .filter(({ line }) => spliced.test(line) || /encodeURIComponent\(/.test(line))
          .map(({ at, line }) => `${at} ${line.trim()}`),
      );
    // The one escape kept: the target query of an auth entity URL (a query value, not a path).
    expect(bad.filter((b) => !b.includes('target=${encodeURIComponent(args.location)}'))).toEqual([]);
  });

  it('opens each folder index with a comment saying what it is', () => {
    const indexes = all.filter((f) => f.endsWith('/index.ts'));
    expect(indexes.length).toBeGreaterThan(0);
    for (const f of indexes) expect(readFileSync(f, 'utf8').startsWith('//'), relative(root, f)).toBe(true);
  });
  it('exports nothing from src/engine, src/state, src/kit or src/cli that no other file imports', () => {
    // Exports kept on purpose, each with its reason.
    const kept = new Set([
      'src/cli/main.ts main', // bin/converge.mjs imports it (not TypeScript, so not in the program)
      // src/kit is the providers' toolbox: the option and answer types of its functions are its interface,
      'src/kit/budget.ts RequestBudgetOptions',
      'src/kit/http.ts HttpClientOptions',
      'src/kit/http.ts HttpRequest',
      'src/kit/http.ts HttpResponse',
      'src/kit/poll.ts PollOptions',
      'src/kit/sim/router.ts RouterOptions',
      'src/kit/wire.ts PathParams',
      'src/kit/sim/clock.ts Clock',
      'src/kit/sim/clock.ts ManualClock',
      // and these helpers were moved there for the three providers to share (issue 18 item 6).
      'src/kit/gone.ts isNotFound',
      'src/kit/gone.ts orNull',
      'src/kit/wire.ts defined',
      'src/kit/wire.ts fillPath',
      'src/kit/sim/clock.ts systemClock',
      'src/kit/sim/clock.ts manualClock',
    ]);
    const dead = deadExports()
      .map((d) => `${d.file} ${d.name}`)
      .filter((d) => !kept.has(d));
    expect(dead).toEqual([]);
  }, 120_000); // a TypeScript program over src/: seconds alone, more beside other forks
});
