// The Gcore wire client: one HttpClient (API-key header, Gcore error bodies, retries through the
// engine's mechanism), both list envelopes, the query encodings of the wire notes, and one line per
// endpoint. Paths are relative, so a base URL with a path prefix works.
import type { Dispatcher } from 'undici';
import { HttpClient, type HttpMethod, type QueryValue } from '../../kit/http.js';
import type { OperationContext } from '../../engine/provider/context.js';
import { ConfigError } from '../../engine/errors.js';
import { parseGcoreError } from './errors.js';
import type { ProvcSettings, Scope } from './config.js';
import { fillPath } from '../../kit/wire.js';

export type Ctx = Pick<OperationContext, 'signal' | 'retry' | 'report'>;
export type Wire = Record<string, unknown>;
export type CloudPage<T = Wire> = { readonly count: number; readonly results: T[] };
export type TaskIds = { readonly tasks: string[] };
export type TaskState = 'NEW' | 'RUNNING' | 'FINISHED' | 'ERROR';
export type Task = Wire & {
  id: string;
  task_type: string;
  state: TaskState;
  error?: string | null;
  created_resources?: Record<string, unknown[]> | null;
};
type Query = Readonly<Record<string, QueryValue>>;
type Params = Readonly<Record<string, string | number>>;

/** The GPU endpoints of each kind: the spec has one set of paths for bare metal, one for virtual. */
const GPU_PATHS = {
  baremetal: {
    clusters: '/cloud/v3/gpu/baremetal/{project_id}/{region_id}/clusters',
    cluster: '/cloud/v3/gpu/baremetal/{project_id}/{region_id}/clusters/{cluster_id}',
    image: '/cloud/v3/gpu/baremetal/{project_id}/{region_id}/images/{image_id}',
  },
  virtual: {
    clusters: '/cloud/v3/gpu/virtual/{project_id}/{region_id}/clusters',
    cluster: '/cloud/v3/gpu/virtual/{project_id}/{region_id}/clusters/{cluster_id}',
    image: '/cloud/v3/gpu/virtual/{project_id}/{region_id}/images/{image_id}',
  },
} as const;

export class GcoreClient {
  readonly #http: HttpClient;
  readonly #settings: ProvcSettings;

