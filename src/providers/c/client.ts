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
import { cdnItems, collectCdnPages, collectPages, type CdnList } from './wire/query.js';
import type { CdnActivityPage, CloudPage, Task, TaskIds } from './wire/answers.js';

export type Ctx = Pick<OperationContext, 'signal' | 'retry' | 'report'>;
export type Wire = Record<string, unknown>;
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
      vendor: 'Gcore',
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

  /** Every item of a CDN list (see collectCdnPages). */
  cdnAll = (ctx: Ctx, template: string, params: Params, operation: string): Promise<Wire[]> =>
    collectCdnPages((query) => this.call<CdnList>(ctx, 'GET', template, params, operation, { query }));
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

function sp(s: Scope): Params {
  return { project_id: s.projectId, region_id: s.regionId };
}
