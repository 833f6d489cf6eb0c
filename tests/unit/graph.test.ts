// src/engine/graph/graph.ts: edges from refs and dependsOn, topological order, closure.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { buildGraph, closure, topoOrder } from '../../src/engine/graph/graph.js';
import { ref } from '../../src/engine/decl/ref.js';
import type { ResourceDecl } from '../../src/engine/decl/resource-decl.js';
import { ValidationError } from '../../src/engine/errors.js';

const decl = (name: string, inputs: Record<string, unknown> = {}, dependsOn?: string[]): ResourceDecl => ({
  type: 't:index/x:X',
  name,
  inputs,
  ...(dependsOn ? { options: { dependsOn } } : {}),
});

/** A random DAG: each resource may depend on any earlier one, by ref or by dependsOn. */
const dag = fc
  .integer({ min: 0, max: 30 })
  .chain((n) =>
    fc
      .tuple(
        ...Array.from({ length: n }, (_, i) =>
          fc.tuple(fc.subarray(Array.from({ length: i }, (_, j) => j)), fc.boolean()),
        ),
      )
      .map((rows) =>
        rows.map(([deps, byRef], i) =>
          decl(
            `r${i}`,
            byRef ? { peers: deps.map((d) => ref(`r${d}`, 'id')) } : {},
            byRef ? undefined : deps.map((d) => `r${d}`),
          ),
        ),
      ),
  );

describe('buildGraph', () => {
  it('adds an edge for a ref anywhere in the inputs', () => {
    const g = buildGraph([decl('net'), decl('web', { nics: [{ network: ref('net', 'id') }] })]);
    expect(g.deps.get('web')).toEqual(['net']);
    expect(g.dependents.get('net')).toEqual(['web']);
  });

  it('adds an edge for each name in dependsOn', () => {
    expect(buildGraph([decl('a'), decl('b', {}, ['a'])]).deps.get('b')).toEqual(['a']);
  });

  it('deduplicates a resource named by a ref and by dependsOn', () => {
    expect(buildGraph([decl('a'), decl('b', { x: ref('a', 'id'), y: ref('a', 'ip') }, ['a'])]).deps.get('b')).toEqual([
      'a',
    ]);
  });

  it('ignores refs to undeclared names and to the resource itself', () => {
    const g = buildGraph([decl('a', { self: ref('a', 'id'), other: ref('ghost', 'id') }, ['ghost', 'a'])]);
    expect(g.deps.get('a')).toEqual([]);
  });

  it('gives an empty graph for no declarations', () => {
    const g = buildGraph([]);
    expect(g.deps.size).toBe(0);
    expect(topoOrder(g)).toEqual([]);
  });

  it('treats prototype-like and unicode names as plain names', () => {
    const g = buildGraph([
      decl('__proto__'),
      decl('constructor', { x: ref('__proto__', 'id') }),
      decl('日本', {}, ['constructor']),
    ]);
    expect(topoOrder(g)).toEqual(['__proto__', 'constructor', '日本']);
  });
});

describe('topoOrder', () => {
  it('puts every resource after everything it depends on (any DAG)', () => {
    fc.assert(
      fc.property(dag, (decls) => {
        const g = buildGraph(decls);
        const order = topoOrder(g);
        const at = new Map(order.map((n, i) => [n, i]));
        expect(order).toHaveLength(decls.length);
        for (const [n, ds] of g.deps) for (const d of ds) expect(at.get(d)!).toBeLessThan(at.get(n)!);
      }),
    );
  });

  it('orders a long chain', () => {
    const decls = Array.from({ length: 10_000 }, (_, i) => decl(`r${i}`, {}, i ? [`r${i - 1}`] : undefined));
    const order = topoOrder(buildGraph(decls.slice().reverse()));
    expect(order[0]).toBe('r0');
    expect(order.at(-1)).toBe('r9999');
  });

  it('refuses a cycle with a ValidationError naming it', () => {
    const g = buildGraph([decl('a', {}, ['c']), decl('b', {}, ['a']), decl('c', {}, ['b'])]);
    let error: unknown;
    try {
      topoOrder(g);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).code).toBe('CONVERGE_VALIDATION');
    const issue = (error as ValidationError).issues[0]!;
    expect(issue.code).toBe('dependency_cycle');
    expect(new Set(issue.cycle)).toEqual(new Set(['a', 'b', 'c']));
  });
});

describe('closure', () => {
  it('holds the names and everything they depend on, transitively', () => {
    const g = buildGraph([decl('a'), decl('b', {}, ['a']), decl('c', {}, ['b']), decl('d')]);
    expect(closure(g, ['c'])).toEqual(new Set(['a', 'b', 'c']));
  });

  it('is empty for no names', () => {
    expect(closure(buildGraph([decl('a')]), [])).toEqual(new Set());
  });

  it('is closed: every dependency of a member is a member (any DAG)', () => {
    fc.assert(
      fc.property(dag, fc.nat(), (decls, pick) => {
        if (!decls.length) return;
        const g = buildGraph(decls);
        const c = closure(g, [decls[pick % decls.length]!.name]);
        for (const n of c) for (const d of g.deps.get(n)!) expect(c.has(d)).toBe(true);
      }),
    );
  });
});
