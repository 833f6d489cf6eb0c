import { describe, expect, it, vi } from 'vitest';
import { progressReporter, type Event } from '../../../src/index.js';
import { setup, thing } from '../../helpers/builders.js';
import { FakeTty } from './fake-tty.js';

const T0 = Date.UTC(2026, 0, 2, 3, 4, 5);

function clock() {
  let t = T0;
  return {
    now: () => t,
    advance: (ms: number) => {
      t += ms;
    },
  };
}

const start = (address: string, at: number, action: 'create' | 'update' | 'delete' = 'create'): Event => ({
  type: 'step_start',
  at,
  address,
  action,
  resourceType: 'test:index/thing:Thing',
});

describe('progressReporter on a TTY', () => {
  it('draws one live line per step in flight with action, address and elapsed time', () => {
    const tty = new FakeTty();
    const c = clock();
    const report = progressReporter({ stream: tty, now: c.now, intervalMs: 0, color: false });
    report({ type: 'apply_start', at: T0, steps: 3 });
    report(start('web', T0));
    c.advance(1500);
    report(start('db', c.now()));
    c.advance(700);
    report.redraw();
    const screen = tty.screen();
    expect(screen).toHaveLength(3);
    expect(screen[0]).toMatch(/creating web \(test:index\/thing:Thing\) 2\.2s$/);
    expect(screen[1]).toMatch(/creating db \(test:index\/thing:Thing\) 0\.7s$/);
    expect(screen[2]).toBe('  0 of 3 steps done, 2 in flight');
  });

  it('redraws in place with cursor movement instead of appending lines', () => {
    const tty = new FakeTty();
    const c = clock();
    const report = progressReporter({ stream: tty, now: c.now, intervalMs: 0, color: false });
    report({ type: 'apply_start', at: T0, steps: 1 });
    report(start('web', T0));
    for (let i = 0; i < 5; i++) {
      c.advance(1000);
      report.redraw();
    }
    expect(tty.writes.at(-1)).toContain('\x1b[2A');
    expect(tty.screen()).toHaveLength(2);
    expect(tty.screen()[0]).toContain('creating web (test:index/thing:Thing) 5.0s');
  });

  it('moves a finished step above the live area and keeps the others live', () => {
    const tty = new FakeTty();
    const c = clock();
    const report = progressReporter({ stream: tty, now: c.now, intervalMs: 0, color: false });
    report({ type: 'apply_start', at: T0, steps: 2 });
    report(start('web', T0));
    report(start('db', T0));
    c.advance(1200);
    report({
      type: 'step_finish',
      at: c.now(),
      address: 'db',
      action: 'create',
      resourceType: 't',
      elapsedMs: 1200,
      id: 'db-1',
    });
    expect(tty.screen()).toEqual([
      '✓ db: created in 1.2s [id=db-1]',
      expect.stringMatching(/creating web .* 1\.2s$/),
      '  1 of 2 steps done, 1 in flight',
    ]);
  });

  it('shows polls on the step line and retries as lines, as they happen', () => {
    const tty = new FakeTty();
    const c = clock();
    const report = progressReporter({ stream: tty, now: c.now, intervalMs: 0, color: false });
    report(start('web', T0));
    c.advance(300);
    report({
      type: 'poll',
      at: c.now(),
      address: 'web',
      operation: 'create',
      attempt: 3,
      message: 'status BUILDING',
      elapsedMs: 300,
    });
    expect(tty.screen()[0]).toMatch(/creating web .* 0\.3s · create poll 3: status BUILDING$/);
    report({
      type: 'retry',
      at: c.now(),
      address: 'web',
      operation: 'create',
      attempt: 1,
      retriesLeft: 4,
      delayMs: 500,
      error: 'HTTP 429',
      elapsedMs: 300,
    });
    expect(tty.screen()[0]).toBe('↻ retry 1/4 of create web in 0.5s after no answer: HTTP 429');
    expect(tty.screen()[1]).toMatch(/· retry 1\/4 after no answer · 0\.5/);
  });

  it('ends with a summary and no live lines left on apply_finish', () => {
    const tty = new FakeTty();
    const c = clock();
    const report = progressReporter({ stream: tty, now: c.now, intervalMs: 0, color: false });
    report({ type: 'apply_start', at: T0, steps: 4 });
    for (const [a, action] of [
      ['a', 'create'],
      ['b', 'update'],
      ['c', 'delete'],
    ] as const) {
      report(start(a, c.now(), action));
      report({ type: 'step_finish', at: c.now(), address: a, action, resourceType: 't', elapsedMs: 10 });
    }
    report(start('d', c.now()));
    report({
      type: 'step_fail',
      at: c.now(),
      address: 'd',
      action: 'create',
      resourceType: 't',
      elapsedMs: 5,
      error: 'boom',
      code: 'CONVERGE_PROVIDER',
    });
    report({
      type: 'step_skip',
      at: c.now(),
      address: 'e',
      action: 'create',
      resourceType: 't',
      because: { kind: 'dependency-failed', address: 'd' },
    });
    report({ type: 'apply_finish', at: c.now(), succeeded: 3, failed: 1, skipped: 1, elapsedMs: 2500 });
    expect(tty.screen()).toEqual([
      '✓ a: created in 0.0s',
      '✓ b: updated in 0.0s',
      '✓ c: destroyed in 0.0s',
      '✗ d: create failed after 0.0s: boom (CONVERGE_PROVIDER)',
      '- e: create skipped (d failed)',
      'Apply failed: 1 failed, 1 skipped. Resources: 1 added, 1 changed, 0 replaced, 1 destroyed. (2.5s)',
    ]);
  });

  it('cuts lines to the terminal width so none wraps', () => {
    const tty = new FakeTty(30);
    const report = progressReporter({ stream: tty, now: () => T0, intervalMs: 0, color: false });
    report(start('a-very-long-resource-address-indeed', T0));
    expect(tty.screen()[0]!.length).toBeLessThanOrEqual(29);
    expect(tty.screen()[0]!.endsWith('…')).toBe(true);
  });

  it('colours finished and failed lines only when colour is on', () => {
    const tty = new FakeTty();
    const report = progressReporter({ stream: tty, now: () => T0, intervalMs: 0 });
    report({ type: 'step_finish', at: T0, address: 'a', action: 'create', resourceType: 't', elapsedMs: 1 });
    expect(tty.writes.join('')).toContain('\x1b[32m✓ a: created');
  });

  it('advances elapsed times on its own timer while steps are in flight, and stops it at the end', () => {
    vi.useFakeTimers();
    try {
      const tty = new FakeTty();
      const c = clock();
      const report = progressReporter({ stream: tty, now: c.now, intervalMs: 100, color: false });
      report(start('web', T0));
      c.advance(4000);
      const before = tty.writes.length;
      vi.advanceTimersByTime(100);
      expect(tty.writes.length).toBe(before + 1);
      expect(tty.screen()[0]).toMatch(/4\.0s$/);
      report({
        type: 'step_finish',
        at: c.now(),
        address: 'web',
        action: 'create',
        resourceType: 't',
        elapsedMs: 4000,
      });
      const after = tty.writes.length;
      vi.advanceTimersByTime(1000);
      expect(tty.writes.length).toBe(after);
      expect(vi.getTimerCount()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('progressReporter on a plain stream', () => {
  it('writes one timestamped line per event (none per poll), without ANSI sequences', () => {
    const lines: string[] = [];
    const stream = {
      write: (s: string) => {
        lines.push(s);
        return true;
      },
    };
    const report = progressReporter({ stream });
    report({ type: 'apply_start', at: T0, steps: 1 });
    report(start('web', T0));
    report({
      type: 'poll',
      at: T0 + 100,
      address: 'web',
      operation: 'create',
      attempt: 1,
      message: 'BUILDING',
      elapsedMs: 100,
    });
    report({
      type: 'step_finish',
      at: T0 + 200,
      address: 'web',
      action: 'create',
      resourceType: 't',
      elapsedMs: 200,
      id: 'i-1',
    });
    report({ type: 'apply_finish', at: T0 + 200, succeeded: 1, failed: 0, skipped: 0, elapsedMs: 200 });
    expect(lines).toEqual([
      '2026-01-02T03:04:05.000Z apply: 1 step to run\n',
      '2026-01-02T03:04:05.000Z creating web (test:index/thing:Thing)\n',
      '2026-01-02T03:04:05.200Z ✓ web: created in 0.2s [id=i-1]\n',
      '2026-01-02T03:04:05.200Z Apply complete! Resources: 1 added, 0 changed, 0 replaced, 0 destroyed. (0.2s)\n',
    ]);
    expect(lines.join('')).not.toContain('\x1b');
  });

  it('chooses plain lines for a stream that is not a TTY, and draws on one that is', () => {
    const plain: string[] = [];
    progressReporter({ stream: { isTTY: false, write: (s: string) => plain.push(s) } })(start('web', T0));
    expect(plain[0]).toMatch(/^2026-01-02T03:04:05\.000Z creating web/);
    const tty = new FakeTty();
    progressReporter({ stream: tty, intervalMs: 0, now: () => T0 })(start('web', T0));
    expect(tty.writes[0]).toContain('\x1b[K');
  });

  it('refuses a negative redraw interval', () => {
    expect(() => progressReporter({ intervalMs: -1 })).toThrow(TypeError);
  });
});

describe('progressReporter attached to a real apply', () => {
  it('draws the steps of an engine apply and its summary', async () => {
    const tty = new FakeTty(120);
    const { engine } = setup();
    const plan = await engine.plan([thing('a'), thing('b')]);
    await engine.apply(plan, { onEvent: progressReporter({ stream: tty, intervalMs: 0, color: false }) });
    const screen = tty.screen();
    expect(screen.filter((l) => l.startsWith('✓'))).toHaveLength(2);
    expect(screen.at(-1)).toMatch(/^Apply complete! Resources: 2 added, 0 changed, 0 replaced, 0 destroyed\./);
  });
});

describe('progressReporter on a TTY without a size', () => {
  it('takes a stream reporting 0 columns as 80 wide', () => {
    const tty = new FakeTty(0);
    const report = progressReporter({ stream: tty, now: () => T0, intervalMs: 0, color: false });
    report(start('web', T0));
    expect(tty.screen()[0]).toBe('⠋ creating web (test:index/thing:Thing) 0.0s');
  });
});

describe('progressReporter for a destroy', () => {
  it('ends with "Destroy complete!" when the apply was a destroy plan', () => {
    const lines: string[] = [];
    const report = progressReporter({ stream: { write: (s: string) => lines.push(s) }, mode: 'plain' });
    report({ type: 'apply_start', at: T0, steps: 1, destroy: true });
    report({ type: 'step_start', at: T0, address: 'web', action: 'delete', resourceType: 't' });
    report({ type: 'step_finish', at: T0 + 100, address: 'web', action: 'delete', resourceType: 't', elapsedMs: 100 });
    report({ type: 'apply_finish', at: T0 + 100, succeeded: 1, failed: 0, skipped: 0, elapsedMs: 100 });
    expect(lines.at(-1)).toMatch(
      /Destroy complete! Resources: 0 added, 0 changed, 0 replaced, 1 destroyed\. \(0\.1s\)\n$/,
    );
  });
});
