// The conformance check itself: it must reject what the vendor's specs reject, or the suite's
// "every request and answer conforms" would prove nothing.
import { describe, expect, it } from 'vitest';
import type { RequestLogEntry } from '../../../src/kit/sim/router.js';
import { gcoreSpecs } from './helpers/spec.js';

const entry = (e: Partial<RequestLogEntry>): RequestLogEntry => ({
  method: 'GET',
  path: '/',
  query: '',
  route: '/x',
  status: 200,
  body: undefined,
  response: undefined,
  at: 0,
  ...e,
});

const fip = {
  id: '0e6b8f4a-2a55-4d6e-9a1b-3c4d5e6f7a8b',
  floating_ip_address: '203.0.113.5',
  fixed_ip_address: null,
  port_id: null,
  router_id: null,
  status: 'DOWN',
  project_id: 1,
  region_id: 76,
  region: 'Luxembourg-2',
  tags: [],
  task_id: null,
  creator_task_id: null,
  created_at: '2026-01-01T00:00:00Z',
  updated_at: '2026-01-01T00:00:00Z',
};

describe('the OpenAPI conformance check', () => {
  it('accepts a floating IP answer that has every required field', async () => {
    const specs = await gcoreSpecs();
    expect(
      specs.check([entry({ path: '/cloud/v1/floatingips/1/76/0e6b8f4a-2a55-4d6e-9a1b-3c4d5e6f7a8b', response: fip })]),
    ).toEqual([]);
  });

  it('rejects an answer that lacks a required field or has a wrong type', async () => {
    const specs = await gcoreSpecs();
    const { region: _r, ...missing } = fip;
    const problems = specs.check([
      entry({ path: '/cloud/v1/floatingips/1/76/0e6b8f4a-2a55-4d6e-9a1b-3c4d5e6f7a8b', response: missing }),
      entry({
        path: '/cloud/v1/floatingips/1/76/0e6b8f4a-2a55-4d6e-9a1b-3c4d5e6f7a8b',
        response: { ...fip, project_id: 'one' },
      }),
    ]);
    expect(problems).toHaveLength(2);
    expect(problems[0]).toContain('region');
  });

  it('rejects a query value outside the allowed values and an undocumented success status', async () => {
    const specs = await gcoreSpecs();
    const problems = specs.check([
      entry({ path: '/cloud/v1/bminstances/1/76', query: '?order_by=size.asc', response: { count: 0, results: [] } }),
      entry({
        method: 'POST',
        path: '/cdn/resources/rule_templates',
        body: { rule: '/a', ruleType: 0 },
        status: 200,
        response: { id: 1 },
      }),
    ]);
    expect(problems).toHaveLength(2);
    expect(problems[1]).toContain('status 200 is not documented');
  });

  it('rejects a request body the vendor would refuse, and a path the spec does not have', async () => {
    const specs = await gcoreSpecs();
    const problems = specs.check([
      entry({ method: 'POST', path: '/cdn/resources', body: { origin: 'example.com' }, status: 201, response: {} }),
      entry({ path: '/cloud/v9/nothing' }),
    ]);
    expect(problems.some((p) => p.includes('cname'))).toBe(true);
    expect(problems.some((p) => p.includes("no operation in the vendor's spec"))).toBe(true);
  });

  it('accepts repeated-key arrays and a JSON tag_key_value in a query', async () => {
    const specs = await gcoreSpecs();
    const q = `?tag_key=a&tag_key=b&status=DOWN&tag_key_value=${encodeURIComponent('{"env":"prod"}')}`;
    expect(
      specs.check([entry({ path: '/cloud/v1/floatingips/1/76', query: q, response: { count: 0, results: [] } })]),
    ).toEqual([]);
    expect(
      specs.check([
        entry({ path: '/cloud/v1/floatingips/1/76', query: '?tag_key=a', response: { count: 0, results: [] } }),
      ]),
    ).toEqual([]);
  });
});
