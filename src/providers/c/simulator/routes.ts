// The simulator's route table: Cloud and CDN rows, optionally mounted under a path prefix. Every
// handler first moves the Cloud tasks along their timeline, so objects appear and vanish exactly
// when their task finishes, and every CDN request is written to the activity log.
import type { Route } from '../../../kit/sim/router.js';
import { cloudRoutes } from './routes-cloud.js';
import { cdnRoutes } from './routes-cdn.js';
import { cdnRuleRoutes } from './routes-cdn-rules.js';
import { cdnCertificateRoutes } from './routes-cdn-certs.js';
import { cdnActivityRoutes, recordActivity } from './routes-cdn-activity.js';
import type { SimStore } from './store.js';

export function gcoreRoutes(basePath = ''): Route<SimStore>[] {
  const prefix = basePath.replace(/\/+$/, '');
  return [...cloudRoutes(), ...cdnRuleRoutes(), ...cdnRoutes(), ...cdnCertificateRoutes(), ...cdnActivityRoutes()].map(
    (r) => ({
      ...r,
      path: `${prefix}${r.path}`,
      handler: async (req, store) => {
        store.settle();
        const res = await r.handler(req, store);
        // Every CDN request lands in the account's activity log, its path relative to /cdn.
        if (r.path.startsWith('/cdn/')) recordActivity(store, req, req.path.slice(prefix.length + 4), res);
        return res;
      },
    }),
  );
}
