import { describe, expect, it } from 'vitest';
import { parseGcoreError } from '../../../src/providers/c/errors.js';

describe('parseGcoreError', () => {
  it('reads a Cloud error body: exception class, message, request id and invalid fields', () => {
    const v = parseGcoreError(
      400,
      {
        exception_class: 'ValidationError',
        message: 'Validation error',
        request_id: 'abc',
        invalid_fields: { name: ['too long'] },
      },
      {},
    );
    expect(v).toEqual({
      detail: 'Validation error (name: too long)',
      vendorCode: 'ValidationError',
      requestId: 'abc',
      notFound: false,
    });
    expect(
      parseGcoreError(
        404,
        { exception_class: 'NotFoundError', message: 'Instance x could not be found', request_id: 'r' },
        {},
      ).notFound,
    ).toBe(true);
  });

  it('reads every CDN error shape', () => {
    expect(parseGcoreError(400, { errors: { name: ['Origin Group name should be unique.'] } }, {}).detail).toBe(
      'name: Origin Group name should be unique.',
    );
    expect(parseGcoreError(400, { errors: ['Deletion of an active resource is prohibited.'] }, {}).detail).toBe(
      'Deletion of an active resource is prohibited.',
    );
    expect(parseGcoreError(400, { name: ['There are resources using this group'] }, {}).detail).toBe(
      'name: There are resources using this group',
    );
    expect(parseGcoreError(400, { message: 'JSON parse error - Expecting value' }, {}).detail).toBe(
      'JSON parse error - Expecting value',
    );
    expect(parseGcoreError(403, { message: 'You do not have permission to perform this action.' }, {}).notFound).toBe(
      false,
    );
    expect(parseGcoreError(404, { detail: 'Not found.' }, { 'x-request-id': 'q' })).toEqual({
      detail: 'Not found.',
      requestId: 'q',
      notFound: true,
    });
  });

  it('does not depend on a 404 body, and keeps text bodies short', () => {
    expect(parseGcoreError(404, undefined, {}).notFound).toBe(true);
    expect(parseGcoreError(502, 'x'.repeat(2000), {}).detail).toHaveLength(500);
  });

  it('redacts secret-looking fields of an unknown body', () => {
    const v = parseGcoreError(500, [{ sslPrivateKey: '-----BEGIN PRIVATE KEY-----' }], {});
    expect(v.detail).not.toContain('BEGIN PRIVATE KEY');
  });
});
