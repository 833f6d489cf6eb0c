// Cloud routes: tasks, floating IPs (writes answer {"tasks": [...]} and act when the task
// finishes), bare metal servers, GPU clusters and images, inference flavors. Lists answer
// {count, results} with the vendor's default page sizes (1000; 10 for GPU clusters and tasks).
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { Route, SimRequest } from '../../../kit/sim/router.js';
import { cloudInvalid, cloudNotFound, cloudPage, inScope, ok, tasks } from './answers.js';
import type { Wire } from './fixtures.js';
import { iso, type SimStore } from './store.js';
import { filterClusters, filterServers } from './filters.js';

const SCOPE = '/:project_id/:region_id';
const tagMap = z.record(z.string().min(1).max(255), z.string().min(1).max(255));
const scopeOf = (req: SimRequest) => ({
  projectId: Number(req.params.project_id),
  regionId: Number(req.params.region_id),
});
const toTags = (m: Record<string, string>) =>
  Object.entries(m).map(([key, value]) => ({ key, value, read_only: false }));
const tagsOf = (o: Wire) => o.tags as { key: string; value: string; read_only: boolean }[];

function findIn(map: Map<string, Wire>, req: SimRequest, id: string): Wire | undefined {
  const o = map.get(id);
  return o && inScope(req)(o) ? o : undefined;
}

function fixedIpFor(portId: string | null, given: string | null | undefined): string | null {
  if (!portId) return null;
  return given ?? `10.0.${parseInt(portId.slice(0, 2), 16) % 250}.${(parseInt(portId.slice(2, 4), 16) % 250) + 2}`;
}

const fipBasic = (o: Wire): Wire =>
  Object.fromEntries(Object.entries(o).filter(([k]) => k !== 'instance' && k !== 'loadbalancer'));

const fipCreate = z
  .object({
    port_id: z.string().uuid().nullable().optional(),
    fixed_ip_address: z.ipv4().nullable().optional(),
    tags: tagMap.optional(),
  })
  .strict();
const fipPatch = z
  .object({
    port_id: z.string().uuid().nullable().optional(),
    fixed_ip_address: z.ipv4().nullable().optional(),
    tags: z.record(z.string(), z.string().min(1).max(255).nullable()).nullable().optional(),
  })
  .strict();

