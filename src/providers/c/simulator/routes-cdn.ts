// CDN routes: origin groups and resources (their rules and the rule templates: routes-cdn-rules.ts).
// Synchronous CRUD with the vendor's status codes (201 create, 204 delete), unique names and cnames,
// and its refusals (deleting an active resource, or an origin group in use).
import { z } from 'zod';
import type { Route, SimRequest, SimResponse } from '../../../kit/sim/router.js';
import { cdnErrors, cdnFieldError, cdnList, cdnNotFound, ok } from './answers.js';
import type { Wire } from './fixtures.js';
import { iso, type SimStore } from './store.js';
import { isAnswer, num, protocol, ruleJson } from './cdn-shared.js';

const hostSource = z.object({
  source: z.string().min(1).max(255),
  backup: z.boolean().optional(),
  enabled: z.boolean().optional(),
  host_header_override: z.string().max(255).nullable().optional(),
  origin_type: z.literal('host').optional(),
});
const groupBody = z.object({
  name: z.string().max(255),
  sources: z.array(hostSource),
  use_next: z.boolean().optional(),
  proxy_next_upstream: z.array(z.string()).optional(),
  auth_type: z.literal('none').optional(),
});
const settings = {
  originProtocol: protocol.optional(),
  name: z.string().nullable().optional(),
  description: z.string().optional(),
  active: z.boolean().optional(),
  secondaryHostnames: z.array(z.string()).optional(),
  sslEnabled: z.boolean().optional(),
  sslData: z.number().int().nullable().optional(),
  proxy_ssl_enabled: z.boolean().optional(),
  proxy_ssl_ca: z.number().int().nullable().optional(),
  proxy_ssl_data: z.number().int().nullable().optional(),
  options: z.record(z.string(), z.unknown()).optional(),
  waap_api_domain_enabled: z.boolean().optional(),
};
const resourceCreate = z.object({
  cname: z.string().min(1),
  originGroup: z.number().int().optional(),
  origin: z.string().optional(),
  primary_resource: z.number().nullable().optional(),
  ...settings,
});
const resourcePut = z.object({ originGroup: z.number().int(), ...settings });

function groupJson(s: SimStore, g: Wire): Wire {
  const id = Number(g.id);
  const used =
    [...s.cdn.resources.values()].some((r) => r.originGroup === id) ||
    [...s.cdn.rules.values()].some((r) => r.originGroup === id);
  return { ...g, has_related_resources: used };
}

function saveGroup(s: SimStore, req: SimRequest, id: number): Wire | SimResponse {
  const b = req.body as z.output<typeof groupBody>;
  if ([...s.cdn.originGroups.values()].some((g) => g.name === b.name && g.id !== id))
    return cdnFieldError('name', 'Origin Group name should be unique.');
  if (!b.sources.length) return cdnFieldError('source', 'Origin group must contain at least one source.');
  const sources = b.sources.map((x) => ({
    source: x.source,
    backup: x.backup ?? false,
    enabled: x.enabled ?? true,
    host_header_override: x.host_header_override ?? null,
  }));
  const g: Wire = {
    id,
    name: b.name,
    auth_type: 'none',
    sources,
    use_next: b.use_next ?? false,
    proxy_next_upstream: b.proxy_next_upstream ?? ['error', 'timeout'],
    path: '',
  };
  s.cdn.originGroups.set(id, g);
  return g;
}

function resourceJson(s: SimStore, r: Wire): Wire {
  const id = Number(r.id);
  const rules = [...s.cdn.rules.values()].filter((x) => x.resourceId === id).map((x) => ruleJson(s, x));
  return {
    ...r,
    originGroup_name: (s.cdn.originGroups.get(Number(r.originGroup))?.name as string | undefined) ?? '',
    rules,
  };
}

function applySettings(r: Wire, b: Partial<z.output<typeof resourcePut>>, replace: boolean) {
  const put = <T>(key: string, v: T | undefined, dflt: T) => {
    if (v !== undefined) r[key] = v;
    else if (replace) r[key] = dflt;
  };
  put('originProtocol', b.originProtocol, 'HTTP');
  put('name', b.name, null);
  put('description', b.description, '');
  put('active', b.active, true);
  put('secondaryHostnames', b.secondaryHostnames, []);
  put('sslEnabled', b.sslEnabled, false);
  put('sslData', b.sslData, null);
  put('proxy_ssl_enabled', b.proxy_ssl_enabled, false);
  put('proxy_ssl_ca', b.proxy_ssl_ca, null);
  put('proxy_ssl_data', b.proxy_ssl_data, null);
  put('options', b.options, {});
  if (b.originGroup !== undefined) r.originGroup = b.originGroup;
  r.updated = iso();
}

