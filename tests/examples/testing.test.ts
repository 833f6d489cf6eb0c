// The README's "Testing your stacks", verbatim (the regions below): a stack's changes asserted with
// the plan matchers in vitest, against mock providers (no network, milliseconds a plan).
// #region vitest
import { expect, it } from 'vitest';
import { provb } from 'converge/providers/b';
import { convergeMatchers, match, mockProviders, planChange, planStack, planSnapshot } from 'converge/testing';
import 'converge/testing/vitest'; // types the matchers on vitest's expect
import { webStack } from './web-stack.js';

expect.extend(convergeMatchers);
const mocks = () => mockProviders(provb({ token: 'unused', region: 'LON1' })); // never sent anywhere

it('grows the instance in place, and replaces it to shrink it', async () => {
  const { web } = webStack();
  const grow = await planChange(webStack().all, webStack({ size: 'g3.large' }).all, { providers: mocks() });
  expect(grow).toUpdate(web, { paths: ['size'] });
  expect(grow).toChangeOnly([web]);

  const shrink = await planChange(webStack().all, webStack({ size: 'g3.small' }).all, { providers: mocks() });
  expect(shrink).toReplace(web, { because: 'size' }); // Civo cannot shrink a disk in place
});

it('opens SSH to the world by changing only the firewall rule', async () => {
  const { fw } = webStack();
  const plan = await planChange(webStack().all, webStack({ sshFrom: ['0.0.0.0/0'] }).all, { providers: mocks() });
  expect(plan).toUpdate(fw, {
    paths: ['ingressRules[0].cidrs'],
    inputs: { ingressRules: match.arrayWith([match.objectLike({ cidrs: ['0.0.0.0/0'] })]) },
  });
  expect(plan).not.toReplace(fw);
});

it('creates a new stack, with references known only after apply', async () => {
  const plan = await planStack(webStack().all, { providers: mocks() });
  expect(plan).toCreate({ type: 'provb:index/instance:Instance', inputs: { firewallId: match.unknown() } });
  expect(planSnapshot(plan)).toMatchSnapshot(); // ids, timestamps and unknowns masked
});

it('sees a change made outside converge, and puts it back', async () => {
  const { fw } = webStack();
  const outside = mocks().drift(fw, { name: 'renamed-by-hand' });
  const plan = await planChange(webStack().all, webStack().all, { providers: outside });
  expect(plan).toHaveDrift(fw, { paths: ['name'] });
  expect(plan).toUpdate(fw, { paths: ['name'] });
});
// #endregion vitest
