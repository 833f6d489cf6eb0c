// The plan matchers in jest: `expect.extend(convergeMatchers)` on jest's own `expect` (the `expect`
// package, the object jest hands its tests and extends; the whole jest runner is not needed to judge
// the matchers), every matcher passing and failing, with the failure text jest shows: its
// JestAssertionError, the message our matcher built with jest's own `this.utils.diff`.
import { beforeAll, describe, expect as vi, it } from 'vitest';
import { expect } from 'expect';
import type {} from 'converge/testing/jest';
import type { Plan } from 'converge';
import { convergeMatchers, match, mockProviders, planChange, planStack } from 'converge/testing';
import { civo, stack } from './stack.js';

expect.extend(convergeMatchers);

// eslint-disable-next-line no-control-regex
const plain = (s: string): string => s.replace(/\x1b\[[0-9;]*m/g, '');
/** The error jest's expect throws for the assertion `fn` makes, which must fail. */
function failure(fn: () => void): string {
  try {
    fn();
  } catch (e) {
    vi((e as Error).constructor.name).toBe('JestAssertionError');
    return plain((e as Error).message);
  }
  throw new Error('expected the assertion to fail');
}

const change = (edit: Parameters<typeof stack>[0], base: Parameters<typeof stack>[0] = {}) =>
  planChange(stack(base).all, stack(edit).all, { providers: mockProviders(civo()) });

let created: Plan;
let unchanged: Plan;
let grown: Plan;
let shrunk: Plan;
let removed: Plan;
let retained: Plan;
let drifted: Plan;
beforeAll(async () => {
  created = await planStack(stack().all, { providers: mockProviders(civo()) });
  unchanged = await change({});
  grown = await change({ size: 'g3.large' });
  shrunk = await change({ size: 'g3.small' });
  removed = await change({ webs: 1 }, { webs: 2 });
  retained = await change({ webs: 1, retainWeb: true }, { webs: 2, retainWeb: true });
  const { all, fw } = stack();
  drifted = await planChange(all, all, { providers: mockProviders(civo()).drift(fw, { name: 'renamed-by-hand' }) });
});

describe("convergeMatchers on jest's expect", () => {
  it('toCreate passes, and fails drawing the step and the diff of jest-diff', () => {
    const { web } = stack();
    expect(created).toCreate('net');
    expect(created).toCreate(web, { inputs: { hostname: 'web', networkId: match.unknown() } });
    expect(created).toCreate({ type: 'provb:index/firewall:Firewall', inputs: { name: 'app-fw' } });
    expect(unchanged).not.toCreate('net');
    vi(failure(() => expect(created).toCreate('db'))).toContain(
      'expected db to be created, but the plan has no step for db',
    );
    const text = failure(() => expect(grown).toCreate('web'));
    vi(text).toContain('expected web to be created, but the plan updates it in place (changed)');
    vi(text).toContain('# web will be updated in place');
    vi(text).toContain('~ size = "g3.medium" -> "g3.large"');
    vi(text).toContain('- Expected');
    vi(text).toContain('+ Received');
    vi(text).toMatch(/- {3}"action": "create",\n\+ {3}"action": "update",/);
    vi(failure(() => expect(created).not.toCreate('net'))).toContain(
      'expected net not to be created, but the plan creates it:',
    );
  });

  it('toUpdate passes, and fails naming the paths', () => {
    expect(grown).toUpdate('web', { paths: ['size'] });
    expect(grown).toUpdate(stack().web, { inputs: { size: 'g3.large' } });
    expect(grown).not.toUpdate('net');
    const text = failure(() => expect(grown).toUpdate('web', { paths: ['hostname'] }));
    vi(text).toContain('expected web to be updated in place as described, but:');
    vi(text).toContain('changes also at size');
    vi(text).toContain('no change at hostname');
    vi(failure(() => expect(grown).not.toUpdate('web'))).toContain('expected web not to be updated in place');
  });

  it('toReplace passes, and fails naming what forces it', () => {
    expect(shrunk).toReplace(stack().web, { because: ['size'] });
    expect(grown).not.toReplace('web');
    const text = failure(() => expect(shrunk).toReplace('web', { because: 'diskImage' }));
    vi(text).toContain('not forced by diskImage: the plan says size');
    vi(text).toContain('~ size = "g3.medium" -> "g3.small" # forces replacement');
    vi(failure(() => expect(grown).toReplace('web'))).toContain(
      'expected web to be replaced, but the plan updates it in place (changed)',
    );
  });

  it('toDelete and toForget pass, and fail with the step drawn', () => {
    expect(removed).toDelete('web-1');
    expect(retained).toForget('web-1');
    expect(removed).not.toForget('web-1');
    expect(retained).not.toDelete('web-1');
    const del = failure(() => expect(retained).toDelete('web-1'));
    vi(del).toContain('expected web-1 to be deleted, but the plan forgets it (retained)');
    vi(del).toContain('# web-1 will be forgotten');
    const forget = failure(() => expect(removed).toForget('web-1'));
    vi(forget).toContain('expected web-1 to be forgotten, but the plan deletes it (removed)');
    vi(forget).toContain('- resource "provb:index/instance:Instance" "web-1" {');
  });

  it('toHaveNoChanges passes, and fails listing each change', () => {
    expect(unchanged).toHaveNoChanges();
    expect(grown).not.toHaveNoChanges();
    const text = failure(() => expect(grown).toHaveNoChanges());
    vi(text).toContain('expected no changes, but the plan changes 1 resource:');
    vi(text).toContain('~ resource "provb:index/instance:Instance" "web" {');
    vi(text).toContain('+     "web (update)",');
    vi(failure(() => expect(unchanged).not.toHaveNoChanges())).toContain(
      'expected the plan to change something, but all its 3 steps are no-ops',
    );
  });

  it('toChangeOnly passes, and fails naming what else changes', () => {
    expect(grown).toChangeOnly(['web']);
    expect(unchanged).toChangeOnly([]);
    expect(grown).not.toChangeOnly(['net']);
    const text = failure(() => expect(grown).toChangeOnly(['net']));
    vi(text).toContain(
      'expected the plan to change only net, but it also changes web (update) and it leaves net unchanged',
    );
    vi(text).toMatch(/- {3}"net",\n\+ {3}"web",/);
  });

  it('toHaveDrift passes, and fails naming where drift was found', () => {
    const { fw } = stack();
    expect(drifted).toHaveDrift(fw, { paths: ['name'], action: 'update' });
    expect(drifted).toHaveDrift();
    expect(drifted).not.toHaveDrift('net');
    vi(failure(() => expect(drifted).toHaveDrift('net'))).toBe(
      'expected net to have drifted, but refresh found drift only in fw',
    );
    vi(failure(() => expect(unchanged).toHaveDrift())).toBe('expected drift, but refresh found no drift');
    vi(failure(() => expect(drifted).not.toHaveDrift('fw'))).toContain(
      'expected fw to have no drift, but refresh found:',
    );
  });

  it("the patterns are asymmetric matchers jest's own toEqual understands", () => {
    const id = match.capture<string>();
    expect({ diskImage: 'ubuntu-jammy', size: 'g3.medium' }).toEqual(
      match.objectLike({ diskImage: id, tags: match.absent(), size: match.anyValue() }),
    );
    vi(id.value).toBe('ubuntu-jammy');
    expect(['a', 'b', 'c']).toEqual(match.arrayWith(['a', 'c']));
    vi(failure(() => expect(['a']).toEqual(match.arrayWith(['b'])))).toContain('arrayWith(["b"])');
  });
});