  constructor(settings: ProvcSettings, dispatcher?: Dispatcher) {
    this.#settings = settings;
    this.#http = new HttpClient({
      provider: 'provc',
      baseUrl: settings.baseUrl,
      dispatcher,
      parseError: parseGcoreError,
      headers: () => {
        if (!settings.apiKey)
          throw new ConfigError('provc', 'apiKey', 'is missing: pass apiKey to provc() or set PROVC_API_KEY');
        return { authorization: `APIKey ${settings.apiKey}` };
      },
      secrets: () => (settings.apiKey ? [settings.apiKey] : []),
      rateLimit: settings.rateLimit,
    });
  }

  get settings(): ProvcSettings {
    return this.#settings;
  }

  async call<T>(
    ctx: Ctx,
    method: HttpMethod,
    template: string,
    params: Params,
    operation: string,
    opts: { query?: Query; body?: unknown } = {},
  ): Promise<T> {
    const path = fillPath(template, params);
    const res = await this.#http.request<T>(ctx, {
      method,
      path,
      pathTemplate: template,
      operation,
      query: opts.query,
      body: opts.body,
    });
    return res.body;
  }

  /**
   * Every item of a CDN list, by pages of 1,000 (the spec's `limit` maximum): the first page says the
   * count, the other pages are fetched at once. A server that ignores `limit` answers a bare array: all of it.
   */
  async cdnAll(ctx: Ctx, template: string, params: Params, operation: string): Promise<Wire[]> {
    const page = (offset: number) =>
      this.call<CdnList>(ctx, 'GET', template, params, operation, { query: { limit: CDN_PAGE, offset } });
    const first = await page(0);
    if (Array.isArray(first)) return first;
    const offsets: number[] = [];
    for (let offset = first.results.length; offset < first.count && first.results.length > 0; offset += CDN_PAGE)
      offsets.push(offset);
    const rest = await Promise.all(offsets.map((offset) => page(offset).then(cdnItems)));
    return [...first.results, ...rest.flat()];
  }
  allCdnResources = (ctx: Ctx) => this.cdnAll(ctx, '/cdn/resources', {}, 'list CDN resources');
  allCdnOriginGroups = (ctx: Ctx) => this.cdnAll(ctx, '/cdn/origin_groups', {}, 'list CDN origin groups');
  allCdnCertificates = (ctx: Ctx) => this.cdnAll(ctx, '/cdn/sslData', {}, 'list CDN certificates');
  allCdnCaCertificates = (ctx: Ctx) => this.cdnAll(ctx, '/cdn/sslCertificates', {}, 'list CDN CA certificates');
  allCdnRules = (ctx: Ctx, resourceId: number) =>
    this.cdnAll(ctx, '/cdn/resources/{resource_id}/rules', { resource_id: resourceId }, 'list CDN resource rules');
  allCdnRuleTemplates = (ctx: Ctx) => this.cdnAll(ctx, '/cdn/resources/rule_templates', {}, 'list CDN rule templates');
  allFloatingIps = (ctx: Ctx, s: Scope) =>
    collectPages(
      (offset) => this.listFloatingIps(ctx, s, offset === undefined ? {} : { offset }),
      Number.MAX_SAFE_INTEGER,
    );

  // CDN: activity log (every request to the CDN API, newest first)
  listCdnActivity = (ctx: Ctx, query: Query) =>
    this.call<CdnActivityPage>(ctx, 'GET', '/cdn/activity_log/requests', {}, 'list CDN activity log', { query });

  // Cloud: tasks
  getTask = (ctx: Ctx, taskId: string) =>
    this.call<Task>(ctx, 'GET', '/cloud/v1/tasks/{task_id}', { task_id: taskId }, 'read task');
  listTasks = (ctx: Ctx, query: Query) =>
    this.call<CloudPage<Task>>(ctx, 'GET', '/cloud/v1/tasks', {}, 'list tasks', { query });

  // Cloud: floating IPs
  listFloatingIps = (ctx: Ctx, s: Scope, query: Query) =>
    this.call<CloudPage>(ctx, 'GET', '/cloud/v1/floatingips/{project_id}/{region_id}', sp(s), 'list floating IPs', {
      query,
    });
  getFloatingIp = (ctx: Ctx, s: Scope, id: string) =>
    this.call<Wire>(
      ctx,
      'GET',
      '/cloud/v1/floatingips/{project_id}/{region_id}/{floating_ip_id}',
      { ...sp(s), floating_ip_id: id },
      'read floating IP',
    );
  createFloatingIp = (ctx: Ctx, s: Scope, body: Wire) =>
    this.call<TaskIds>(ctx, 'POST', '/cloud/v1/floatingips/{project_id}/{region_id}', sp(s), 'create floating IP', {
      body,
    });
  updateFloatingIp = (ctx: Ctx, s: Scope, id: string, body: Wire) =>
    this.call<TaskIds>(
      ctx,
      'PATCH',
      '/cloud/v2/floatingips/{project_id}/{region_id}/{floating_ip_id}',
      { ...sp(s), floating_ip_id: id },
      'update floating IP',
      { body },
    );
  deleteFloatingIp = (ctx: Ctx, s: Scope, id: string) =>
    this.call<TaskIds>(
      ctx,
      'DELETE',
      '/cloud/v1/floatingips/{project_id}/{region_id}/{floating_ip_id}',
      { ...sp(s), floating_ip_id: id },
      'delete floating IP',
    );

  // Cloud: bare metal servers
  listBaremetalServers = (ctx: Ctx, s: Scope, query: Query) =>
    this.call<CloudPage>(
      ctx,
      'GET',
      '/cloud/v1/bminstances/{project_id}/{region_id}',
      sp(s),
      'list bare metal servers',
      { query },
    );
  getBaremetalServer = (ctx: Ctx, s: Scope, id: string) =>
    this.call<Wire>(
      ctx,
      'GET',
      '/cloud/v1/bminstances/{project_id}/{region_id}/{server_id}',
      { ...sp(s), server_id: id },
      'read bare metal server',
    );

  // Cloud: GPU clusters and images ('baremetal' or 'virtual')
  listGpuClusters = (ctx: Ctx, kind: GpuKind, s: Scope, query: Query) =>
    this.call<CloudPage>(ctx, 'GET', GPU_PATHS[kind].clusters, sp(s), `list GPU ${kind} clusters`, { query });
  getGpuCluster = (ctx: Ctx, kind: GpuKind, s: Scope, id: string) =>
    this.call<Wire>(ctx, 'GET', GPU_PATHS[kind].cluster, { ...sp(s), cluster_id: id }, `read GPU ${kind} cluster`);
  getGpuImage = (ctx: Ctx, kind: GpuKind, s: Scope, id: string) =>
    this.call<Wire>(ctx, 'GET', GPU_PATHS[kind].image, { ...sp(s), image_id: id }, `read GPU ${kind} image`);

  // Cloud: inference flavors (global)
  listInferenceFlavors = (ctx: Ctx, query: Query) =>
    this.call<CloudPage>(ctx, 'GET', '/cloud/v3/inference/flavors', {}, 'list inference flavors', { query });
  getInferenceFlavor = (ctx: Ctx, name: string) =>
    this.call<Wire>(
      ctx,
      'GET',
      '/cloud/v3/inference/flavors/{flavor_name}',
      { flavor_name: name },
      'read inference flavor',
    );

  // CDN: SSL certificates
  listCdnCertificates = (ctx: Ctx, query: Query = {}) =>
    this.call<CdnList>(ctx, 'GET', '/cdn/sslData', {}, 'list CDN certificates', { query }).then(cdnItems);
  getCdnCertificate = (ctx: Ctx, id: number) =>
    this.call<Wire>(ctx, 'GET', '/cdn/sslData/{ssl_id}', { ssl_id: id }, 'read CDN certificate');
  createCdnCertificate = (ctx: Ctx, body: Wire) =>
    this.call<Wire | undefined>(ctx, 'POST', '/cdn/sslData', {}, 'create CDN certificate', { body });
  replaceCdnCertificate = (ctx: Ctx, id: number, body: Wire) =>
    this.call<Wire>(ctx, 'PUT', '/cdn/sslData/{ssl_id}', { ssl_id: id }, 'update CDN certificate', { body });
  deleteCdnCertificate = (ctx: Ctx, id: number) =>
    this.call<void>(ctx, 'DELETE', '/cdn/sslData/{ssl_id}', { ssl_id: id }, 'delete CDN certificate');

  // CDN: trusted CA certificates
  listCdnCaCertificates = (ctx: Ctx, query: Query = {}) =>
    this.call<CdnList>(ctx, 'GET', '/cdn/sslCertificates', {}, 'list CDN CA certificates', { query }).then(cdnItems);
  getCdnCaCertificate = (ctx: Ctx, id: number) =>
    this.call<Wire>(ctx, 'GET', '/cdn/sslCertificates/{id}', { id }, 'read CDN CA certificate');
  createCdnCaCertificate = (ctx: Ctx, body: Wire) =>
    this.call<Wire>(ctx, 'POST', '/cdn/sslCertificates', {}, 'create CDN CA certificate', { body });
  replaceCdnCaCertificate = (ctx: Ctx, id: number, body: Wire) =>
    this.call<Wire>(ctx, 'PUT', '/cdn/sslCertificates/{id}', { id }, 'update CDN CA certificate', { body });
  deleteCdnCaCertificate = (ctx: Ctx, id: number) =>
    this.call<void>(ctx, 'DELETE', '/cdn/sslCertificates/{id}', { id }, 'delete CDN CA certificate');

  // CDN: origin groups
  listCdnOriginGroups = (ctx: Ctx, query: Query = {}) =>
    this.call<CdnList>(ctx, 'GET', '/cdn/origin_groups', {}, 'list CDN origin groups', { query }).then(cdnItems);
  getCdnOriginGroup = (ctx: Ctx, id: number) =>
    this.call<Wire>(
      ctx,
      'GET',
      '/cdn/origin_groups/{origin_group_id}',
      { origin_group_id: id },
      'read CDN origin group',
    );
  createCdnOriginGroup = (ctx: Ctx, body: Wire) =>
    this.call<Wire>(ctx, 'POST', '/cdn/origin_groups', {}, 'create CDN origin group', { body });
  replaceCdnOriginGroup = (ctx: Ctx, id: number, body: Wire) =>
    this.call<Wire>(
      ctx,
      'PUT',
      '/cdn/origin_groups/{origin_group_id}',
      { origin_group_id: id },
      'update CDN origin group',
      { body },
    );
  deleteCdnOriginGroup = (ctx: Ctx, id: number) =>
    this.call<void>(
      ctx,
      'DELETE',
      '/cdn/origin_groups/{origin_group_id}',
      { origin_group_id: id },
      'delete CDN origin group',
    );

  // CDN: resources
  listCdnResources = (ctx: Ctx, query: Query = {}) =>
    this.call<CdnList>(ctx, 'GET', '/cdn/resources', {}, 'list CDN resources', { query }).then(cdnItems);
  getCdnResource = (ctx: Ctx, id: number) =>
    this.call<Wire>(ctx, 'GET', '/cdn/resources/{resource_id}', { resource_id: id }, 'read CDN resource');
  createCdnResource = (ctx: Ctx, body: Wire) =>
    this.call<Wire>(ctx, 'POST', '/cdn/resources', {}, 'create CDN resource', { body });
  replaceCdnResource = (ctx: Ctx, id: number, body: Wire) =>
    this.call<Wire>(ctx, 'PUT', '/cdn/resources/{resource_id}', { resource_id: id }, 'update CDN resource', { body });
  deleteCdnResource = (ctx: Ctx, id: number) =>
    this.call<void>(ctx, 'DELETE', '/cdn/resources/{resource_id}', { resource_id: id }, 'delete CDN resource');

  // CDN: resource rules
  listCdnRules = (ctx: Ctx, resourceId: number) =>
    this.call<CdnList>(
      ctx,
      'GET',
      '/cdn/resources/{resource_id}/rules',
      { resource_id: resourceId },
      'list CDN resource rules',
    ).then(cdnItems);
  getCdnRule = (ctx: Ctx, resourceId: number, id: number) =>
    this.call<Wire>(
      ctx,
      'GET',
      '/cdn/resources/{resource_id}/rules/{rule_id}',
      { resource_id: resourceId, rule_id: id },
      'read CDN resource rule',
    );
  createCdnRule = (ctx: Ctx, resourceId: number, body: Wire) =>
    this.call<Wire>(
      ctx,
      'POST',
      '/cdn/resources/{resource_id}/rules',
      { resource_id: resourceId },
      'create CDN resource rule',
      { body },
    );
  replaceCdnRule = (ctx: Ctx, resourceId: number, id: number, body: Wire) =>
    this.call<Wire>(
      ctx,
      'PUT',
      '/cdn/resources/{resource_id}/rules/{rule_id}',
      { resource_id: resourceId, rule_id: id },
      'update CDN resource rule',
      { body },
    );
  patchCdnRule = (ctx: Ctx, resourceId: number, id: number, body: Wire) =>
    this.call<Wire>(
      ctx,
      'PATCH',
      '/cdn/resources/{resource_id}/rules/{rule_id}',
      { resource_id: resourceId, rule_id: id },
      'update CDN resource rule',
      { body },
    );
  deleteCdnRule = (ctx: Ctx, resourceId: number, id: number) =>
    this.call<void>(
      ctx,
      'DELETE',
      '/cdn/resources/{resource_id}/rules/{rule_id}',
      { resource_id: resourceId, rule_id: id },
      'delete CDN resource rule',
    );

  // CDN: rule templates (a literal segment under /cdn/resources)
  listCdnRuleTemplates = (ctx: Ctx) =>
    this.call<CdnList>(ctx, 'GET', '/cdn/resources/rule_templates', {}, 'list CDN rule templates').then(cdnItems);
  getCdnRuleTemplate = (ctx: Ctx, id: number) =>
    this.call<Wire>(
      ctx,
      'GET',
      '/cdn/resources/rule_templates/{rule_template_id}',
      { rule_template_id: id },
      'read CDN rule template',
    );
  createCdnRuleTemplate = (ctx: Ctx, body: Wire) =>
    this.call<Wire>(ctx, 'POST', '/cdn/resources/rule_templates', {}, 'create CDN rule template', { body });
  replaceCdnRuleTemplate = (ctx: Ctx, id: number, body: Wire) =>
    this.call<Wire>(
      ctx,
      'PUT',
      '/cdn/resources/rule_templates/{rule_template_id}',
      { rule_template_id: id },
      'update CDN rule template',
      { body },
    );
  deleteCdnRuleTemplate = (ctx: Ctx, id: number) =>
    this.call<void>(
      ctx,
      'DELETE',
      '/cdn/resources/rule_templates/{rule_template_id}',
      { rule_template_id: id },
      'delete CDN rule template',
    );
}

