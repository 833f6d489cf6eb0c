// The Gcore wire client: one HttpClient (API-key header, Gcore error bodies, retries through the
// engine's mechanism), both list envelopes, the query encodings of the wire notes, and one line per
// endpoint. Paths are relative, so a base URL with a path prefix works.
import type { Dispatcher } from 'undici';
import { HttpClient, type HttpMethod, type QueryValue } from '../../kit/http.js';
import type { OperationContext } from '../../engine/provider/context.js';
import { ConfigError } from '../../engine/errors.js';
import { parseGcoreError } from './errors.js';
import type { RequestRate } from '../../kit/budget.js';
import { fillPath } from '../../kit/wire.js';
import { cdnItems, collectCdnPages, collectPages, type CdnList } from './support/query.js';
import type { CdnActivityPage, CloudPage, Task, TaskIds } from './wire/answers.js';
import type * as C from './wire/cdn.js';
import type { FloatingIp, FloatingIpCreate, FloatingIpUpdate, Scope } from './wire/cloud.js';

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

/** What the client reads of provider C's resolved settings (config.ts's ProvcSettings holds these and more). */
export type GcoreClientSettings = {
  readonly apiKey: string | undefined;
  readonly baseUrl: string;
  readonly pollingIntervalSeconds: number;
  readonly pollingTimeoutSeconds: number;
  readonly rateLimit?: RequestRate;
};

export class GcoreClient {
  readonly #http: HttpClient;
  readonly #settings: GcoreClientSettings;