export function cloudRoutes(): Route<SimStore>[] {
  return [
    {
      method: 'GET',
      path: '/cloud/v1/tasks',
      handler: (req, s) => {
        const q = req.query;
        const states = q.getAll('state');
        const projects = q.getAll('project_id').map(Number);
        const regions = q.getAll('region_id').map(Number);
        const type = q.get('task_type');
        const bound = (k: string) => (q.get(k) === null ? undefined : Date.parse(q.get(k)!));
        const from = bound('from_timestamp');
        const to = bound('to_timestamp');
        if (Number.isNaN(from) || Number.isNaN(to))
          return cloudInvalid(Number.isNaN(from) ? 'from_timestamp' : 'to_timestamp', 'Not a valid datetime.');
        // created_on has whole seconds (naive UTC), and the bounds compare against it.
        const createdOn = (t: { startedAt: number }) => Math.floor(t.startedAt / 1000) * 1000;
        const items = [...s.tasks.values()].filter(
          (t) =>
            (!states.length || states.includes(t.state)) &&
            (!projects.length || projects.includes(t.projectId ?? -1)) &&
            (!regions.length || regions.includes(t.regionId ?? -1)) &&
            (type === null || t.taskType === type) &&
            (from === undefined || createdOn(t) >= from) &&
            (to === undefined || createdOn(t) <= to),
        );
        const asc = (q.get('order_by') ?? q.get('sorting') ?? 'desc') === 'asc';
        return cloudPage(
          req,
          (asc ? items : items.reverse()).map((t) => s.taskJson(t)),
          10,
        );
      },
    },
    {
      method: 'GET',
      path: '/cloud/v1/tasks/:task_id',
      handler: (req, s) => {
        const t = s.tasks.get(req.params.task_id!);
        return t ? ok(s.taskJson(t)) : cloudNotFound('Task', req.params.task_id!);
      },
    },

    {
      method: 'GET',
      path: `/cloud/v1/floatingips${SCOPE}`,
      handler: (req, s) => {
        const status = req.query.get('status');
        if (status !== null && !['ACTIVE', 'DOWN', 'ERROR'].includes(status))
          return cloudInvalid('status', `'${status}' is not a valid choice`);
        const keys = req.query.getAll('tag_key');
        let pairs: Record<string, string> = {};
        const raw = req.query.get('tag_key_value');
        if (raw !== null) {
          try {
            pairs = JSON.parse(raw);
          } catch {
            return cloudInvalid('tag_key_value', 'must be a JSON object');
          }
        }
        const items = [...s.floatingIps.values()]
          .filter(inScope(req))
          .filter(
            (o) =>
              (status === null || o.status === status) &&
              keys.every((k) => tagsOf(o).some((t) => t.key === k)) &&
              Object.entries(pairs).every(([k, v]) => tagsOf(o).some((t) => t.key === k && t.value === v)),
          );
        return cloudPage(req, items, 1000);
      },
    },
    {
      method: 'POST',
      path: `/cloud/v1/floatingips${SCOPE}`,
      body: fipCreate,
      handler: (req, s) => {
        const b = req.body as z.output<typeof fipCreate>;
        const scope = scopeOf(req);
        const task = s.addTask('create_fip', scope, b, () => {
          const id = randomUUID();
          const port = b.port_id ?? null;
          s.floatingIps.set(id, {
            id,
            floating_ip_address: s.nextPublicIp(),
            fixed_ip_address: fixedIpFor(port, b.fixed_ip_address),
            port_id: port,
            router_id: port ? '7f1b9e3c-2a55-4d6e-9a1b-3c4d5e6f7a8b' : null,
            status: port ? 'ACTIVE' : 'DOWN',
            project_id: scope.projectId,
            region_id: scope.regionId,
            region: 'Luxembourg-2',
            tags: toTags(b.tags ?? {}),
            task_id: null,
            creator_task_id: task,
            created_at: iso(),
            updated_at: iso(),
            instance: null,
            loadbalancer: null,
          });
          return { floatingips: [id] };
        });
        return tasks(task);
      },
    },
    {
      method: 'GET',
      path: `/cloud/v1/floatingips${SCOPE}/:id`,
      handler: (req, s) => {
        const o = findIn(s.floatingIps, req, req.params.id!);
        return o ? ok(fipBasic(o)) : cloudNotFound('Floating IP', req.params.id!);
      },
    },
    {
      method: 'PATCH',
      path: `/cloud/v2/floatingips${SCOPE}/:id`,
      body: fipPatch,
      handler: (req, s) => {
        const o = findIn(s.floatingIps, req, req.params.id!);
        if (!o) return cloudNotFound('Floating IP', req.params.id!);
        const b = req.body as z.output<typeof fipPatch>;
        return tasks(
          s.addTask('update_floating_ip', scopeOf(req), b, () => {
            if (b.port_id !== undefined) {
              o.port_id = b.port_id;
              o.fixed_ip_address = fixedIpFor(b.port_id, b.fixed_ip_address);
              o.status = b.port_id ? 'ACTIVE' : 'DOWN';
              o.router_id = b.port_id ? '7f1b9e3c-2a55-4d6e-9a1b-3c4d5e6f7a8b' : null;
            } else if (b.fixed_ip_address !== undefined && o.port_id)
              o.fixed_ip_address = b.fixed_ip_address ?? fixedIpFor(o.port_id as string, null);
            if (b.tags) {
              const tags = new Map(tagsOf(o).map((t) => [t.key, t]));
              for (const [k, v] of Object.entries(b.tags)) {
                if (v === null) tags.delete(k);
                else tags.set(k, { key: k, value: v, read_only: false });
              }
              o.tags = [...tags.values()];
            }
            o.updated_at = iso();
          }),
        );
      },
    },
    {
      method: 'DELETE',
      path: `/cloud/v1/floatingips${SCOPE}/:id`,
      handler: (req, s) => {
        const o = findIn(s.floatingIps, req, req.params.id!);
        if (!o) return cloudNotFound('Floating IP', req.params.id!);
        return tasks(
          s.addTask('delete_fip', scopeOf(req), { floating_ip_id: o.id }, () => {
            s.floatingIps.delete(String(o.id));
          }),
        );
      },
    },

    {
      method: 'GET',
      path: `/cloud/v1/bminstances${SCOPE}`,
      handler: (req, s) => {
        const filtered = filterServers(req, [...s.baremetalServers.values()].filter(inScope(req)));
        return Array.isArray(filtered) ? cloudPage(req, filtered, 1000) : filtered;
      },
    },
    {
      method: 'GET',
      path: `/cloud/v1/bminstances${SCOPE}/:id`,
      handler: (req, s) => {
        const o = findIn(s.baremetalServers, req, req.params.id!);
        return o ? ok(o) : cloudNotFound('Instance', req.params.id!);
      },
    },

    ...(['baremetal', 'virtual'] as const).flatMap((kind): Route<SimStore>[] => [
      {
        method: 'GET',
        path: `/cloud/v3/gpu/${kind}${SCOPE}/clusters`,
        handler: (req, s) => {
          const filtered = filterClusters(req, kind, [...s.gpuClusters[kind].values()].filter(inScope(req)));
          return Array.isArray(filtered) ? cloudPage(req, filtered.map(withoutScope), 10) : filtered;
        },
      },
      {
        method: 'GET',
        path: `/cloud/v3/gpu/${kind}${SCOPE}/clusters/:id`,
        handler: (req, s) => {
          const o = findIn(s.gpuClusters[kind], req, req.params.id!);
          return o ? ok(withoutScope(o)) : cloudNotFound('Cluster', req.params.id!);
        },
      },
      {
        method: 'GET',
        path: `/cloud/v3/gpu/${kind}${SCOPE}/images`,
        handler: (req, s) =>
          cloudPage(req, [...s.gpuImages[kind].values()].filter(inScope(req)).map(withoutScope), 1000),
      },
      {
        method: 'GET',
        path: `/cloud/v3/gpu/${kind}${SCOPE}/images/:id`,
        handler: (req, s) => {
          const o = findIn(s.gpuImages[kind], req, req.params.id!);
          return o ? ok(withoutScope(o)) : cloudNotFound('Image', req.params.id!);
        },
      },
    ]),

    {
      method: 'GET',
      path: '/cloud/v3/inference/flavors',
      handler: (req, s) => cloudPage(req, [...s.inferenceFlavors.values()], 1000),
    },
    {
      method: 'GET',
      path: '/cloud/v3/inference/flavors/:name',
      handler: (req, s) => {
        const f = s.inferenceFlavors.get(req.params.name!);
        return f ? ok(f) : cloudNotFound('Flavor', req.params.name!);
      },
    },
  ];
}

/** GPU clusters and images carry no project or region on the wire; the store keeps them for scoping. */
function withoutScope(o: Wire): Wire {
  const { project_id: _p, region_id: _r, ...rest } = o;
  return rest;
}
