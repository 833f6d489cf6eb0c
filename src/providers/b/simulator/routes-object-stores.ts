// Simulated object stores and their credentials (creating → ready, a credential made with a store
// unless one is named), under /v2/objectstores and /v2/objectstore/credentials.
import type { Route } from '../../../kit/sim/router.js';
import type { Wire } from './object.js';
import type { SimStore } from './store.js';
import { byId, bodyOf, fail, given, missing, ok, page, success, view } from './answers.js';
import { route } from './endpoint.js';

function newCredential(s: SimStore, r: string, name: string, b: Wire): Wire {
  const c: Wire = {
    id: s.id(),
    name,
    access_key_id: given(b.access_key_id) ?? `AK${s.secret(8).toUpperCase()}`,
    secret_access_key_id: given(b.secret_access_key_id) ?? s.secret(20),
    max_size_gb: Number(b.max_size_gb) || 0,
    suspended: false,
    status: 'pending',
    region: r,
  };
  s.credentials.set(c.id, c);
  s.schedule(s.timings.credential, () => {
    if (c.status === 'pending') c.status = 'ready';
  });
  return c;
}

export function objectStoreRoutes(): Route<SimStore>[] {
  const noStore = () => missing('database_service_not_found', 'object store');
  const noCred = () => missing('database_service_not_found', 'object store credential');
  const storeView = (o: Wire) => view(o);
  return [
    route('GET', '/v2/objectstores', (q, s, r) => page(q, s.inRegion(s.objectStores, r).map(storeView))),
    route('GET', '/v2/objectstores/:id', (q, s, r) => {
      const o = byId(s.objectStores, q.params.id!, r);
      return o ? ok(storeView(o)) : noStore();
    }),
    route('POST', '/v2/objectstores', (q, s, r) => {
      const b = bodyOf(q);
      const name = given<string>(b.name) ?? `bucket-${s.id().slice(0, 8)}`;
      if (/\s/.test(name) || name.length > 63) return fail('parameter_name_invalid', 'The name is invalid');
      if (s.inRegion(s.objectStores, r).some((o) => o.name === name))
        return fail('parameter_name_invalid', `An object store named ${name} already exists`);
      const key = given<string>(b.access_key_id);
      const cred = key
        ? s.inRegion(s.credentials, r).find((c) => c.access_key_id === key)
        : newCredential(s, r, name, {});
      if (!cred)
        return fail('database_service_not_found', 'Failed to find the credential within the internal database', 400);
      const o: Wire = {
        id: s.id(),
        name,
        max_size: Number(b.max_size_gb) || 500,
        owner_info: { access_key_id: cred.access_key_id, name: cred.name, credential_id: cred.id },
        objectstore_endpoint: `objectstore.${r.toLowerCase()}.civo.com`,
        status: 'creating',
        region: r,
      };
      s.objectStores.set(o.id, o);
      s.schedule(s.timings.objectStore, () => {
        if (o.status === 'creating') o.status = 'ready';
      });
      return ok(storeView(o));
    }),
    route('PUT', '/v2/objectstores/:id', (q, s, r) => {
      const o = byId(s.objectStores, q.params.id!, r);
      if (!o) return noStore();
      const size = Number(bodyOf(q).max_size_gb);
      if (size > 0) o.max_size = size;
      return ok(storeView(o));
    }),
    route('GET', '/v2/objectstores/:id/stats', (q, s, r) => {
      const o = byId(s.objectStores, q.params.id!, r);
      if (!o) return noStore();
      return ok({ size_kb_utilised: 0, max_size_kb: Number(o.max_size) * 1024 * 1024, num_objects: 0 });
    }),
    route('DELETE', '/v2/objectstores/:id', (q, s, r) =>
      byId(s.objectStores, q.params.id!, r) && s.objectStores.delete(q.params.id!) ? success() : noStore(),
    ),
    route('GET', '/v2/objectstore/credentials', (q, s, r) => page(q, s.inRegion(s.credentials, r))),
    route('GET', '/v2/objectstore/credentials/:id', (q, s, r) => {
      const c = byId(s.credentials, q.params.id!, r);
      return c ? ok(c) : noCred();
    }),
    route('POST', '/v2/objectstore/credentials', (q, s, r) => {
      const b = bodyOf(q);
      if (!given(b.name)) return fail('parameter_name_invalid', 'The name supplied was empty');
      if (s.inRegion(s.credentials, r).some((c) => c.name === b.name))
        return fail('parameter_name_invalid', `A credential named ${b.name} already exists`);
      return ok(newCredential(s, r, b.name, b));
    }),
    route('PUT', '/v2/objectstore/credentials/:id', (q, s, r) => {
      const c = byId(s.credentials, q.params.id!, r);
      if (!c) return noCred();
      const b = bodyOf(q);
      if (given(b.access_key_id)) c.access_key_id = b.access_key_id;
      if (given(b.secret_access_key_id)) c.secret_access_key_id = b.secret_access_key_id;
      if (Number(b.max_size_gb) > 0) c.max_size_gb = Number(b.max_size_gb);
      return ok(c);
    }),
    route('DELETE', '/v2/objectstore/credentials/:id', (q, s, r) =>
      byId(s.credentials, q.params.id!, r) && s.credentials.delete(q.params.id!) ? success() : noCred(),
    ),
  ];
}
