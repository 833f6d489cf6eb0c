// Type-level tests of converge/testing (typechecked by vitest, never run): a typed helper's
// declaration types the paths and inputs a matcher names, and the outputs override() takes, so a
// misspelt path or output does not compile; an address (a string) takes any path.
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { Plan } from 'converge';
import { provb } from 'converge/providers/b';
import { prova } from 'converge/providers/a';
import { expectPlan, match, mockProviders, type InputPath, type InputsOf } from 'converge/testing';
import 'converge/testing/vitest'; // types the matchers on vitest's expect

declare const plan: Plan;
const net = provb.network('net', { label: 'app' });
const fw = provb.firewall('fw', { name: 'fw', networkId: net.out('networkId') });
const web = provb.instance('web', {
  hostname: 'web',
  diskImage: 'ubuntu-jammy',
  networkId: net.out('networkId'),
  firewallId: fw.out('firewallId'),
});
const c1 = prova.instance('c1', { name: 'c1', image: 'images:alpine/3.20' });

describe('vitest matchers, after expect.extend(convergeMatchers)', () => {
  it('take the typed declaration and its input paths', () => {
    expect(plan).toUpdate(web, { paths: ['size', 'hostname'] });
    expect(plan).toReplace(web, { because: 'diskImage' });
    expect(plan).toReplace(web, { because: ['size', 'replace_requested'] });
    expect(plan).toHaveDrift(fw, { paths: ['ingressRules[0].cidrs'] });
    expect(plan).toUpdate(c1, { paths: ['config', 'limits.memory'] });
    // @ts-expect-error 'sise' is no input of provb.instance
    expect(plan).toUpdate(web, { paths: ['sise'] });
    // @ts-expect-error 'diskimage' is no input of provb.instance
    expect(plan).toReplace(web, { because: 'diskimage' });
    // @ts-expect-error 'ingresRules' is no input of provb.firewall
    expect(plan).toHaveDrift(fw, { paths: ['ingresRules'] });
  });

  it('take any path with an address', () => {
    expect(plan).toUpdate('web', { paths: ['anything.at[0].all'] });
    expect(plan).toCreate({ type: 'provb:index/instance:Instance', inputs: { size: match.anyValue() } });
    expect(plan).not.toDelete('net');
    expect(plan).toChangeOnly([web, 'net']);
    expect(plan).toHaveNoChanges();
  });
});

describe('expectPlan (node:test)', () => {
  it('types the same paths', () => {
    expectPlan(plan).toUpdate(web, { paths: ['size'] });
    expectPlan(plan).not.toReplace(web, { because: 'diskImage' });
    // @ts-expect-error 'hostnme' is no input of provb.instance
    expectPlan(plan).toUpdate(web, { paths: ['hostnme'] });
    // @ts-expect-error 'image' is no input of provb.network
    expectPlan(plan).not.toReplace(net, { because: 'image' });
  });
});

describe('InputPath', () => {
  it('reaches into objects and lists', () => {
    type FwPath = InputPath<InputsOf<typeof fw>>;
    const deep: FwPath = 'ingressRules[0].cidrs';
    const top: FwPath = 'name';
    // @ts-expect-error 'nmae' is no input of provb.firewall
    const misspelt: FwPath = 'nmae';
    expectTypeOf<FwPath>().toBeString();
    expectTypeOf([deep, top, misspelt]).toBeArray();
  });
});

describe('mocks.override', () => {
  it('takes the outputs of a typed declaration', () => {
    const mocks = mockProviders(provb({ token: 'unused', region: 'LON1' }));
    mocks.override(net, { networkId: 'fixed' });
    mocks.override('net', { anything: 1 });
    // @ts-expect-error 'networkID' is no output of provb.network
    mocks.override(net, { networkID: 'fixed' });
    // @ts-expect-error networkId is a string
    mocks.override(net, { networkId: 7 });
  });
});
