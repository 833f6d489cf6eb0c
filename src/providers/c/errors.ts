// Gcore error bodies → VendorError facts (HttpClient turns them into ProviderError). Cloud answers
// {exception_class, message, request_id, invalid_fields?}; CDN answers {errors: {field: [msg]}},
// {errors: [msg]}, {field: [msg]}, {message} or {detail}. Bodies are loosely typed: parse leniently.
import { describeBody, type VendorErrorParser } from '../../kit/http.js';

export const parseGcoreError: VendorErrorParser = (status, body, headers) => {
  const requestId = headers['x-request-id'];
  if (body && typeof body === 'object' && !Array.isArray(body)) {
    const b = body as Record<string, unknown>;
    if (typeof b.exception_class === 'string') {
      const fields =
        b.invalid_fields && typeof b.invalid_fields === 'object'
          ? ` (${describeFields(b.invalid_fields as Record<string, unknown>)})`
          : '';
      return {
        detail: `${typeof b.message === 'string' ? b.message : b.exception_class}${fields}`,
        vendorCode: b.exception_class,
        requestId: typeof b.request_id === 'string' ? b.request_id : requestId,
        notFound: status === 404 || b.exception_class === 'NotFoundError',
      };
    }
    if (Array.isArray(b.errors))
      return { detail: b.errors.map(String).join('; '), requestId, notFound: status === 404 };
    if (b.errors && typeof b.errors === 'object')
      return { detail: describeFields(b.errors as Record<string, unknown>), requestId, notFound: status === 404 };
    if (typeof b.message === 'string')
      return {
        detail: b.message,
        vendorCode: typeof b.code === 'number' ? String(b.code) : undefined,
        requestId,
        notFound: status === 404,
      };
    if (typeof b.detail === 'string') return { detail: b.detail, requestId, notFound: status === 404 };
    if (status === 400) return { detail: describeFields(b), requestId };
  }
  return { detail: describeBody(body), requestId, notFound: status === 404 };
};

function describeFields(fields: Record<string, unknown>): string {
  return Object.entries(fields)
    .map(
      ([k, v]) =>
        `${k}: ${Array.isArray(v) ? v.map(String).join(', ') : typeof v === 'string' ? v : JSON.stringify(v)}`,
    )
    .join('; ')
    .slice(0, 500);
}
