// Typed where it was stringly: a skipped step says why as a SkipReason (the failed step it waited
// for, or the stop), and the run's own warnings and waits carry no address, not ''; the progress
// line of each is table-driven here.
import { describe, expect, it } from 'vitest';
import { eventLine } from '../../src/engine/progress/lines.js';
import type { Event } from '../../src/engine/events.js';
import { setup, thing } from '../helpers/builders.js';
import { ApplyError, ref } from 'converge';

const rows: [string, Event, string][] = [
  [
    'a skip after a failed dependency',
    {
      type: 'step_skip',
      at: 0,
      address: 'b',
      action: 'create',
      resourceType: 't',
      because: { kind: 'dependency-failed', address: 'a' },
    },
    '- b: create skipped (a failed)',
  ],
  [
    'a skip after the stop',
    { type: 'step_skip', at: 0, address: 'b', action: 'delete', resourceType: 't', because: { kind: 'stopped' } },
    '- b: delete skipped (the apply stopped before it started)',
  ],
  [
    'a warning about a resource',
    { type: 'warning', at: 0, address: 'web', message: 'size is deprecated' },
    '! web: size is deprecated',
  ],
  [
    'a warning of the run as a whole',
    { type: 'warning', at: 0, message: 'a stale lock was cleared' },
    '! a stale lock was cleared',
  ],
  [
    'a wait of the run as a whole',
    {
      type: 'wait',
      at: 0,
      operation: 'apply',
      reason: 'lock',
      waitMs: 20,
      message: 'waiting for the state lock',
      elapsedMs: 0,
    },
    '⏸ waiting for the state lock',
  ],
];

describe('event lines', () => {
  it.each(rows)('%s', (_name, event, line) => {
    expect(eventLine(event, false)?.text).toBe(line);
  });
});

describe('skip reasons from apply', () => {
  it('names the failed step a skipped one waited for, as data', async () => {
    const { engine, cloud } = setup();
    cloud.failCreate.set('a', { times: 99, status: 400 });
    const events: Event[] = [];
    const plan = await engine.plan([thing('a'), thing('b', { peer: ref('a', 'address') })]);
    const err = (await engine.apply(plan, { onEvent: (e) => events.push(e) }).catch((e: unknown) => e)) as ApplyError;
    expect(err.result.skipped).toEqual([
      { address: 'b', action: 'create', because: { kind: 'dependency-failed', address: 'a' } },
    ]);
    expect(events.find((e) => e.type === 'step_skip')).toMatchObject({
      because: { kind: 'dependency-failed', address: 'a' },
    });
  });

  it('says stopped for the steps a stop kept from starting', async () => {
    const { engine } = setup();
    const stop = new AbortController();
    stop.abort();
    const plan = await engine.plan([thing('a'), thing('b')]);
    const err = (await engine.apply(plan, { stopSignal: stop.signal }).catch((e: unknown) => e)) as ApplyError;
    const skipped = err instanceof ApplyError ? err.result.skipped : (err as { skipped: [] }).skipped;
    expect(skipped.map((s) => s.because)).toEqual([{ kind: 'stopped' }, { kind: 'stopped' }]);
  });

  it('emits no warning with an empty address', async () => {
    const { engine } = setup();
    const events: Event[] = [];
    await engine.apply(await engine.plan([thing('a')]), { onEvent: (e) => events.push(e) });
    expect(events.filter((e) => 'address' in e && e.address === '')).toEqual([]);
  });
});
