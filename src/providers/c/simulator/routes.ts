// The simulator's route table: Cloud and CDN rows, optionally mounted under a path prefix. Every
// handler first moves the Cloud tasks along their timeline, so objects appear and vanish exactly
// when their task finishes.
import type { Route } from '../../../kit/sim/router.js';
import { cloudRoutes } from './routes-cloud.js';
import { cdnRoutes } from './routes-cdn.js';
import { cdnCertificateRoutes } from './routes-cdn-certs.js';
import type { SimStore } from './store.js';

export function gcoreRoutes(basePath = ''): Route<SimStore>[] {
  const prefix = basePath.replace(/\/+$/, '');
  return [...cloudRoutes(), ...cdnRoutes(), ...cdnCertificateRoutes()].map((r) => ({
    ...r,
    path: `${prefix}${r.path}`,
    handler: (req, store) => { store.settle(); return r.handler(req, store); },
  }));
}
