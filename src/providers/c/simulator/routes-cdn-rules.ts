// CDN rules: rule templates and a resource's rules (201 create, 204 delete, a rule's `rule` path
// kept with its leading slash). The templates are routed before /cdn/resources/:resource_id (see
// routes.ts), whose pattern would otherwise swallow them.
import { z } from 'zod';
import type { Route, SimResponse } from '../../../kit/sim/router.js';
import { cdnErrors, cdnFieldError, cdnList, cdnNotFound, ok } from './answers.js';
import type { Wire } from './fixtures.js';
import { type SimStore } from './store.js';
import { isAnswer, num, protocol, ruleJson, withSlash } from './cdn-shared.js';

const ruleFields = {
  name: z.string().max(255),
  rule: z.string().max(300),
  ruleType: z.number().int().min(0).max(1),
  active: z.boolean().optional(),
  weight: z.number().int().min(1).optional(),
  overrideOriginProtocol: protocol.nullable().optional(),
  originGroup: z.number().int().nullable().optional(),
  options: z.record(z.string(), z.unknown()).optional(),
};
const ruleCreate = z.object(ruleFields);
const rulePut = z.object({ ...ruleFields, name: ruleFields.name.optional() });
const rulePatch = z.object(ruleFields).partial();
const templateBody = z
  .object({ ...ruleFields, name: ruleFields.name.optional() })
  .omit({ active: true, originGroup: true });
const templatePatch = templateBody.partial();

function saveRule(
  s: SimStore,
  resourceId: number,
  id: number,
  b: Partial<z.output<typeof ruleCreate>>,
  prior?: Wire,
): (Wire & { resourceId: number }) | SimResponse {
  if (
    b.name !== undefined &&
    [...s.cdn.rules.values()].some((x) => x.resourceId === resourceId && x.name === b.name && x.id !== id)
  )
    return cdnFieldError('name', 'Rule with this name already exists.');
  const count = [...s.cdn.rules.values()].filter((x) => x.resourceId === resourceId).length;
  const x = {
    id,
    name: '',
    active: true,
    deleted: false,
    originGroup: null,
    rule: '/',
    ruleType: 0,
    weight: count + 1,
    overrideOriginProtocol: null,
    preset_applied: false,
    primary_rule: null,
    options: {},
    ...prior,
    ...Object.fromEntries(Object.entries(b).filter(([, v]) => v !== undefined)),
    resourceId,
  } as Wire & { resourceId: number };
  x.rule = withSlash(String(x.rule));
  s.cdn.rules.set(id, x);
  return x;
}

export function cdnRuleRoutes(): Route<SimStore>[] {
  return [
    {
      method: 'GET',
      path: '/cdn/resources/rule_templates',
      handler: (req, s) => cdnList(req, [...s.cdn.ruleTemplates.values()]),
    },
    {
      method: 'POST',
      path: '/cdn/resources/rule_templates',
      body: templateBody,
      handler: (req, s) => {
        const id = s.nextCdnId();
        const t: Wire = {
          id,
          name: '',
          client: s.clientId,
          deleted: false,
          weight: 1,
          template: true,
          default: false,
          overrideOriginProtocol: null,
          options: {},
          ...(req.body as Wire),
        };
        t.rule = withSlash(String(t.rule));
        s.cdn.ruleTemplates.set(id, t);
        return ok(t, 201);
      },
    },
    {
      method: 'GET',
      path: '/cdn/resources/rule_templates/:id',
      handler: (req, s) => {
        const t = s.cdn.ruleTemplates.get(num(req, 'id'));
        return t ? ok(t) : cdnNotFound();
      },
    },
    ...(['PUT', 'PATCH'] as const).map((method): Route<SimStore> => ({
      method,
      path: '/cdn/resources/rule_templates/:id',
      body: method === 'PUT' ? templateBody : templatePatch,
      handler: (req, s) => {
        const t = s.cdn.ruleTemplates.get(num(req, 'id'));
        if (!t) return cdnNotFound();
        if (t.default) return { status: 403, body: { message: 'You do not have permission to perform this action.' } };
        const next: Wire = {
          ...(method === 'PUT'
            ? {
                id: t.id,
                client: t.client,
                deleted: false,
                weight: 1,
                template: true,
                default: false,
                overrideOriginProtocol: null,
                options: {},
                name: '',
              }
            : t),
          ...(req.body as Wire),
        };
        next.rule = withSlash(String(next.rule));
        s.cdn.ruleTemplates.set(num(req, 'id'), next);
        return ok(next);
      },
    })),
    {
      method: 'DELETE',
      path: '/cdn/resources/rule_templates/:id',
      handler: (req, s) => {
        const t = s.cdn.ruleTemplates.get(num(req, 'id'));
        if (!t) return cdnNotFound();
        if (t.default) return { status: 403, body: { message: 'You do not have permission to perform this action.' } };
        s.cdn.ruleTemplates.delete(num(req, 'id'));
        return { status: 204 };
      },
    },
    {
      method: 'GET',
      path: '/cdn/resources/:resource_id/rules',
      handler: (req, s) => {
        if (!s.cdn.resources.has(num(req, 'resource_id'))) return cdnNotFound();
        return cdnList(
          req,
          [...s.cdn.rules.values()].filter((x) => x.resourceId === num(req, 'resource_id')).map((x) => ruleJson(s, x)),
        );
      },
    },
    {
      method: 'POST',
      path: '/cdn/resources/:resource_id/rules',
      body: ruleCreate,
      handler: (req, s) => {
        const resourceId = num(req, 'resource_id');
        if (!s.cdn.resources.has(resourceId)) return cdnNotFound();
        const x = saveRule(s, resourceId, s.nextCdnId(), req.body as z.output<typeof ruleCreate>);
        return isAnswer(x) ? x : ok(ruleJson(s, x), 201);
      },
    },
    {
      method: 'GET',
      path: '/cdn/resources/:resource_id/rules/:rule_id',
      handler: (req, s) => {
        const x = s.cdn.rules.get(num(req, 'rule_id'));
        return x && x.resourceId === num(req, 'resource_id')
          ? ok(ruleJson(s, x))
          : { status: 404, body: { detail: 'Rule is not found.' } };
      },
    },
    ...(['PUT', 'PATCH'] as const).map((method): Route<SimStore> => ({
      method,
      path: '/cdn/resources/:resource_id/rules/:rule_id',
      body: method === 'PUT' ? rulePut : rulePatch,
      handler: (req, s) => {
        const x = s.cdn.rules.get(num(req, 'rule_id'));
        if (!x || x.resourceId !== num(req, 'resource_id'))
          return { status: 404, body: { detail: 'Rule is not found.' } };
        const base = method === 'PUT' ? { id: x.id, name: x.name } : x;
        const saved = saveRule(s, x.resourceId, Number(x.id), req.body as Partial<z.output<typeof ruleCreate>>, base);
        return isAnswer(saved) ? saved : ok(ruleJson(s, saved));
      },
    })),
    {
      method: 'DELETE',
      path: '/cdn/resources/:resource_id/rules/:rule_id',
      handler: (req, s) => {
        const x = s.cdn.rules.get(num(req, 'rule_id'));
        if (!x || x.resourceId !== num(req, 'resource_id'))
          return { status: 404, body: { detail: 'Rule is not found.' } };
        if (x.active)
          return cdnErrors(
            'Deletion of this instance is currently not possible as it is in an active state. Please deactivate it before attempting the deletion request again.',
          );
        s.cdn.rules.delete(Number(x.id));
        return { status: 204 };
      },
    },
  ];
}