export type GpuKind = 'baremetal' | 'virtual';

export type CdnActivityEntry = {
  readonly id: number;
  readonly path: string;
  readonly method: string;
  readonly requested_at: string;
  readonly data?: Wire;
  readonly status_code: number;
  readonly actions?: readonly { action_type?: string; state_after_request?: Wire }[];
};
export type CdnActivityPage = {
  readonly count: number;
  readonly next?: string | null;
  readonly results: CdnActivityEntry[];
};
/** The largest page a CDN list gives (its `limit` maximum). */
const CDN_PAGE = 1000;

type CdnList = Wire[] | { count: number; next: string | null; previous: string | null; results: Wire[] };

function sp(s: Scope): Params {
  return { project_id: s.projectId, region_id: s.regionId };
}

/** CDN lists come as a bare array, or as {count, next, previous, results} when `limit` was sent. */
export function cdnItems(body: CdnList | undefined): Wire[] {
  if (Array.isArray(body)) return body;
  return body?.results ?? [];
}

/**
 * Cloud paging (the SDKs' rule): the first request sends neither limit nor offset, so the server's
 * default page applies; next offset = offset + results; stop at the total, an empty page, or maxItems.
 */
export async function collectPages<T>(
  fetch: (offset: number | undefined) => Promise<CloudPage<T>>,
  maxItems: number,
): Promise<T[]> {
  const items: T[] = [];
  let offset: number | undefined;
  for (;;) {
    const page = await fetch(offset);
    items.push(...page.results);
    if (items.length >= maxItems || page.results.length === 0) break;
    const next = (offset ?? 0) + page.results.length;
    if (next >= page.count || next === 0) break;
    offset = next;
  }
  return items.slice(0, maxItems);
}

