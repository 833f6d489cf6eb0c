// src/kit/gone.ts: how every provider reads "the object is not there".
import { describe, expect, it } from 'vitest';
import { isNotFound, orNull } from '../../src/kit/gone.js';
import type { Engine } from '../../src/index.js';
import { setup, thing } from '../helpers/builders.js';
import { ProviderError } from '../../src/engine/errors.js';

const vendor = (facts: { notFound?: boolean; status?: number }) =>
  new ProviderError({ provider: 'p', operation: 'read x', retryable: false, detail: 'd', ...facts });

describe('isNotFound', () => {
  it('is true for a ProviderError whose vendor answer meant not found', () => {
    expect(isNotFound(vendor({ notFound: true, status: 404 }))).toBe(true);
    expect(isNotFound(vendor({ notFound: true, status: 400 }))).toBe(true);
  });

  it('is false for other ProviderErrors, even a bare 404 status the parser did not call not found', () => {
    expect(isNotFound(vendor({ status: 500 }))).toBe(false);
    expect(isNotFound(vendor({ status: 404, notFound: false }))).toBe(false);
  });

  it('is false for anything that is not a ProviderError', () => {
    expect(isNotFound(Object.assign(new Error('x'), { notFound: true }))).toBe(false);
    expect(isNotFound({ notFound: true })).toBe(false);
    expect(isNotFound(null)).toBe(false);
  });
});

describe('orNull', () => {
  it('answers what run answers', async () => {
    expect(await orNull(async () => ({ id: 'x' }))).toEqual({ id: 'x' });
  });

  it('answers null when the vendor says not found', async () => {
    expect(await orNull(() => Promise.reject(vendor({ notFound: true })))).toBeNull();
  });

  it('rethrows any other failure, the same error', async () => {
    const error = vendor({ status: 503 });
    await expect(orNull(() => Promise.reject(error))).rejects.toBe(error);
  });
});

// A delete answered not found is done, absorbed in one layer: the engine's delete step (a
// provider's delete throws what its vendor says).
describe('a delete answered not found', () => {
  it.each([
    ['removed from the stack', (engine: Engine) => engine.plan([], { refresh: false })],
    ['destroyed', (engine: Engine) => engine.planDestroy({ refresh: false })],
  ])('%s: the step succeeds and the record is removed', async (_how, plan) => {
    const { engine, cloud } = setup();
    await engine.apply(await engine.plan([thing('web')]));
    cloud.objects.clear(); // gone outside converge, and the plan does not read it
    cloud.calls = [];
    const result = await engine.apply(await plan(engine));
    expect(cloud.calls.map((c) => c.op)).toEqual(['delete']);
    expect(result.succeeded.map((s) => [s.address, s.action])).toEqual([['web', 'delete']]);
    expect((await engine.state()).resources).toEqual({});
  });
});
