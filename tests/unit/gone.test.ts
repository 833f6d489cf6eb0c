// src/kit/gone.ts: how every provider reads "the object is not there".
import { describe, expect, it } from 'vitest';
import { ignoreGone, isNotFound, orNull } from '../../src/kit/gone.js';
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

describe('ignoreGone', () => {
  it('counts an object already gone as done', async () => {
    await expect(ignoreGone(() => Promise.reject(vendor({ notFound: true })))).resolves.toBeUndefined();
  });

  it('rethrows any other failure, the same error', async () => {
    const error = vendor({ status: 409 });
    await expect(ignoreGone(() => Promise.reject(error))).rejects.toBe(error);
  });

  it('resolves to undefined whatever run answers', async () => {
    await expect(ignoreGone(async () => 'deleted')).resolves.toBeUndefined();
  });
});