/** `tag_key_value` travels as one JSON-encoded object in a string. */
export function encodeTagKeyValue(tags: Readonly<Record<string, string>> | undefined): string | undefined {
  return tags && Object.keys(tags).length ? JSON.stringify(tags) : undefined;
}

export type TagKeyValue = Readonly<Record<string, string>> | string;

export type BaremetalFilters = {
  readonly changesBefore?: string;
  readonly changesSince?: string;
  readonly flavorId?: string;
  readonly flavorPrefix?: string;
  readonly includeK8s?: boolean;
  readonly ip?: string;
  readonly name?: string;
  readonly onlyIsolated?: boolean;
  readonly onlyWithFixedExternalIp?: boolean;
  readonly orderBy?: string;
  readonly profileName?: string;
  readonly protectionStatus?: string;
  readonly status?: string;
  readonly tagKeyValue?: TagKeyValue;
  readonly tagValues?: readonly string[];
  readonly uuid?: string;
  readonly withInterfacesName?: boolean;
  readonly withDdos?: boolean;
  readonly typeDdosProfile?: string;
};

/** Bare metal list query: hyphenated change filters, JSON tag_key_value, repeated tag_value. */
export function baremetalQuery(f: BaremetalFilters): Record<string, QueryValue> {
  return {
    'changes-before': f.changesBefore,
    'changes-since': f.changesSince,
    flavor_id: f.flavorId,
    flavor_prefix: f.flavorPrefix,
    include_k8s: f.includeK8s,
    ip: f.ip,
    name: f.name,
    only_isolated: f.onlyIsolated,
    only_with_fixed_external_ip: f.onlyWithFixedExternalIp,
    order_by: f.orderBy,
    profile_name: f.profileName,
    protection_status: f.protectionStatus,
    status: f.status,
    tag_key_value: tagKeyValueParam(f.tagKeyValue),
    tag_value: f.tagValues?.length ? f.tagValues : undefined,
    uuid: f.uuid,
    with_interfaces_name: f.withInterfacesName,
    with_ddos: f.withDdos,
    type_ddos_profile: f.typeDdosProfile,
  };
}

export type FloatingIpFilters = {
  readonly status?: string;
  readonly tagKeys?: readonly string[];
  readonly tagKeyValue?: TagKeyValue;
};

export function floatingIpQuery(f: FloatingIpFilters): Record<string, QueryValue> {
  return {
    status: f.status,
    tag_key: f.tagKeys?.length ? f.tagKeys : undefined,
    tag_key_value: tagKeyValueParam(f.tagKeyValue),
  };
}

function tagKeyValueParam(v: TagKeyValue | undefined): string | undefined {
  return typeof v === 'string' ? v || undefined : encodeTagKeyValue(v);
}

/** What every provc handler receives as `ctx.config`: the resolved settings and the one client. */
export type ProvcConfig = { readonly settings: ProvcSettings; readonly client: GcoreClient };