  constructor(settings: GcoreClientSettings, dispatcher?: Dispatcher) {
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

  get settings(): GcoreClientSettings {
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
  cdnAll = <T>(ctx: Ctx, template: string, params: Params, operation: string): Promise<T[]> =>
    collectCdnPages((query) => this.call<CdnList<T>>(ctx, 'GET', template, params, operation, { query }));
  allCdnResources = (ctx: Ctx) => this.#resources.all(ctx);
  allCdnOriginGroups = (ctx: Ctx) => this.#groups.all(ctx);
  allCdnCertificates = (ctx: Ctx) => this.#certs.all(ctx);
  allCdnCaCertificates = (ctx: Ctx) => this.#cas.all(ctx);
  allCdnRules = (ctx: Ctx, resourceId: number) =>
    this.cdnAll<C.CdnRule>(
      ctx,
      '/cdn/resources/{resource_id}/rules',
      { resource_id: resourceId },
      'list CDN resource rules',
    );
  allCdnRuleTemplates = (ctx: Ctx) => this.#templates.all(ctx);
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
    this.call<CloudPage<FloatingIp>>(
      ctx,
      'GET',
      '/cloud/v1/floatingips/{project_id}/{region_id}',
      sp(s),
      'list floating IPs',
      {
        query,
      },
    );
  getFloatingIp = (ctx: Ctx, s: Scope, id: string) =>
    this.call<FloatingIp>(
      ctx,
      'GET',
      '/cloud/v1/floatingips/{project_id}/{region_id}/{floating_ip_id}',
      { ...sp(s), floating_ip_id: id },
      'read floating IP',
    );
  createFloatingIp = (ctx: Ctx, s: Scope, body: FloatingIpCreate) =>
    this.call<TaskIds>(ctx, 'POST', '/cloud/v1/floatingips/{project_id}/{region_id}', sp(s), 'create floating IP', {
      body,
    });
  updateFloatingIp = (ctx: Ctx, s: Scope, id: string, body: FloatingIpUpdate) =>
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

  /** The endpoints of one CDN object type at `path`, its id named `idName` in the path ('list CDN origin groups'). */
  #cdnCrud<T, Req>(path: string, idName: string, what: string) {
    const one = `${path}/{${idName}}`;
    return {
      list: (ctx: Ctx, query: Query = {}) =>
        this.call<CdnList<T>>(ctx, 'GET', path, {}, `list ${what}s`, { query }).then(cdnItems),
      all: (ctx: Ctx) => this.cdnAll<T>(ctx, path, {}, `list ${what}s`),
      get: (ctx: Ctx, id: number) => this.call<T>(ctx, 'GET', one, { [idName]: id }, `read ${what}`),
      create: (ctx: Ctx, body: Req) => this.call<T>(ctx, 'POST', path, {}, `create ${what}`, { body }),
      replace: (ctx: Ctx, id: number, body: Req) =>
        this.call<T>(ctx, 'PUT', one, { [idName]: id }, `update ${what}`, { body }),
      delete: (ctx: Ctx, id: number) => this.call<void>(ctx, 'DELETE', one, { [idName]: id }, `delete ${what}`),
    };
  }

  // CDN: SSL certificates (a create may answer without a body)
  readonly #certs = this.#cdnCrud<C.CdnCertificate, C.CdnCertificateRequest>(
    '/cdn/sslData',
    'ssl_id',
    'CDN certificate',
  );
  listCdnCertificates = this.#certs.list;
  getCdnCertificate = this.#certs.get;
  createCdnCertificate = this.#certs.create as (
    ctx: Ctx,
    body: C.CdnCertificateRequest,
  ) => Promise<C.CdnCertificate | undefined>;
  replaceCdnCertificate = this.#certs.replace;
  deleteCdnCertificate = this.#certs.delete;

  // CDN: trusted CA certificates (an update changes the name only)
  readonly #cas = this.#cdnCrud<C.CdnCaCertificate, C.CdnCaCertificateRequest>(
    '/cdn/sslCertificates',
    'id',
    'CDN CA certificate',
  );
  listCdnCaCertificates = this.#cas.list;
  getCdnCaCertificate = this.#cas.get;
  createCdnCaCertificate = this.#cas.create;
  replaceCdnCaCertificate = this.#cas.replace;
  deleteCdnCaCertificate = this.#cas.delete;

  // CDN: origin groups
  readonly #groups = this.#cdnCrud<C.CdnOriginGroup, C.CdnOriginGroupRequest>(
    '/cdn/origin_groups',
    'origin_group_id',
    'CDN origin group',
  );
  listCdnOriginGroups = this.#groups.list;
  getCdnOriginGroup = this.#groups.get;
  createCdnOriginGroup = this.#groups.create;
  replaceCdnOriginGroup = this.#groups.replace;
  deleteCdnOriginGroup = this.#groups.delete;

  // CDN: resources (POST takes the cname and origin, PUT the settings)
  readonly #resources = this.#cdnCrud<C.CdnResource, C.CdnResourceRequest>(
    '/cdn/resources',
    'resource_id',
    'CDN resource',
  );
  listCdnResources = this.#resources.list;
  getCdnResource = this.#resources.get;
  createCdnResource = this.#resources.create;
  replaceCdnResource = this.#resources.replace as (
    ctx: Ctx,
    id: number,
    body: C.CdnResourceSettings,
  ) => Promise<C.CdnResource>;
  deleteCdnResource = this.#resources.delete;

  // CDN: resource rules
  listCdnRules = (ctx: Ctx, resourceId: number) =>
    this.call<CdnList<C.CdnRule>>(
      ctx,
      'GET',
      '/cdn/resources/{resource_id}/rules',
      { resource_id: resourceId },
      'list CDN resource rules',
    ).then(cdnItems);
  getCdnRule = (ctx: Ctx, resourceId: number, id: number) =>
    this.call<C.CdnRule>(
      ctx,
      'GET',
      '/cdn/resources/{resource_id}/rules/{rule_id}',
      { resource_id: resourceId, rule_id: id },
      'read CDN resource rule',
    );
  createCdnRule = (ctx: Ctx, resourceId: number, body: C.CdnRuleRequest) =>
    this.call<C.CdnRule>(
      ctx,
      'POST',
      '/cdn/resources/{resource_id}/rules',
      { resource_id: resourceId },
      'create CDN resource rule',
      { body },
    );
  replaceCdnRule = (ctx: Ctx, resourceId: number, id: number, body: C.CdnRuleRequest) =>
    this.call<C.CdnRule>(
      ctx,
      'PUT',
      '/cdn/resources/{resource_id}/rules/{rule_id}',
      { resource_id: resourceId, rule_id: id },
      'update CDN resource rule',
      { body },
    );
  patchCdnRule = (ctx: Ctx, resourceId: number, id: number, body: Partial<C.CdnRuleRequest>) =>
    this.call<C.CdnRule>(
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
  readonly #templates = this.#cdnCrud<C.CdnRuleTemplate, C.CdnRuleRequest>(
    '/cdn/resources/rule_templates',
    'rule_template_id',
    'CDN rule template',
  );
  listCdnRuleTemplates = (ctx: Ctx) => this.#templates.list(ctx);
  getCdnRuleTemplate = this.#templates.get;
  createCdnRuleTemplate = this.#templates.create;
  replaceCdnRuleTemplate = this.#templates.replace;
  deleteCdnRuleTemplate = this.#templates.delete;
}

export type GpuKind = 'baremetal' | 'virtual';

function sp(s: Scope): Params {
  return { project_id: s.projectId, region_id: s.regionId };
}
