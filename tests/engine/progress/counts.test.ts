// The counts an apply shows agree with the lines it prints: "N steps to run" is followed by N step
// lines (a no-op's record — a move, refreshed outputs — is written without one), and neither the
// summary nor ApplyError's "N succeeded" counts a no-op.
import { describe, expect, it } from 'vitest';
import { ApplyError, progressReporter, type Event, type ProgressStream } from '../../../src/index.js';
import { setup, thing } from '../../helpers/builders.js';

function plainLines(): { stream: ProgressStream; lines: () => string[] } {
  let text = '';
  const stream = { write: (s: string) => ((text += s), true) } as unknown as ProgressStream;
  return {
    stream,
    lines: () =>
      text
        .split('\n')
        .filter(Boolean)
        .map((l) => l.replace(/^\S+ /, '')),
  };
}

/** a, b, c and e applied; then a changes in the state only, b is replaced create-first, c moves to c2, d is new. */
async function secondPlan() {
  const s = setup();
  await s.engine.apply(await s.engine.plan([thing('a'), thing('b'), thing('c'), thing('e')]));
  const plan = await s.engine.plan([
    thing('a', {}, { protect: true }),
    thing('b', { region: 'us' }, { createBeforeDestroy: true }),
    thing('c2', { name: 'c' }, { aliases: ['c'] }),
    thing('d'),
    thing('e'),
  ]);
  return { ...s, plan };
}

describe('apply counts', () => {
  it('says "3 steps to run" for a create, a state-only update and a create-first replacement, and prints exactly those 3', async () => {
    const { engine, plan } = await secondPlan();
    expect(plan.steps.map((s) => `${s.address}:${s.action}`).sort()).toEqual(
      ['a:update', 'b:replace', 'c2:noop', 'd:create', 'e:noop'].sort(),
    );
    const out = plainLines();
    const events: Event[] = [];
    const progress = progressReporter({ stream: out.stream, mode: 'plain' });
    await engine.apply(plan, { onEvent: (e) => (events.push(e), progress(e)) });
    const lines = out.lines();
    expect(lines[0]).toBe('apply: 3 steps to run');
    expect(lines.filter((l) => /^(creating|updating|replacing|destroying|checking) /.test(l))).toEqual([
      'updating a (test:index/thing:Thing)',
      'replacing b (test:index/thing:Thing)',
      'creating d (test:index/thing:Thing)',
    ]);
    expect(
      lines
        .filter((l) => l.startsWith('✓ '))
        .map((l) => l.split(':')[0])
        .sort(),
    ).toEqual(['✓ a', '✓ b', '✓ d']);
    expect(lines.at(-1)).toMatch(/^Apply complete! Resources: 1 added, 1 changed, 1 replaced, 0 destroyed\./);
    const start = events.find((e) => e.type === 'apply_start') as Extract<Event, { type: 'apply_start' }>;
    const finish = events.find((e) => e.type === 'apply_finish') as Extract<Event, { type: 'apply_finish' }>;
    expect(events.filter((e) => e.type === 'step_start')).toHaveLength(start.steps);
    expect(finish.succeeded).toBe(3);
  });

  it('still records the move (the no-op step) without a line', async () => {
    const { engine, plan, store } = await secondPlan();
    const result = await engine.apply(plan);
    expect(Object.keys((await store.read()).resources).sort()).toEqual(['a', 'b', 'c2', 'd', 'e']);
    expect(result.succeeded.map((s) => s.address).sort()).toEqual(['a', 'b', 'c2', 'd', 'e']);
  });

  it("ApplyError's 'N succeeded' does not count no-ops", async () => {
    const { engine, cloud, plan } = await secondPlan();
    cloud.failCreate.set('d', { status: 400, times: 1 });
    const error = await engine.apply(plan).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApplyError);
    expect((error as ApplyError).message).toMatch(/^1 step failed, 0 skipped, 2 succeeded:\n {2}create d: /);
  });
});
