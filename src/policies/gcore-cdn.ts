// gcore-cdn-https-redirect: a Gcore CDN resource redirects plain HTTP to HTTPS.
import { isUnknown } from '../engine/values/unknown.js';
import type { Policy } from '../engine/plan/policy.js';

/**
 * A Gcore CDN resource (`provc:index/cdnResource:CdnResource`) must have the vendor's
 * `redirect_http_to_https` option enabled with value true, so no visitor is served over plain
 * HTTP. Options (or the option) known only after apply leave the check pending.
 *
 * @example
 * ```ts
 * import { Engine } from 'converge';
 * import { provc } from 'converge/providers/c';
 * import { gcoreCdnHttpsRedirect } from 'converge/policies';
 *
 * const engine = new Engine({
 *   providers: [provc({ apiKey: 'your-gcore-api-key', cloudProjectId: 1, cloudRegionId: 76 })],
 *   policies: [{ policy: gcoreCdnHttpsRedirect, level: 'advisory' }],
 * });
 * const cdn = provc.cdnResource('site', {
 *   cname: 'cdn.example.com',
 *   origin: 'origin.example.com',
 *   options: { redirect_http_to_https: { enabled: true, value: true } },
 * });
 * void [engine, cdn];
 * ```
 */
export const gcoreCdnHttpsRedirect: Policy = {
  name: 'gcore-cdn-https-redirect',
  description: 'A Gcore CDN resource redirects HTTP to HTTPS (option redirect_http_to_https).',
  types: ['provc:index/cdnResource:CdnResource'],
  resource: (step, report) => {
    const after = step.after;
    if (!after) return;
    const path = 'options.redirect_http_to_https';
    const options = after.options;
    if (isUnknown(options)) return report.pending('options is known only after apply', { path: 'options' });
    const option = (options as Record<string, unknown> | undefined)?.redirect_http_to_https;
    if (isUnknown(option)) return report.pending('the option is known only after apply', { path });
    const o = (option ?? {}) as { enabled?: unknown; value?: unknown };
    if (isUnknown(o.enabled) || isUnknown(o.value))
      return report.pending('the option is known only after apply', { path });
    if (o.enabled !== true || o.value !== true)
      report('HTTP is not redirected to HTTPS; set options.redirect_http_to_https to { enabled: true, value: true }', {
        path,
      });
  },
};
