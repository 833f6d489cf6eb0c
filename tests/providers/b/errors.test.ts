import { describe, expect, it } from 'vitest';
import { notFoundCodes, parseCivoError } from '../../../src/providers/b/errors.js';

describe('provb vendor error bodies', () => {
  it('takes the reason and details, and decides not-found by the code', () => {
    expect(
      parseCivoError(404, {
        code: 'database_network_not_found',
        reason: 'Failed to find the network within the internal database',
        result: 'Resource not found',
      }),
    ).toEqual({
      detail: 'Failed to find the network within the internal database',
      vendorCode: 'database_network_not_found',
      notFound: true,
    });
    expect(parseCivoError(200, { code: 'database_instance_find', reason: 'x' }).notFound).toBe(true);
    expect(
      parseCivoError(400, { code: 'parameter_name_invalid', reason: 'The name supplied was empty', details: 'name' }),
    ).toEqual({ detail: 'The name supplied was empty, name', vendorCode: 'parameter_name_invalid', notFound: false });
  });

  it('takes any 404 with a JSON error body as not-found (codes the client does not know), never a plain-text 404', () => {
    expect(
      parseCivoError(404, {
        code: 'database_service_not_found',
        reason: 'Failed to find the database within the internal database',
      }).notFound,
    ).toBe(true);
    expect(parseCivoError(404, { code: 'some_code_nobody_documented', reason: 'gone' }).notFound).toBe(true);
    expect(parseCivoError(404, '404 page not found').notFound).toBe(false);
    // A "not found" code answered 400 is a refusal of the request (a bad size on create), not a missing object.
    expect(
      parseCivoError(400, {
        code: 'database_size_not_found',
        reason: 'Failed to find the size within the internal database',
      }).notFound,
    ).toBe(false);
  });

  it('joins the lines of a quota reason', () => {
    expect(parseCivoError(403, { code: 'quota_limit_reached', reason: 'cpu\nram' }).detail).toBe('cpu ram');
  });

  it('reads the older authentication form and non-JSON bodies', () => {
    expect(parseCivoError(401, { result: 'requires_authentication', status: 401 })).toMatchObject({
      vendorCode: 'requires_authentication',
      notFound: false,
    });
    expect(parseCivoError(404, '404 page not found')).toEqual({ detail: '404 page not found', notFound: false });
    expect(parseCivoError(502, undefined).detail).toBe('no details');
  });

  it('knows the irregular instance code and the cluster and pool codes', () => {
    for (const c of [
      'database_instance_find',
      'database_kubernetes_cluster_not_found',
      'database_cluster_pool_not_found',
      'database_ip_find',
    ])
      expect(notFoundCodes.has(c)).toBe(true);
  });
});