export function cdnRoutes(): Route<SimStore>[] {
  return [
    {
      method: 'GET',
      path: '/cdn/origin_groups',
      handler: (req, s) => {
        const name = req.query.get('name');
        return cdnList(
          req,
          [...s.cdn.originGroups.values()]
            .filter((g) => name === null || String(g.name).includes(name))
            .map((g) => groupJson(s, g)),
        );
      },
    },
    {
      method: 'POST',
      path: '/cdn/origin_groups',
      body: groupBody,
      handler: (req, s) => {
        const g = saveGroup(s, req, s.nextCdnId());
        return isAnswer(g) ? g : ok(groupJson(s, g), 201);
      },
    },
    {
      method: 'GET',
      path: '/cdn/origin_groups/:id',
      handler: (req, s) => {
        const g = s.cdn.originGroups.get(num(req, 'id'));
        return g ? ok(groupJson(s, g)) : cdnNotFound();
      },
    },
    {
      method: 'PUT',
      path: '/cdn/origin_groups/:id',
      body: groupBody,
      handler: (req, s) => {
        if (!s.cdn.originGroups.has(num(req, 'id'))) return cdnNotFound();
        const g = saveGroup(s, req, num(req, 'id'));
        return isAnswer(g) ? g : ok(groupJson(s, g));
      },
    },
    {
      method: 'DELETE',
      path: '/cdn/origin_groups/:id',
      handler: (req, s) => {
        const g = s.cdn.originGroups.get(num(req, 'id'));
        if (!g) return cdnNotFound();
        if (groupJson(s, g).has_related_resources)
          return { status: 400, body: { name: ['There are resources using this group'] } };
        s.cdn.originGroups.delete(num(req, 'id'));
        return { status: 204 };
      },
    },

    {
      method: 'GET',
      path: '/cdn/resources',
      handler: (req, s) => {
        const q = req.query;
        return cdnList(
          req,
          [...s.cdn.resources.values()]
            .filter(
              (r) =>
                (q.get('cname') === null || r.cname === q.get('cname')) &&
                (q.get('name') === null ||
                  ((r.name as string | undefined) ?? '').toLowerCase().includes(q.get('name')!.toLowerCase())) &&
                (q.get('originGroup') === null || r.originGroup === Number(q.get('originGroup'))) &&
                (q.get('active') === null || String(r.active) === q.get('active')),
            )
            .map((r) => resourceJson(s, r)),
        );
      },
    },
    {
      method: 'POST',
      path: '/cdn/resources',
      body: resourceCreate,
      handler: (req, s) => {
        const b = req.body as z.output<typeof resourceCreate>;
        if ([...s.cdn.resources.values()].some((r) => r.cname === b.cname))
          return cdnFieldError('cname', 'Resource with this cname already exists.');
        let group = b.originGroup;
        if (group === undefined && b.origin === undefined)
          return cdnFieldError('originGroup', 'Either origin or originGroup must be set.');
        if (group !== undefined && !s.cdn.originGroups.has(group))
          return cdnFieldError('originGroup', `Origin group ${group} does not exist.`);
        if (group === undefined) {
          group = s.nextCdnId();
          s.cdn.originGroups.set(group, {
            id: group,
            name: `${b.cname}_origin`,
            auth_type: 'none',
            sources: [{ source: b.origin, backup: false, enabled: true, host_header_override: null }],
            use_next: false,
            proxy_next_upstream: ['error', 'timeout'],
            path: '',
          });
        }
        const id = s.nextCdnId();
        const r: Wire = {
          id,
          cname: b.cname,
          enabled: true,
          status: 'active',
          deleted: false,
          client: s.clientId,
          created: iso(),
          shielded: false,
          shield_dc: null,
          shield_enabled: false,
          shield_routing_map: null,
          preset_applied: false,
          vp_enabled: false,
          full_custom_enabled: false,
          can_purge_by_urls: true,
          suspend_date: null,
          suspended: false,
          primary_resource: b.primary_resource ?? null,
          is_primary: null,
          waap_domain_id: null,
        };
        applySettings(r, { ...b, originGroup: group }, true);
        s.cdn.resources.set(id, r);
        return ok(resourceJson(s, r), 201);
      },
    },
    {
      method: 'GET',
      path: '/cdn/resources/:resource_id',
      handler: (req, s) => {
        const r = s.cdn.resources.get(num(req, 'resource_id'));
        return r ? ok(resourceJson(s, r)) : cdnNotFound();
      },
    },
    ...(['PUT', 'PATCH'] as const).map((method): Route<SimStore> => ({
      method,
      path: '/cdn/resources/:resource_id',
      body: method === 'PUT' ? resourcePut : resourcePut.partial(),
      handler: (req, s) => {
        const r = s.cdn.resources.get(num(req, 'resource_id'));
        if (!r) return cdnNotFound();
        const b = req.body as Partial<z.output<typeof resourcePut>>;
        if (b.originGroup !== undefined && !s.cdn.originGroups.has(b.originGroup))
          return cdnFieldError('originGroup', `Origin group ${b.originGroup} does not exist.`);
        applySettings(r, b, method === 'PUT');
        return ok(resourceJson(s, r));
      },
    })),
    {
      method: 'DELETE',
      path: '/cdn/resources/:resource_id',
      handler: (req, s) => {
        const id = num(req, 'resource_id');
        const r = s.cdn.resources.get(id);
        if (!r) return cdnNotFound();
        if (r.active)
          return cdnErrors(
            'Deletion of this instance is currently not possible as it is in an active state. Please deactivate it before attempting the deletion request again.',
          );
        for (const [rid, x] of s.cdn.rules) if (x.resourceId === id) s.cdn.rules.delete(rid);
        s.cdn.resources.delete(id);
        return { status: 204 };
      },
    },
  ];
}
