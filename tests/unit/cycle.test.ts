// src/engine/graph/cycle.ts: names one dependency cycle, or none.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { findCycle } from '../../src/engine/graph/cycle.js';

const deps = (o: Record<string, string[]>) => new Map(Object.entries(o));

/** True when `cycle` is a closed walk along edges of `g`. */
function isCycleOf(cycle: string[], g: Map<string, string[]>): boolean {
  if (cycle.length < 2 || cycle[0] !== cycle.at(-1)) return false;
  for (let i = 0; i + 1 < cycle.length; i++) if (!(g.get(cycle[i]!) ?? []).includes(cycle[i + 1]!)) return false;
  return true;
}

describe('findCycle', () => {
  it('answers undefined for a graph without cycles', () => {
    expect(findCycle(deps({ a: [], b: ['a'], c: ['a', 'b'] }))).toBeUndefined();
  });

  it('answers undefined for the empty graph', () => {
    expect(findCycle(new Map())).toBeUndefined();
  });

  it('names a cycle with its first name repeated at the end', () => {
    const g = deps({ a: ['b'], b: ['c'], c: ['a'] });
    const cycle = findCycle(g)!;
    expect(cycle).toHaveLength(4);
    expect(isCycleOf(cycle, g)).toBe(true);
  });

  it('names a self-loop', () => {
    expect(findCycle(deps({ a: ['a'] }))).toEqual(['a', 'a']);
  });

  it('names only the cycle, not the path that led to it', () => {
    const g = deps({ entry: ['x'], x: ['y'], y: ['x'] });
    expect(findCycle(g)).toEqual(['x', 'y', 'x']);
  });

  it('follows edges to names with no entry of their own', () => {
    expect(findCycle(deps({ a: ['missing'] }))).toBeUndefined();
  });

  it('walks a long chain without overflowing the stack', () => {
    const g = new Map(Array.from({ length: 100_000 }, (_, i) => [`n${i}`, i ? [`n${i - 1}`] : ['n99999']]));
    expect(isCycleOf(findCycle(g)!, g)).toBe(true);
  });

  it('finds a cycle exactly when a topological order does not exist (any small graph)', () => {
    const graph = fc.dictionary(fc.constantFrom('a', 'b', 'c', 'd', 'e'), fc.subarray(['a', 'b', 'c', 'd', 'e']));
    fc.assert(
      fc.property(graph, (o) => {
        const g = deps(o);
        const cycle = findCycle(g);
        if (cycle) return isCycleOf(cycle, g);
        // No cycle: Kahn's algorithm orders every name.
        const indeg = new Map([...g.keys()].map((k) => [k, (g.get(k) ?? []).filter((d) => g.has(d)).length]));
        const queue = [...indeg].filter(([, k]) => k === 0).map(([n]) => n);
        for (let i = 0; i < queue.length; i++)
          for (const [m, ds] of g)
            if (ds.includes(queue[i]!) && indeg.set(m, indeg.get(m)! - 1).get(m) === 0) queue.push(m);
        return queue.length === g.size;
      }),
    );
  });
});
