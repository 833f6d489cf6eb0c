// Civo error bodies → VendorError facts. Not-found is decided by the vendor `code` field, as the API
// and its clients do (the HTTP status is only a hint).
import { describeBody, type VendorError } from '../../kit/http.js';
import { ProviderError } from '../../engine/errors.js';

/** Codes the API answers when an object does not exist (instances use the irregular `database_instance_find`). */
export const notFoundCodes: ReadonlySet<string> = new Set([
  'database_instance_find',
  'database_kubernetes_cluster_not_found',
  'database_cluster_pool_not_found',
  'database_network_not_found',
  'database_firewall_not_found',
  'database_volume_not_found',
  'database_ssh_key_not_found',
  'database_dns_domain_not_found',
  'database_dns_record_not_found',
  'database_loadbalancer_not_found',
  'database_ip_find',
  'database_disk_image_not_found',
  'database_size_not_found',
  'database_database_not_found',
  'database_objectstore_not_found',
  'database_objectstore_credential_not_found',
  'database_subnet_not_found',
]);

/** The vendor's error body: `{code, reason, result?, details?}` (or the older `{result, status}` auth form). */
export function parseCivoError(status: number, body: unknown): VendorError {
  if (body && typeof body === 'object' && !Array.isArray(body)) {
    const b = body as { code?: unknown; reason?: unknown; result?: unknown; details?: unknown };
    const code = typeof b.code === 'string' ? b.code : b.result === 'requires_authentication' ? 'requires_authentication' : undefined;
    const reason = typeof b.reason === 'string' ? b.reason.replace(/\n/g, ' ') : undefined;
    const details = typeof b.details === 'string' && b.details ? `, ${b.details}` : '';
    const detail = reason ? `${reason}${details}` : describeBody(body);
    return { detail, vendorCode: code, notFound: code !== undefined && notFoundCodes.has(code) };
  }
  // Non-JSON bodies (a plain-text 404 page for an unknown route) carry no code: never "not found".
  return { detail: describeBody(body) || `HTTP ${status}`, notFound: false };
}

/** A ProviderError for an object a handler looked for and did not find (not an HTTP answer). */
export function missingObject(operation: string, detail: string): ProviderError {
  return new ProviderError({ provider: 'provb', operation, retryable: false, notFound: true, detail });
}
