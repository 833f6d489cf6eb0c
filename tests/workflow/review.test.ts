// Reviews and operations: renderMarkdown (summary, drift, one <details> per changed resource),
// toMermaid (the graph, actions as node styles), typed outputs, plain "Still creating..." progress,
// and a graceful stop that lets steps in flight finish.
import { describe, it, expect } from 'vitest';
import { progressReporter, type ApplyResult } from 'converge';
import { provb } from 'converge/providers/b';
import { setup, thing } from '../helpers/builders.js';

const ref = (r: string) => ({ '@converge': 'ref', resource: r, path: 'address' });

describe('renderMarkdown', () => {
  it('has the summary line, a drift section and one collapsible block per changed resource', async () => {
    const { engine, cloud } = setup();
    await engine.apply(await engine.plan([thing('web'), thing('keep')]));
    [...cloud.objects.values()][0]!.inputs.size = 'large';
    const md = (await engine.plan([thing('web'), thing('keep'), thing('db')])).renderMarkdown();
    expect(md).toContain('**Plan: 1 to add, 1 to change, 0 to replace, 0 to destroy.**');
    expect(md).toContain('#### Objects changed outside converge');
    expect(md.match(/<details>/g)).toHaveLength(3); // web drift, web update, db create
    expect(md).not.toContain('<b>keep</b>');
    expect(md.indexOf('Objects changed outside')).toBeLessThan(md.indexOf('#### Actions'));
  });

  it('says there are no changes when there are none', async () => {
    const { engine } = setup();
    expect((await engine.plan([])).renderMarkdown()).toContain('**No changes.**');
  });
});

describe('toMermaid', () => {
  it('draws one node per step styled by its action, and an edge per dependency', async () => {
    const { engine } = setup();
    await engine.apply(await engine.plan([thing('old')]));
    const m = (await engine.plan([thing('net'), thing('web', { peer: ref('net') })])).toMermaid();
    expect(m.split('\n')[0]).toBe('flowchart TD');
    expect(m).toMatch(/s\d+\["\+ net<br\/>.*"\]:::create/);
    expect(m).toMatch(/s\d+\["- old<br\/>.*"\]:::delete/);
    const net = /(s\d+)\["\+ net/.exec(m)![1];
    const web = /(s\d+)\["\+ web/.exec(m)![1];
    expect(m).toContain(`${net} --> ${web}`);
    expect(m).toContain('classDef create ');
  });
});

describe('typed outputs', () => {
  it('result.output(decl) gives the resource outputs and id, typed from the helper', async () => {
    const { engine } = setup();
    const web = thing('web');
    const result = await engine.apply(await engine.plan([web]));
    expect(result.output('web').address).toBe('web.example');
    expect(result.output(web).id).toMatch(/^thing-/);
    expect(result.output('web').token).toEqual({ '@converge': 'sensitive' });
    expect(() => result.output('nope')).toThrow(expect.objectContaining({ code: 'CONVERGE_NOT_IN_STATE' }));
  });

  it('types the outputs of a provider helper declaration (compile-time)', () => {
    const decl = provb.network('net', { label: 'n' });
    const pick = (r: ApplyResult) => {
      const out = r.output(decl);
      const id: string = out.id;
      // @ts-expect-error a name the network's outputs and inputs do not have does not compile
      void out.noSuchOutput;
      return id;
    };
    expect(typeof pick).toBe('function');
  });
});

describe('plain progress', () => {
  it('prints "Still creating... [10s elapsed]" every 10 s instead of a line per poll', () => {
    let t = 0;
    const lines: string[] = [];
    const report = progressReporter({
      stream: {
        write: (s: string) => {
          lines.push(s);
          return true;
        },
      },
      mode: 'plain',
      now: () => t,
    });
    report({ type: 'step_start', at: 0, address: 'web', action: 'create', resourceType: 'x' });
    for (let i = 1; i <= 25; i++) {
      t = i * 1000;
      report({
        type: 'poll',
        at: t,
        address: 'web',
        operation: 'create',
        attempt: i,
        message: 'BUILDING',
        elapsedMs: t,
      });
    }
    report.close();
    // Each 'Still creating' line says what the step waits for (its latest poll), and no poll has a line of its own.
    expect(lines.filter((l) => l.includes('Still')).map((l) => l.slice(25))).toEqual([
      'web: Still creating... [10s elapsed] (create poll 10: BUILDING)\n',
      'web: Still creating... [20s elapsed] (create poll 20: BUILDING)\n',
    ]);
    expect(lines.filter((l) => l.includes('BUILDING') && !l.includes('Still'))).toEqual([]);
  });

  it('takes the interval as an option, and ticks without events through redraw()', () => {
    let t = 0;
    const lines: string[] = [];
    const report = progressReporter({
      stream: {
        write: (s: string) => {
          lines.push(s);
          return true;
        },
      },
      mode: 'plain',
      now: () => t,
      stillEveryMs: 3000,
    });
    report({ type: 'step_start', at: 0, address: 'db', action: 'delete', resourceType: 'x' });
    t = 3000;
    report.redraw();
    t = 4000;
    report.redraw();
    report.close();
    expect(lines.filter((l) => l.includes('Still')).map((l) => l.slice(25))).toEqual([
      'db: Still destroying... [3s elapsed]\n',
    ]);
  });
});

describe('graceful stop', () => {
  it('stopSignal lets steps in flight finish and record, and starts no others', async () => {
    const { engine, cloud } = setup({ parallelism: 1 });
    cloud.latencyMs = 20;
    const stop = new AbortController();
    const plan = await engine.plan([thing('a'), thing('b'), thing('c')]);
    const result = await engine.apply(plan, {
      stopSignal: stop.signal,
      onEvent: (e) => {
        if (e.type === 'step_start') stop.abort();
      },
    });
    expect(result.succeeded.map((s) => s.address)).toEqual(['a']);
    expect(result.skipped.map((s) => s.address).sort()).toEqual(['b', 'c']);
    expect(cloud.count('thing')).toBe(1);
    expect(Object.keys((await engine.state()).resources)).toEqual(['a']);
  });
});
