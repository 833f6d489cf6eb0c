// The Gcore simulator refuses what Gcore's OpenAPI specs refuse (issue 28): a request whose
// parameters or body break the spec's enums, patterns, bounds, required fields, formats or types is
// answered 400 in the API family's shape, naming the field, and nothing is made.
import { afterEach, describe, expect, it } from 'vitest';
import { startSimulator, type GcoreSimulator } from 'converge/providers/c/simulator';

let sim: GcoreSimulator | undefined;
afterEach(async () => {
  await sim?.close();
  sim = undefined;
});

type Call = { readonly method?: string; readonly path: string; readonly body?: unknown };

async function send(s: GcoreSimulator, { method = 'GET', path, body }: Call) {
  const res = await fetch(`${s.baseUrl}${path}`, {
    method,
    headers: { authorization: `APIKey ${s.apiKey}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : undefined) as Record<string, unknown> };
}

const FIP = '/cloud/v1/floatingips/1/76';
const FIP_ID = '0e6b8f4a-2a55-4d6e-9a1b-3c4d5e6f7a8b';
const resource = { cname: 'cdn.example.com', origin: 'origin.example.com' };
const rule = { name: 'images', rule: '/images/*', ruleType: 0 };
const group = { name: 'g1', sources: [{ source: 'origin.example.com' }] };

/** [what is broken, request, the field the answer names] */
// prettier-ignore
const CDN: readonly (readonly [string, Call, string])[] = [
  ['enum: an origin protocol', { method: 'POST', path: '/cdn/resources', body: { ...resource, originProtocol: 'FTP' } }, 'originProtocol'],
  ['enum: a TLS version in an option', { method: 'POST', path: '/cdn/resources', body: { ...resource, options: { tls_versions: { enabled: true, value: ['TLSv9'] } } } }, 'options.tls_versions.value.0'],
  ['enum: a list filter', { path: '/cdn/resources?status=gone' }, 'status'],
  ['pattern: a host header', { method: 'POST', path: '/cdn/resources', body: { ...resource, options: { hostHeader: { enabled: true, value: 'Bad Host!' } } } }, 'options.hostHeader.value'],
  ['pattern: a browser cache time', { method: 'POST', path: '/cdn/resources/1/rules', body: { ...rule, options: { browser_cache_settings: { enabled: true, value: '5 minutes' } } } }, 'options.browser_cache_settings.value'],
  ['maximum: a rule type', { method: 'POST', path: '/cdn/resources/1/rules', body: { ...rule, ruleType: 2 } }, 'ruleType'],
  ['minimum: a rule weight', { method: 'POST', path: '/cdn/resources/rule_templates', body: { rule: '/a', ruleType: 0, weight: 0 } }, 'weight'],
  ['maxLength: a rule name', { method: 'POST', path: '/cdn/resources/1/rules', body: { ...rule, name: 'n'.repeat(256) } }, 'name'],
  ['maxLength: an origin source, in the alternative the body takes', { method: 'POST', path: '/cdn/origin_groups', body: { name: 'g1', sources: [{ source: 'o'.repeat(256) }] } }, 'sources.0.source'],
  ['maximum: a page size', { path: '/cdn/origin_groups?limit=1001' }, 'limit'],
  ['minimum: a page offset', { path: '/cdn/sslData?offset=-1' }, 'offset'],
  ['required: a resource without cname', { method: 'POST', path: '/cdn/resources', body: { origin: 'origin.example.com' } }, 'cname'],
  ['required: a rule without its pattern', { method: 'POST', path: '/cdn/resources/1/rules', body: { name: 'r', ruleType: 0 } }, 'rule'],
  ['required: an option without its value', { method: 'PATCH', path: '/cdn/resources/1', body: { options: { gzipOn: { enabled: true } } } }, 'options.gzipOn.value'],
  ['type: an origin group id as text', { method: 'POST', path: '/cdn/resources', body: { ...resource, originGroup: 'one' } }, 'originGroup'],
  ['type: a boolean as text', { method: 'PUT', path: '/cdn/resources/1/rules/1', body: { ...rule, active: 'yes' } }, 'active'],
  ['type: a resource id in the path', { path: '/cdn/resources/first' }, 'resource_id'],
  ['format: a secondary hostname', { method: 'POST', path: '/cdn/resources', body: { ...resource, secondaryHostnames: ['not a host'] } }, 'secondaryHostnames.0'],
];

// prettier-ignore
const CLOUD: readonly (readonly [string, Call, string])[] = [
  ['enum: a floating IP status filter', { path: `${FIP}?status=LOST` }, 'status'],
  ['enum: a task state filter', { path: '/cloud/v1/tasks?state=DONE' }, 'state.0'],
  ['pattern: a tag key with a space', { method: 'POST', path: FIP, body: { tags: { 'my tag': 'v' } } }, 'tags.my tag'],
  ['pattern: a tag value with a leading space', { method: 'PATCH', path: `/cloud/v2/floatingips/1/76/${FIP_ID}`, body: { tags: { env: ' prod' } } }, 'tags.env'],
  ['pattern: a tag key filter with "="', { path: `${FIP}?tag_key=a%3Db` }, 'tag_key.0'],
  ['maxLength: a tag value', { method: 'POST', path: FIP, body: { tags: { env: 'v'.repeat(256) } } }, 'tags.env'],
  ['minLength: an empty tag value', { method: 'POST', path: FIP, body: { tags: { env: '' } } }, 'tags.env'],
  ['exclusiveMinimum: a page size of 0', { path: '/cloud/v1/tasks?limit=0' }, 'limit'],
  ['maximum: a page size over 1000', { path: `/cloud/v1/bminstances/1/76?limit=1001` }, 'limit'],
  ['minimum: a negative offset', { path: '/cloud/v3/inference/flavors?offset=-5' }, 'offset'],
  ['format: a port id that is not a UUID', { method: 'POST', path: FIP, body: { port_id: 'port-1' } }, 'port_id'],
  ['format: a fixed IP that is not IPv4', { method: 'POST', path: FIP, body: { port_id: FIP_ID, fixed_ip_address: '300.1.1.1' } }, 'fixed_ip_address'],
  ['format: a floating IP id in the path', { path: `${FIP}/not-a-uuid` }, 'floating_ip_id'],
  ['format: a task filter time', { path: '/cloud/v1/tasks?from_timestamp=yesterday' }, 'from_timestamp'],
  ['type: tags as a list', { method: 'POST', path: FIP, body: { tags: ['env'] } }, 'tags'],
  ['type: a tag value as a number', { method: 'PATCH', path: `/cloud/v2/floatingips/1/76/${FIP_ID}`, body: { tags: { env: 5 } } }, 'tags.env'],
  ['type: a project id in the path', { path: '/cloud/v1/floatingips/one/76' }, 'project_id'],
  ['type: a project filter', { path: '/cloud/v1/tasks?project_id=x' }, 'project_id.0'],
];

describe('the Gcore simulator checks requests against the OpenAPI specs', () => {
  for (const [what, call, field] of CDN) {
    it(`refuses a CDN request breaking ${what}, 400 {errors: {${field}: [...]}}`, async () => {
      sim ??= await startSimulator();
      const r = await send(sim, call);
      expect(r.status, JSON.stringify(r.body)).toBe(400);
      const errors = r.body.errors as Record<string, string[]>;
      expect(Object.keys(errors)).toEqual([field]);
      expect(errors[field]![0]).toEqual(expect.any(String));
    });
  }

  for (const [what, call, field] of CLOUD) {
    it(`refuses a Cloud request breaking ${what}, 400 ValidationError naming ${field}`, async () => {
      sim ??= await startSimulator();
      const r = await send(sim, call);
      expect(r.status, JSON.stringify(r.body)).toBe(400);
      expect(r.body.exception_class).toBe('ValidationError');
      expect(r.body.request_id).toEqual(expect.any(String));
      expect(Object.keys(r.body.invalid_fields as object)).toEqual([field]);
      expect(r.body.message).toContain(field);
    });
  }

  it('names every refused field of a request at once', async () => {
    sim = await startSimulator();
    const r = await send(sim, {
      method: 'POST',
      path: '/cdn/resources/1/rules',
      body: { name: 'n'.repeat(256), ruleType: 7, weight: 'heavy' },
    });
    expect(r.status).toBe(400);
    expect(Object.keys(r.body.errors as object).sort()).toEqual(['name', 'rule', 'ruleType', 'weight']);
  });

  it('makes nothing when it refuses a create', async () => {
    sim = await startSimulator();
    expect((await send(sim, { method: 'POST', path: '/cdn/resources', body: { ...resource, originProtocol: 'FTP' } })).status).toBe(400); // prettier-ignore
    expect((await send(sim, { method: 'POST', path: FIP, body: { port_id: 'port-1' } })).status).toBe(400);
    expect(sim.store.cdn.resources.size + sim.store.floatingIps.size + sim.store.tasks.size).toBe(0);
  });

  it('answers a CDN body that is not JSON with the parse error Django REST gives', async () => {
    sim = await startSimulator();
    const r = await send(sim, { method: 'POST', path: '/cdn/origin_groups', body: '{"name": ' });
    expect(r.status).toBe(400);
    expect(r.body.message).toMatch(/^JSON parse error/);
  });

  it('accepts requests that follow the specs, on CDN and Cloud routes, under a path prefix too', async () => {
    sim = await startSimulator({ basePath: '/api' });
    const g = await send(sim, { method: 'POST', path: '/cdn/origin_groups', body: group });
    expect(g.status, JSON.stringify(g.body)).toBe(201);
    const created = await send(sim, {
      method: 'POST',
      path: '/cdn/resources',
      body: {
        cname: 'cdn.example.com',
        originGroup: g.body.id,
        originProtocol: 'HTTPS',
        secondaryHostnames: ['static.example.com'],
        options: {
          hostHeader: { enabled: true, value: 'origin.example.com' },
          browser_cache_settings: { enabled: true, value: '5m' },
          tls_versions: { enabled: true, value: ['TLSv1.2', 'TLSv1.3'] },
        },
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const r = await send(sim, { method: 'POST', path: `/cdn/resources/${created.body.id}/rules`, body: { ...rule, weight: 5 } }); // prettier-ignore
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect((await send(sim, { path: '/cdn/resources?status=active&limit=10&offset=0' })).status).toBe(200);
    const fip = await send(sim, { method: 'POST', path: FIP, body: { tags: { env: 'prod' } } });
    expect(fip.status, JSON.stringify(fip.body)).toBe(200);
    const q = `?status=DOWN&tag_key=env&tag_key_value=${encodeURIComponent('{"env":"prod"}')}&limit=10`;
    expect((await send(sim, { path: `${FIP}${q}` })).status).toBe(200);
    expect((await send(sim, { path: '/cloud/v1/tasks?state=NEW&state=FINISHED&project_id=1&limit=5' })).status).toBe(
      200,
    );
  });
});
