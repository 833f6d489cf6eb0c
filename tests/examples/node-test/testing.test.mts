// The README's "Testing your stacks" under node:test (the region below): the same matchers as plain
// assertions that throw node's AssertionError. Run by tests/examples/testing-node.test.ts with
// `node --import tsx --test`.
// #region node-test
import { test } from 'node:test';
import { provb } from 'converge/providers/b';
import { expectPlan, mockProviders, planChange } from 'converge/testing';
import { webStack } from '../web-stack.js';

const mocks = () => mockProviders(provb({ token: 'unused', region: 'LON1' }));

await test('grows the instance in place, and replaces it to shrink it', async () => {
  const { web } = webStack();
  const grow = await planChange(webStack().all, webStack({ size: 'g3.large' }).all, { providers: mocks() });
  expectPlan(grow).toUpdate(web, { paths: ['size'] });
  expectPlan(grow).toChangeOnly([web]);

  const shrink = await planChange(webStack().all, webStack({ size: 'g3.small' }).all, { providers: mocks() });
  expectPlan(shrink).toReplace(web, { because: 'size' });
  expectPlan(shrink).not.toUpdate(web);
});
// #endregion node-test
