// Civo error bodies → VendorError facts. Not-found is decided by the vendor `code` field, as the API
// and its clients do, and by an HTTP 404 carrying a JSON error body (codes the client does not know,
// such as the one for a missing database or object store); a plain-text 404 (unknown route) never is.
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
  'database_cluster_pool_instance_not_found',
  'database_kubernetes_node_not_found',
  'database_firewall_rules_find',
]);

/** The vendor's error body: `{code, reason, result?, details?}` (or the older `{result, status}` auth form). */
export function parseCivoError(status: number, body: unknown): VendorError {
  if (body && typeof body === 'object' && !Array.isArray(body)) {
    const b = body as { code?: unknown; reason?: unknown; result?: unknown; details?: unknown };
    const code =
      typeof b.code === 'string'
        ? b.code
        : b.result === 'requires_authentication'
          ? 'requires_authentication'
          : undefined;
    const reason = typeof b.reason === 'string' ? b.reason.replace(/\n/g, ' ') : undefined;
    const details = typeof b.details === 'string' && b.details ? `, ${b.details}` : '';
    const detail = reason ? `${reason}${details}` : describeBody(body);
    const notFound =
      (code !== undefined && notFoundCodes.has(code) && status !== 400) ||
      (status === 404 && (code !== undefined || typeof b.reason === 'string'));
    return { detail, vendorCode: code, notFound };
  }
  // Non-JSON bodies (a plain-text 404 page for an unknown route) carry no code: never "not found".
  return { detail: describeBody(body) || `HTTP ${status}`, notFound: false };
}

/** A ProviderError for an object a handler looked for and did not find (not an HTTP answer). */
export function missingObject(operation: string, detail: string): ProviderError {
  return new ProviderError({ provider: 'provb', operation, retryable: false, notFound: true, detail });
}
