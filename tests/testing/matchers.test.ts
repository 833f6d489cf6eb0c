// The plan matchers (converge/testing) in vitest: each passes on the plan it describes and fails on
// another with a message that names the resource, draws the step as render() does and shows the
// diff of expected against actual.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Plan } from 'converge';
import { convergeMatchers, match, mockProviders, planChange, planStack } from 'converge/testing';
import 'converge/testing/vitest'; // types the matchers on vitest's expect
import { civo, stack } from './stack.js';

expect.extend(convergeMatchers);

// eslint-disable-next-line no-control-regex
const plain = (s: string): string => s.replace(/\x1b\[[0-9;]*m/g, '');
/** The message of the assertion `fn` makes, which must fail. */
function failure(fn: () => void): string {
  try {
    fn();
  } catch (e) {
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
let reimaged: Plan;
let removed: Plan;
let retained: Plan;
beforeAll(async () => {
  created = await planStack(stack().all, { providers: mockProviders(civo()) });
  unchanged = await change({});
  grown = await change({ size: 'g3.large' });
  shrunk = await change({ size: 'g3.small' });
  reimaged = await change({ diskImage: 'debian-12' });
  removed = await change({ webs: 1 }, { webs: 2 });
  retained = await change({ webs: 1, retainWeb: true }, { webs: 2, retainWeb: true });
});

describe('toCreate', () => {
  it('passes for a created address, a typed declaration, or a type with matching inputs', () => {
    const { web, fw } = stack();
    expect(created).toCreate('net');
    expect(created).toCreate(web, { inputs: { hostname: 'web', networkId: match.unknown() } });
    expect(created).toCreate({ type: 'provb:index/firewall:Firewall', inputs: { name: 'app-fw' } });
    expect(created).toCreate(fw, {
      inputs: { ingressRules: match.arrayWith([match.objectLike({ portRange: '22' })]) },
    });
  });

  it('fails for an address with no step, listing what the plan does', () => {
    const text = failure(() => expect(created).toCreate('db'));
    expect(text).toContain('expected db to be created, but the plan has no step for db');
    expect(text).toContain('The plan changes:\n  net (create)\n  fw (create)\n  web (create)');
  });

  it('fails for a step of another action, drawing the step and the diff', () => {
    const text = failure(() => expect(grown).toCreate('web'));
    expect(text).toContain('expected web to be created, but the plan updates it in place (changed)');
    expect(text).toContain('# web will be updated in place');
    expect(text).toContain('~ size = "g3.medium" -> "g3.large"');
    expect(text).toMatch(/- {3}"action": "create",\n\+ {3}"action": "update",/);
  });

  it('fails when the inputs differ, naming each path', () => {
    const text = failure(() => expect(created).toCreate('web', { inputs: { size: 'g3.small', hostname: 'web' } }));
    expect(text).toContain('expected web to be created as described, but:');
    expect(text).toContain('inputs.size: expected "g3.small", got "g3.medium"');
    expect(text).toContain('+ resource "provb:index/instance:Instance" "web" {');
    expect(text).toMatch(/- {5}"size": "g3.small",\n\+ {5}"size": "g3.medium",/);
  });

  it('fails for a type with no create whose inputs match, showing the nearest', () => {
    const text = failure(() =>
      expect(created).toCreate({ type: 'provb:index/instance:Instance', inputs: { hostname: 'api' } }),
    );
    expect(text).toContain('none of the 1 created matches; the nearest is web:');
    expect(text).toContain('inputs.hostname: expected "api", got "web"');
  });

  it('with .not, fails when the plan creates it, drawing the step', () => {
    const text = failure(() => expect(created).not.toCreate('net'));
    expect(text).toContain('expected net not to be created, but the plan creates it:');
    expect(text).toContain('+ resource "provb:index/network:Network" "net" {');
    expect(unchanged).not.toCreate('net');
  });
});

describe('toUpdate', () => {
  it('passes for an in-place update of exactly the paths named', () => {
    expect(grown).toUpdate('web', { paths: ['size'] });
    expect(grown).toUpdate(stack().web, { inputs: { size: 'g3.large' } });
    expect(grown).not.toUpdate('net');
  });

  it('fails when other paths change, or the named ones do not', () => {
    const text = failure(() => expect(grown).toUpdate('web', { paths: ['hostname'] }));
    expect(text).toContain('expected web to be updated in place as described, but:');
    expect(text).toContain('changes also at size');
    expect(text).toContain('no change at hostname');
    expect(text).toMatch(/- {5}"hostname",\n\+ {5}"size",/);
  });

  it('fails for a replacement', () => {
    const text = failure(() => expect(reimaged).toUpdate('web'));
    expect(text).toContain('expected web to be updated in place, but the plan replaces it (replace_forced)');
    expect(text).toContain('# web must be replaced');
  });
});

describe('toReplace', () => {
  it('passes for a replacement forced by the paths named (a replaceOn path, or a replaceWhen rule)', () => {
    expect(reimaged).toReplace('web', { because: 'diskImage' });
    expect(shrunk).toReplace(stack().web, { because: ['size'] });
  });

  it('fails when another path forces it', () => {
    const text = failure(() => expect(shrunk).toReplace('web', { because: 'diskImage' }));
    expect(text).toContain('not forced by diskImage: the plan says size');
    expect(text).toContain('~ size = "g3.medium" -> "g3.small" # forces replacement');
    expect(text).toMatch(/- {5}"diskImage",\n\+ {5}"size",/);
  });

  it('fails for an update', () => {
    const text = failure(() => expect(grown).toReplace('web'));
    expect(text).toContain('expected web to be replaced, but the plan updates it in place (changed)');
  });
});

describe('toDelete and toForget', () => {
  it('pass for a resource gone from the stack, deleted or (retainOnDelete) forgotten', () => {
    expect(removed).toDelete('web-1');
    expect(retained).toForget('web-1');
    expect(removed).not.toForget('web-1');
  });

  it('fail with the step drawn', () => {
    const del = failure(() => expect(retained).toDelete('web-1'));
    expect(del).toContain('expected web-1 to be deleted, but the plan forgets it (retained)');
    expect(del).toContain('# web-1 will be forgotten');
    const forget = failure(() => expect(removed).toForget('web-1'));
    expect(forget).toContain('expected web-1 to be forgotten, but the plan deletes it (removed)');
    expect(forget).toContain('- resource "provb:index/instance:Instance" "web-1" {');
  });
});

describe('toHaveNoChanges', () => {
  it('passes for a plan of the applied stack', () => {
    expect(unchanged).toHaveNoChanges();
    expect(grown).not.toHaveNoChanges();
  });

  it('fails listing each change', () => {
    const text = failure(() => expect(grown).toHaveNoChanges());
    expect(text).toContain('expected no changes, but the plan changes 1 resource:');
    expect(text).toContain('~ resource "provb:index/instance:Instance" "web" {');
    expect(text).toContain('+     "web (update)",');
    expect(failure(() => expect(unchanged).not.toHaveNoChanges())).toContain(
      'expected the plan to change something, but all its 3 steps are no-ops',
    );
  });
});

describe('toChangeOnly', () => {
  it('passes when exactly these resources change', () => {
    expect(grown).toChangeOnly(['web']);
    expect(unchanged).toChangeOnly([]);
  });

  it('fails naming what else changes and what does not', () => {
    const text = failure(() => expect(grown).toChangeOnly(['net']));
    expect(text).toContain(
      'expected the plan to change only net, but it also changes web (update) and it leaves net unchanged',
    );
    expect(text).toContain('# web will be updated in place');
    expect(text).toMatch(/- {3}"net",\n\+ {3}"web",/);
  });
});

describe('toHaveDrift', () => {
  it('passes when refresh found the object changed outside converge', async () => {
    const mocks = mockProviders(civo());
    const { all, fw } = stack();
    const plan = await planChange(all, all, { providers: mocks.drift(fw, { name: 'renamed-by-hand' }) });
    expect(plan).toHaveDrift(fw, { paths: ['name'], action: 'update' });
    expect(plan).toHaveDrift();
    expect(plan).not.toHaveDrift('net');
    expect(plan).toUpdate(fw, { paths: ['name'] }); // put back as declared
  });

  it('passes for an object deleted outside converge', async () => {
    const mocks = mockProviders(civo());
    const { all } = stack();
    const plan = await planChange(all, all, { providers: mocks.drift('web', null) });
    expect(plan).toHaveDrift('web', { action: 'delete' });
    expect(plan).toCreate('web');
  });

  it('fails naming where drift was found', async () => {
    const mocks = mockProviders(civo());
    const { all } = stack();
    const plan = await planChange(all, all, { providers: mocks.drift('fw', { name: 'x' }) });
    expect(failure(() => expect(plan).toHaveDrift('net'))).toBe(
      'expected net to have drifted, but refresh found drift only in fw',
    );
    const paths = failure(() => expect(plan).toHaveDrift('fw', { paths: ['ingressRules'] }));
    expect(paths).toContain('drift also at name');
    expect(paths).toContain('~ resource "provb:index/firewall:Firewall" "fw" {');
    expect(paths).toContain('~ name = "app-fw" -> "x"');
    expect(failure(() => expect(unchanged).toHaveDrift())).toBe('expected drift, but refresh found no drift');
    expect(failure(() => expect(plan).not.toHaveDrift('fw'))).toContain(
      'expected fw to have no drift, but refresh found:',
    );
  });
});

describe('match', () => {
  it('objectLike matches partially and deep, arrayWith a subsequence, absent a missing key', () => {
    const { fw } = stack({ sshFrom: ['10.0.0.0/8', '0.0.0.0/0'] });
    const value = { name: 'app-fw', ingressRules: fw.inputs.ingressRules };
    expect(value).toEqual(
      match.objectLike({
        ingressRules: match.arrayWith([match.objectLike({ cidrs: match.arrayWith(['0.0.0.0/0']) })]),
      }),
    );
    expect(value).toEqual(match.objectLike({ egressRules: match.absent(), name: match.anyValue() }));
    expect(match.arrayWith(['b', 'a']).asymmetricMatch(['a', 'b'])).toBe(false);
    expect(match.anyValue().asymmetricMatch(null)).toBe(false);
    expect(match.absent().asymmetricMatch(0)).toBe(false);
  });

  it('capture keeps the value it matched, for a later assertion', () => {
    const id = match.capture<string>();
    expect(created).toCreate('web', { inputs: { diskImage: id } });
    expect(id.value).toBe('ubuntu-jammy');
    expect(() => match.capture().value).toThrow('nothing was captured');
  });

  it('prints patterns in failure messages, and only the differences in the diff', () => {
    const text = failure(() =>
      expect(created).toCreate('fw', {
        inputs: { name: match.anyValue(), ingressRules: match.arrayWith([match.objectLike({ portRange: '443' })]) },
      }),
    );
    expect(text).toContain('inputs.ingressRules: expected a list with objectLike({"portRange":"443"}) (in order)');
    expect(text).toMatch(/- {5}"ingressRules": arrayWith\(\[objectLike\(\{"portRange":"443"\}\)\]\),/);
    expect(text).toContain('"networkId": (known after apply),');
    expect(text).not.toMatch(/^- .*"name"/m);
  });
});
