// expectPlan(): the matchers as plain assertions (for node:test): each passes silently or throws
// node's AssertionError, its message the step as render() draws it and node's own diff.
import { AssertionError } from 'node:assert';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Plan } from 'converge';
import { expectPlan, match, mockProviders, planChange } from 'converge/testing';
import { civo, stack } from './stack.js';

/** The AssertionError `fn` throws. */
function thrown(fn: () => void): AssertionError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(AssertionError);
    return e as AssertionError;
  }
  throw new Error('expected an AssertionError');
}

let grown: Plan;
let removed: Plan;
beforeAll(async () => {
  grown = await planChange(stack().all, stack({ size: 'g3.large' }).all, { providers: mockProviders(civo()) });
  removed = await planChange(stack({ webs: 2 }).all, stack().all, { providers: mockProviders(civo()) });
});

describe('expectPlan', () => {
  it('passes silently for what the plan does, and for .not of what it does not', () => {
    const { web } = stack();
    expectPlan(grown).toUpdate(web, { paths: ['size'], inputs: { size: 'g3.large', hostname: match.anyValue() } });
    expectPlan(grown).toChangeOnly([web]);
    expectPlan(grown).not.toReplace(web);
    expectPlan(grown).not.toHaveDrift();
    expectPlan(removed).toDelete('web-1');
    expectPlan(removed).not.toForget('web-1');
  });

  it("throws node's AssertionError with the rendered step and node's diff", () => {
    const e = thrown(() => expectPlan(grown).toReplace('web', { because: 'diskImage' }));
    expect(e.operator).toBe('toReplace');
    expect(e.message).toContain('expected web to be replaced, but the plan updates it in place (changed)');
    expect(e.message).toContain('~ size = "g3.medium" -> "g3.large"');
    expect(e.message).toContain('Expected values to be strictly deep-equal:');
    expect(e.message).toMatch(/\+ {3}action: 'update',?\n- {3}action: 'replace'/);
    expect(e.actual).toMatchObject({ action: 'update' });
    expect(e.expected).toMatchObject({ action: 'replace', because: ['diskImage'] });
  });

  it('throws for .not when the plan does it', () => {
    const e = thrown(() => expectPlan(removed).not.toDelete('web-1'));
    expect(e.operator).toBe('not.toDelete');
    expect(e.message).toContain('expected web-1 not to be deleted, but the plan deletes it:');
    expect(e.message).toContain('- resource "provb:index/instance:Instance" "web-1" {');
  });

  it('draws unknowns and patterns in words in the diff', async () => {
    const created = await planChange([], stack().all, { providers: mockProviders(civo()) });
    const e = thrown(() =>
      expectPlan(created).toCreate('fw', { inputs: { name: 'other', networkId: match.unknown() } }),
    );
    expect(e.message).not.toMatch(/@converge|Shown|asymmetricMatcher/);
    expect(e.message).toContain("+     name: 'app-fw'");
    expect(e.message).toContain("-     name: 'other'");
  });

  it('refuses what is not a plan, as a TypeError', () => {
    expect(() => expectPlan({}).toHaveNoChanges()).toThrow(TypeError);
  });
});
