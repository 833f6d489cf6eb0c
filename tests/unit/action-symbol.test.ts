// One table of action symbols (engine/action.ts): the diff, the Markdown comment and the Mermaid
// graph draw each step with the same symbol.
import { describe, expect, it } from 'vitest';
import { actionSymbol, type Action } from '../../src/engine/action.js';
import { planOf, step } from '../engine/render/steps.js';

const rows: [Action, boolean, string, string][] = [
  // action, creates first, in the diff, in a label
  ['create', false, '+', '+'],
  ['update', false, '~', '~'],
  ['replace', false, '-/+', '-/+'],
  ['replace', true, '+/-', '+/-'],
  ['delete', false, '-', '-'],
  ['forget', false, '.', '.'],
  ['noop', false, ' ', '='],
];

describe('actionSymbol', () => {
  it.each(rows)('%s (create first: %s) is %j in the diff and %j in a label', (action, first, diff, label) => {
    expect(actionSymbol(action, first)).toBe(diff);
    expect(actionSymbol(action, first, 'label')).toBe(label);
  });

  it.each(rows.filter(([action]) => action !== 'noop'))(
    '%s (create first: %s): render, Markdown and Mermaid show %j',
    (action, first, diff, label) => {
      const plan = planOf([
        step({
          address: 'x',
          action,
          ...(first ? { createBeforeDestroy: true } : {}),
          before: { a: 1 },
          after: { a: 2 },
        }),
      ]);
      expect(plan.render({ color: false })).toContain(`${diff.padStart(3)} resource "test:index/thing:Thing" "x" {`);
      expect(plan.renderMarkdown()).toContain(`<code>${label}</code> <b>x</b>`);
      expect(plan.toMermaid()).toContain(`s0["${label} x<br/>`);
    },
  );
});
