// The routes of one kind of named LXD object from a table row: list (with recursion), create, get,
// put (with If-Match where the kind has ETags), rename-free delete, lifecycle events, project scoping.
import type { Route, SimRequest, SimResponse } from '../../../kit/sim/router.js';
import { scoped, type SimStore, type Obj } from './store.js';
import { created, error, etagMismatch, projectOf, recursion, sync, type Body } from './wire.js';

export type Spec = {
  readonly base: string;
  readonly what: string;
  /** Lifecycle event prefix: network → network-created, network-updated, network-deleted. */
  readonly entity: string;
  readonly map: (s: SimStore) => Map<string, Obj>;
  /** Project-scoped key ('proj/name') or global ('name'). */
  readonly scopedKey: boolean;
  /** Builds the stored object from a create body; a string is an error message (400 unless `code`). */
  readonly make: (body: Body, s: SimStore, req: SimRequest) => Obj | { code: number; message: string };
  /** Fields a PUT replaces (omitted ones become zero values). */
  readonly writable: (body: Body, current: Obj, s: SimStore) => Partial<Obj> | { code: number; message: string };
  readonly view?: (o: Obj, s: SimStore, req: SimRequest) => Record<string, unknown>;
  readonly canDelete?: (o: Obj, s: SimStore, req: SimRequest) => string | null;
  readonly afterCreate?: (o: Obj, s: SimStore, req: SimRequest) => void;
  readonly duplicate: { readonly code: number; readonly message: string };
  readonly etag?: boolean;
  readonly gate?: (s: SimStore) => boolean;
};

const isError = (v: unknown): v is { code: number; message: string } =>
  !!v && typeof v === 'object' && 'code' in v && 'message' in v && !('name' in v);

export function namedRoutes(spec: Spec): Route<SimStore>[] {
  const key = (req: SimRequest, name: string) => (spec.scopedKey ? scoped(projectOf(req), name) : name);
  const view = (o: Obj, s: SimStore, req: SimRequest) => (spec.view ? spec.view(o, s, req) : o);
  const gated = (h: (req: SimRequest, s: SimStore) => SimResponse) => (req: SimRequest, s: SimStore) =>
    spec.gate && !spec.gate(s) ? error(404, 'not found') : h(req, s);
  const lifecycle = (req: SimRequest, s: SimStore, verb: string, name: string) =>
    s.events.lifecycle(`${spec.entity}-${verb}`, `${spec.base}/${name}`, spec.scopedKey ? projectOf(req) : '');
  const missingProject = (req: SimRequest, s: SimStore) =>
    spec.scopedKey && !s.projects.has(projectOf(req))
      ? error(404, `Failed loading project "${projectOf(req)}": Project not found`)
      : null;
  return [
    {
      method: 'GET',
      path: spec.base,
      handler: gated((req, s) => {
        const prefix = spec.scopedKey ? `${projectOf(req)}/` : '';
        const items = [...spec.map(s).entries()].filter(([k]) => k.startsWith(prefix)).map(([, o]) => o);
        return sync(
          recursion(req)
            ? items.map((o) => view(o, s, req))
            : items.map((o) => `${spec.base}/${encodeURIComponent(o.name)}`),
        );
      }),
    },
    {
      method: 'POST',
      path: spec.base,
      handler: gated((req, s) => {
        const bad = missingProject(req, s);
        if (bad) return bad;
        const body = (req.body ?? {}) as Body;
        const made = spec.make(body, s, req);
        if (isError(made)) return error(made.code, made.message);
        if (spec.map(s).has(key(req, made.name))) return error(spec.duplicate.code, spec.duplicate.message);
        spec.map(s).set(key(req, made.name), made);
        spec.afterCreate?.(made, s, req);
        lifecycle(req, s, 'created', made.name);
        return created(`${spec.base}/${encodeURIComponent(made.name)}`);
      }),
    },
    {
      method: 'GET',
      path: `${spec.base}/:name`,
      handler: gated((req, s) => {
        const o = spec.map(s).get(key(req, req.params.name!));
        if (!o) return missingProject(req, s) ?? error(404, `${spec.what} not found`);
        const v = view(o, s, req);
        return sync(v, spec.etag === false ? {} : { etag: v });
      }),
    },
    {
      method: 'PUT',
      path: `${spec.base}/:name`,
      handler: gated((req, s) => {
        const o = spec.map(s).get(key(req, req.params.name!));
        if (!o) return error(404, `${spec.what} not found`);
        if (spec.etag !== false) {
          const mismatch = etagMismatch(req, view(o, s, req));
          if (mismatch) return mismatch;
        }
        const next = spec.writable((req.body ?? {}) as Body, o, s);
        if (isError(next)) return error(next.code, next.message);
        Object.assign(o, next);
        lifecycle(req, s, 'updated', o.name);
        return sync({});
      }),
    },
    {
      method: 'DELETE',
      path: `${spec.base}/:name`,
      handler: gated((req, s) => {
        const k = key(req, req.params.name!);
        const o = spec.map(s).get(k);
        if (!o) return error(404, `${spec.what} not found`);
        const refusal = spec.canDelete?.(o, s, req);
        if (refusal) return error(400, refusal);
        spec.map(s).delete(k);
        lifecycle(req, s, 'deleted', o.name);
        return sync({});
      }),
    },
  ];
}
