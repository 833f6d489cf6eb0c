// The checks on a plan as a whole: no changes, changes to exactly these resources, drift found by
// refresh. The same outcome shape as the step checks of check.ts.
import type { DriftEntry } from '../engine/plan/drift.js';
import { driftLines } from '../engine/plan/render.js';
import type { DriftExpectation, Target } from './expectation.js';
import { addressOf, checkPlan, indent, isChange, pathsFacts, rendered, type Outcome } from './check.js';

/** `toHaveNoChanges()`: every step a no-op, nothing moved. */
export function checkNoChanges(planValue: unknown): Outcome {
  const plan = checkPlan(planValue);
  const changed = plan.steps.filter(isChange);
  const expected = { changes: [] };
  const actual = { changes: changed.map((s) => `${s.address} (${s.action})`) };
  return {
    pass: changed.length === 0,
    expected,
    actual,
    message: (diff, not) =>
      not
        ? `expected the plan to change something, but all its ${plan.steps.length} steps are no-ops`
        : [
            `expected no changes, but the plan changes ${changed.length} resource${changed.length === 1 ? '' : 's'}:`,
            '',
            ...changed.slice(0, 5).map(rendered),
            ...(changed.length > 5 ? [`  ... and ${changed.length - 5} more`] : []),
            '',
            diff(expected, actual),
          ].join('\n'),
  };
}

/** `toChangeOnly([targets])`: the resources changed are exactly these. */
export function checkChangeOnly(planValue: unknown, targets: readonly Target[]): Outcome {
  const plan = checkPlan(planValue);
  const want = [...new Set(targets.map(addressOf))].sort();
  const changed = plan.steps.filter(isChange);
  const got = [...new Set(changed.map((s) => s.address))].sort();
  const extra = changed.filter((s) => !want.includes(s.address));
  const untouched = want.filter((a) => !got.includes(a));
  return {
    pass: extra.length === 0 && untouched.length === 0,
    expected: want,
    actual: got,
    message: (diff, not) =>
      not
        ? `expected the plan to change more or other resources than ${want.join(', ')}, but it changes exactly those`
        : [
            `expected the plan to change only ${want.join(', ') || 'nothing'}, but${extra.length ? ` it also changes ${extra.map((s) => `${s.address} (${s.action})`).join(', ')}` : ''}${extra.length && untouched.length ? ' and' : ''}${untouched.length ? ` it leaves ${untouched.join(', ')} unchanged` : ''}`,
            '',
            ...extra.slice(0, 5).map(rendered),
            ...(extra.length ? [''] : []),
            diff(want, got),
          ].join('\n'),
  };
}

/** `toHaveDrift(target?, { paths?, action? })`: refresh found that object (or any) changed outside converge. */
export function checkDrift(planValue: unknown, target?: Target, options: DriftExpectation = {}): Outcome {
  const plan = checkPlan(planValue);
  const drift: readonly DriftEntry[] = plan.drift ?? [];
  const address = target === undefined ? undefined : addressOf(target);
  const entry = address === undefined ? drift[0] : drift.find((d) => d.address === address);
  const subject = address ?? 'the plan';
  const drawn = (d: DriftEntry) => indent(driftLines(d).join('\n'));
  if (!entry)
    return {
      pass: false,
      message: () =>
        [
          `expected ${address ? `${address} to have drifted` : 'drift'}, but refresh found ${drift.length ? `drift only in ${drift.map((d) => d.address).join(', ')}` : 'no drift'}${drift.length || address === undefined ? '' : ' (was the plan made with refresh?)'}`,
        ].join('\n'),
    };
  const p = pathsFacts(
    entry.changes.map((c) => c.path),
    options.paths as readonly string[] | undefined,
    'drift',
  );
  const problems = [...p.problems];
  if (options.action && options.action !== entry.action)
    problems.push(`  ${entry.address} was ${entry.action === 'delete' ? 'deleted' : 'changed'} outside converge`);
  const expected = { address: entry.address, action: options.action ?? entry.action, ...p.expected };
  const actual = { address: entry.address, action: entry.action, ...p.actual };
  return {
    pass: problems.length === 0,
    expected,
    actual,
    message: (diff, not) =>
      not
        ? [`expected ${subject} to have no drift, but refresh found:`, '', drawn(entry)].join('\n')
        : [
            `expected ${subject} to have drifted as described, but:`,
            ...problems,
            '',
            drawn(entry),
            '',
            diff(expected, actual),
          ].join('\n'),
  };
}
