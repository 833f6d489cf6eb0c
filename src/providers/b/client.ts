// The Civo API v2 wire client: one HttpClient, bearer token, `?region=` on every regional call (and
// `region` in bodies whose request struct has it), every page of the paginated envelope, and vendor
// error bodies mapped through errors.ts. Each endpoint is one line.
import { HttpClient, type HttpMethod } from '../../kit/http.js';
import { fillPath, type PathParams } from '../../kit/wire.js';
import type { RequestRate } from '../../kit/budget.js';
import type { OperationContext } from '../../engine/provider/context.js';
import { ProviderError } from '../../engine/errors.js';
import { parseCivoError } from './errors.js';
import type * as W from './wire/objects.js';

export type Ctx = Pick<OperationContext, 'signal' | 'retry' | 'report'>;
type Call = { readonly region?: string; readonly body?: unknown; readonly query?: Record<string, string | number> };
type Page<T> = { page: number; per_page: number | null; pages: number; items: T[] };

const PER_PAGE = 100;
/** Pages of one listing fetched at once after the first (which says how many there are). */
const PAGE_CONCURRENCY = 8;
// Paths used by several endpoints.
const POOL = '/v2/kubernetes/clusters/{id}/pools/{poolId}';
const RECORD = '/v2/dns/{id}/records/{recordId}';
const CREDENTIALS = '/v2/objectstore/credentials';
const CREDENTIAL = '/v2/objectstore/credentials/{id}';

export class CivoClient {
  readonly #http: HttpClient;

  constructor(options: { readonly baseUrl: string; readonly token: () => string; readonly rateLimit?: RequestRate }) {
    this.#http = new HttpClient({
      provider: 'provb',
      vendor: 'Civo',
      baseUrl: options.baseUrl,
      headers: () => ({ authorization: `bearer ${options.token()}` }),
      parseError: (status, body) => parseCivoError(status, body),
      secrets: () => [options.token()],
      rateLimit: options.rateLimit,
    });
  }

  // Catalogue
  regions = (c: Ctx) => this.#call<W.Region[]>(c, 'GET', '/v2/regions', {}, 'list regions');
  sizes = (c: Ctx) => this.#call<W.Size[]>(c, 'GET', '/v2/sizes', {}, 'list sizes');
  diskImages = (c: Ctx, r?: string) => this.#in<W.DiskImage[]>(c, r, 'GET', '/v2/disk_images', {}, 'list disk images');
  kubernetesVersions = (c: Ctx) =>
    this.#call<W.KubernetesVersion[]>(c, 'GET', '/v2/kubernetes/versions', {}, 'list kubernetes versions');
  databaseVersions = (c: Ctx) =>
    this.#call<W.DatabaseVersions>(c, 'GET', '/v2/databases/versions', {}, 'list database versions');
  // Instances
  listInstances = (c: Ctx, r: string) => this.#all<W.Instance>(c, '/v2/instances', {}, 'list instances', r);
  getInstance = (c: Ctx, r: string, id: string) =>
    this.#in<W.Instance>(c, r, 'GET', '/v2/instances/{id}', { id }, 'read instance');
  createInstance = (c: Ctx, r: string, body: W.Body) =>
    this.#in<W.Instance>(c, r, 'POST', '/v2/instances', {}, 'create instance', body);
  updateInstance = (c: Ctx, r: string, id: string, body: W.Body) =>
    this.#in<W.SimpleResponse>(c, r, 'PUT', '/v2/instances/{id}', { id }, 'update instance', body);
  retagInstance = (c: Ctx, r: string, id: string, tags: readonly string[]) =>
    this.#in<W.SimpleResponse>(c, r, 'PUT', '/v2/instances/{id}/tags', { id }, 'tag instance', {
      tags: tags.join(' '),
    });
  setInstanceFirewall = (c: Ctx, r: string, id: string, firewallId: string) =>
    this.#in<W.SimpleResponse>(c, r, 'PUT', '/v2/instances/{id}/firewall', { id }, 'set instance firewall', {
      firewall_id: firewallId,
    });
  resizeInstance = (c: Ctx, r: string, id: string, size: string) =>
    this.#in<W.SimpleResponse>(c, r, 'PUT', '/v2/instances/{id}/resize', { id }, 'resize instance', { size });
  deleteInstance = (c: Ctx, r: string, id: string) =>
    this.#in<W.SimpleResponse>(c, r, 'DELETE', '/v2/instances/{id}', { id }, 'delete instance');
  // Networks and subnets (the v1.2 provider's /v2/vpc aliases)
  listNetworks = (c: Ctx, r: string) => this.#in<W.Network[]>(c, r, 'GET', '/v2/vpc/networks', {}, 'list networks');
  getNetwork = (c: Ctx, r: string, id: string) =>
    this.#in<W.Network>(c, r, 'GET', '/v2/vpc/networks/{id}', { id }, 'read network');
  createNetwork = (c: Ctx, r: string, body: W.Body) =>
    this.#in<W.Created>(c, r, 'POST', '/v2/vpc/networks', {}, 'create network', body);
  updateNetwork = (c: Ctx, r: string, id: string, body: W.Body) =>
    this.#in<W.SimpleResponse>(c, r, 'PUT', '/v2/vpc/networks/{id}', { id }, 'update network', body);
  deleteNetwork = (c: Ctx, r: string, id: string) =>
    this.#in<W.SimpleResponse>(c, r, 'DELETE', '/v2/vpc/networks/{id}', { id }, 'delete network');
  listSubnets = (c: Ctx, r: string, networkId: string) =>
    this.#in<W.Subnet[]>(c, r, 'GET', '/v2/vpc/networks/{id}/subnets', { id: networkId }, 'list subnets');
  // Firewalls and rules
  listFirewalls = (c: Ctx, r: string) => this.#in<W.Firewall[]>(c, r, 'GET', '/v2/vpc/firewalls', {}, 'list firewalls');
  createFirewall = (c: Ctx, r: string, body: W.Body) =>
    this.#in<W.Created>(c, r, 'POST', '/v2/vpc/firewalls', {}, 'create firewall', body);
  renameFirewall = (c: Ctx, r: string, id: string, name: string) =>
    this.#in<W.SimpleResponse>(c, r, 'PUT', '/v2/vpc/firewalls/{id}', { id }, 'rename firewall', { name });
  deleteFirewall = (c: Ctx, r: string, id: string) =>
    this.#in<W.SimpleResponse>(c, r, 'DELETE', '/v2/vpc/firewalls/{id}', { id }, 'delete firewall');
  listFirewallRules = (c: Ctx, r: string, id: string) =>
    this.#in<W.FirewallRule[]>(c, r, 'GET', '/v2/vpc/firewalls/{id}/rules', { id }, 'list firewall rules');
  createFirewallRule = (c: Ctx, r: string, id: string, body: W.Body) =>
    this.#in<W.FirewallRule>(c, r, 'POST', '/v2/vpc/firewalls/{id}/rules', { id }, 'create firewall rule', {
      ...body,
      firewall_id: id,
    });
  deleteFirewallRule = (c: Ctx, r: string, id: string, ruleId: string) =>
    this.#in<W.SimpleResponse>(
      c,
      r,
      'DELETE',
      '/v2/vpc/firewalls/{id}/rules/{ruleId}',
      { id, ruleId },
      'delete firewall rule',
    );
  // Volumes
  listVolumes = (c: Ctx, r: string) => this.#in<W.Volume[]>(c, r, 'GET', '/v2/volumes', {}, 'list volumes');
  getVolume = (c: Ctx, r: string, id: string) =>
    this.#in<W.Volume>(c, r, 'GET', '/v2/volumes/{id}', { id }, 'read volume');
  createVolume = (c: Ctx, r: string, body: W.Body) =>
    this.#in<W.Created>(c, r, 'POST', '/v2/volumes', {}, 'create volume', body);
  resizeVolume = (c: Ctx, r: string, id: string, sizeGb: number) =>
    this.#in<W.SimpleResponse>(c, r, 'PUT', '/v2/volumes/{id}/resize', { id }, 'resize volume', { size_gb: sizeGb });
  attachVolume = (c: Ctx, r: string, id: string, instanceId: string, atBoot: boolean) =>
    this.#in<W.SimpleResponse>(c, r, 'PUT', '/v2/volumes/{id}/attach', { id }, 'attach volume', {
      instance_id: instanceId,
      attach_at_boot: atBoot,
    });
  detachVolume = (c: Ctx, r: string, id: string) =>
    this.#in<W.SimpleResponse>(c, r, 'PUT', '/v2/volumes/{id}/detach', { id }, 'detach volume', {});
  deleteVolume = (c: Ctx, r: string, id: string) =>
    this.#in<W.SimpleResponse>(c, r, 'DELETE', '/v2/volumes/{id}', { id }, 'delete volume');
  // Reserved IPs
  listIps = (c: Ctx, r: string) => this.#all<W.ReservedIp>(c, '/v2/vpc/ips', {}, 'list reserved IPs', r);
  getIp = (c: Ctx, r: string, id: string) =>
    this.#in<W.ReservedIp>(c, r, 'GET', '/v2/vpc/ips/{id}', { id }, 'read reserved IP');
  createIp = (c: Ctx, r: string, name: string) =>
    this.#in<W.ReservedIp>(c, r, 'POST', '/v2/vpc/ips', {}, 'create reserved IP', { name });
  renameIp = (c: Ctx, r: string, id: string, name: string) =>
    this.#in<W.ReservedIp>(c, r, 'PUT', '/v2/vpc/ips/{id}', { id }, 'rename reserved IP', { name });
  ipAction = (c: Ctx, r: string, id: string, action: 'assign' | 'unassign', instanceId: string) =>
    this.#in<W.SimpleResponse>(
      c,
      r,
      'POST',
      '/v2/vpc/ips/{id}/actions',
      { id },
      `${action} reserved IP`,
      { action, assign_to_id: instanceId, assign_to_type: 'instance' },
      true,
    );
  deleteIp = (c: Ctx, r: string, id: string) =>
    this.#in<W.SimpleResponse>(c, r, 'DELETE', '/v2/vpc/ips/{id}', { id }, 'delete reserved IP');
  // Load balancers
  listLoadBalancers = (c: Ctx, r: string) =>
    this.#in<W.LoadBalancer[]>(c, r, 'GET', '/v2/vpc/loadbalancers', {}, 'list load balancers');
  getLoadBalancer = (c: Ctx, r: string, id: string) =>
    this.#in<W.LoadBalancer>(c, r, 'GET', '/v2/vpc/loadbalancers/{id}', { id }, 'read load balancer');
  createLoadBalancer = (c: Ctx, r: string, body: W.Body) =>
    this.#in<W.LoadBalancer>(c, r, 'POST', '/v2/vpc/loadbalancers', {}, 'create load balancer', body);
  updateLoadBalancer = (c: Ctx, r: string, id: string, body: W.Body) =>
    this.#in<W.LoadBalancer>(c, r, 'PUT', '/v2/vpc/loadbalancers/{id}', { id }, 'update load balancer', body);
  deleteLoadBalancer = (c: Ctx, r: string, id: string) =>
    this.#in<W.SimpleResponse>(c, r, 'DELETE', '/v2/vpc/loadbalancers/{id}', { id }, 'delete load balancer');
  // Kubernetes clusters and pools
  listClusters = (c: Ctx, r: string) =>
    this.#all<W.KubernetesCluster>(c, '/v2/kubernetes/clusters', {}, 'list kubernetes clusters', r);
  getCluster = (c: Ctx, r: string, id: string) =>
    this.#in<W.KubernetesCluster>(c, r, 'GET', '/v2/kubernetes/clusters/{id}', { id }, 'read kubernetes cluster');
  createCluster = (c: Ctx, r: string, body: W.Body) =>
    this.#in<W.KubernetesCluster>(c, r, 'POST', '/v2/kubernetes/clusters', {}, 'create kubernetes cluster', body);
  updateCluster = (c: Ctx, r: string, id: string, body: W.Body) =>
    this.#in<W.KubernetesCluster>(
      c,
      r,
      'PUT',
      '/v2/kubernetes/clusters/{id}',
      { id },
      'update kubernetes cluster',
      body,
    );
  deleteCluster = (c: Ctx, r: string, id: string) =>
    this.#in<W.SimpleResponse>(c, r, 'DELETE', '/v2/kubernetes/clusters/{id}', { id }, 'delete kubernetes cluster');
  getPool = (c: Ctx, r: string, id: string, poolId: string) =>
    this.#in<W.KubernetesPool>(c, r, 'GET', POOL, { id, poolId }, 'read node pool');
  createPool = (c: Ctx, r: string, id: string, body: W.Body) =>
    this.#in<W.SimpleResponse>(c, r, 'POST', '/v2/kubernetes/clusters/{id}/pools', { id }, 'create node pool', body);
  updatePool = (c: Ctx, r: string, id: string, poolId: string, body: W.Body) =>
    this.#in<W.KubernetesPool>(c, r, 'PUT', POOL, { id, poolId }, 'update node pool', body);
  deletePool = (c: Ctx, r: string, id: string, poolId: string) =>
    this.#in<W.SimpleResponse>(c, r, 'DELETE', POOL, { id, poolId }, 'delete node pool');
  // Databases
  listDatabases = (c: Ctx, r: string) => this.#all<W.Database>(c, '/v2/databases', {}, 'list databases', r);
  getDatabase = (c: Ctx, r: string, id: string) =>
    this.#in<W.Database>(c, r, 'GET', '/v2/databases/{id}', { id }, 'read database');
  createDatabase = (c: Ctx, r: string, body: W.Body) =>
    this.#in<W.Database>(c, r, 'POST', '/v2/databases', {}, 'create database', body);
  updateDatabase = (c: Ctx, r: string, id: string, body: W.Body) =>
    this.#in<W.Database>(c, r, 'PUT', '/v2/databases/{id}', { id }, 'update database', body);
  deleteDatabase = (c: Ctx, r: string, id: string) =>
    this.#in<W.SimpleResponse>(c, r, 'DELETE', '/v2/databases/{id}', { id }, 'delete database');
  // DNS (account-global: no region)
  listDomains = (c: Ctx) => this.#call<W.DnsDomain[]>(c, 'GET', '/v2/dns', {}, 'list DNS domains');
  createDomain = (c: Ctx, name: string) =>
    this.#call<W.DnsDomain>(c, 'POST', '/v2/dns', {}, 'create DNS domain', { body: { name } });
  renameDomain = (c: Ctx, id: string, name: string) =>
    this.#call<W.DnsDomain>(c, 'PUT', '/v2/dns/{id}', { id }, 'rename DNS domain', { body: { name } });
  deleteDomain = (c: Ctx, id: string) =>
    this.#call<W.SimpleResponse>(c, 'DELETE', '/v2/dns/{id}', { id }, 'delete DNS domain');
  listRecords = (c: Ctx, domainId: string) =>
    this.#call<W.DnsRecord[]>(c, 'GET', '/v2/dns/{id}/records', { id: domainId }, 'list DNS records');
  createRecord = (c: Ctx, domainId: string, body: W.Body) =>
    this.#call<W.DnsRecord>(c, 'POST', '/v2/dns/{id}/records', { id: domainId }, 'create DNS record', { body });
  updateRecord = (c: Ctx, domainId: string, id: string, body: W.Body) =>
    this.#call<W.DnsRecord>(c, 'PUT', RECORD, { id: domainId, recordId: id }, 'update DNS record', { body });
  deleteRecord = (c: Ctx, domainId: string, id: string) =>
    this.#call<W.SimpleResponse>(c, 'DELETE', RECORD, { id: domainId, recordId: id }, 'delete DNS record');
  // SSH keys (account-global)
  listSshKeys = (c: Ctx) => this.#call<W.SshKey[]>(c, 'GET', '/v2/sshkeys', {}, 'list SSH keys');
  createSshKey = (c: Ctx, name: string, publicKey: string) =>
    this.#call<W.Created>(c, 'POST', '/v2/sshkeys', {}, 'create SSH key', { body: { name, public_key: publicKey } });
  renameSshKey = (c: Ctx, id: string, name: string) =>
    this.#call<W.SshKey>(c, 'PUT', '/v2/sshkeys/{id}', { id }, 'rename SSH key', { body: { name } });
  deleteSshKey = (c: Ctx, id: string) =>
    this.#call<W.SimpleResponse>(c, 'DELETE', '/v2/sshkeys/{id}', { id }, 'delete SSH key');
  // Object stores and credentials (note: plural stores, singular credential path)
  listObjectStores = (c: Ctx, r: string) =>
    this.#all<W.ObjectStore>(c, '/v2/objectstores', {}, 'list object stores', r);
  getObjectStore = (c: Ctx, r: string, id: string) =>
    this.#in<W.ObjectStore>(c, r, 'GET', '/v2/objectstores/{id}', { id }, 'read object store');
  createObjectStore = (c: Ctx, r: string, body: W.Body) =>
    this.#in<W.ObjectStore>(c, r, 'POST', '/v2/objectstores', {}, 'create object store', body);
  resizeObjectStore = (c: Ctx, r: string, id: string, maxSizeGb: number) =>
    this.#in<W.ObjectStore>(c, r, 'PUT', '/v2/objectstores/{id}', { id }, 'resize object store', {
      max_size_gb: maxSizeGb,
    });
  deleteObjectStore = (c: Ctx, r: string, id: string) =>
    this.#in<W.SimpleResponse>(c, r, 'DELETE', '/v2/objectstores/{id}', { id }, 'delete object store');
  listCredentials = (c: Ctx, r: string) =>
    this.#all<W.ObjectStoreCredential>(c, CREDENTIALS, {}, 'list object store credentials', r);
  getCredential = (c: Ctx, r: string, id: string) =>
    this.#in<W.ObjectStoreCredential>(c, r, 'GET', CREDENTIAL, { id }, 'read object store credential');
  createCredential = (c: Ctx, r: string, body: W.Body) =>
    this.#in<W.ObjectStoreCredential>(c, r, 'POST', CREDENTIALS, {}, 'create object store credential', body);
  updateCredential = (c: Ctx, r: string, id: string, body: W.Body) =>
    this.#in<W.ObjectStoreCredential>(c, r, 'PUT', CREDENTIAL, { id }, 'update object store credential', body);
  deleteCredential = (c: Ctx, r: string, id: string) =>
    this.#in<W.SimpleResponse>(c, r, 'DELETE', CREDENTIAL, { id }, 'delete object store credential');

  /**
   * A regional request: `?region=` (when a region is given) and, with a body, `region` in it too (the
   * API's request structs carry it).
   */
  #in<T>(
    ctx: Ctx,
    region: string | undefined,
    method: HttpMethod,
    template: string,
    params: PathParams,
    operation: string,
    body?: W.Body,
    idempotent?: boolean,
  ): Promise<T> {
    const call = { region, body: body === undefined ? undefined : { ...body, region } };
    return this.#call<T>(ctx, method, template, params, operation, call, idempotent);
  }

  /** One request; `template`'s `{name}` placeholders are filled by name from `params`. */
  async #call<T>(
    ctx: Ctx,
    method: HttpMethod,
    template: string,
    params: PathParams,
    operation: string,
    call: Call = {},
    idempotent?: boolean,
  ): Promise<T> {
    const path = fillPath(template, params);
    const query: Record<string, string | number> = { ...(call.query ?? {}) };
    if (call.region) query.region = call.region;
    const res = await this.#http.request<T>(ctx, {
      method,
      path,
      pathTemplate: template,
      query,
      body: call.body,
      operation,
      idempotent,
    });
    return res.body;
  }

  /** Every item of a paginated list (`{page, per_page, pages, items}`): the first page, then the rest concurrently. */
  async #all<T>(ctx: Ctx, template: string, params: PathParams, operation: string, region: string): Promise<T[]> {
    const page = async (n: number): Promise<Page<T>> => {
      const body = await this.#call<Page<T>>(ctx, 'GET', template, params, operation, {
        region,
        query: { page: n, per_page: PER_PAGE },
      });
      if (!body || !Array.isArray(body.items)) {
        throw new ProviderError({
          provider: 'provb',
          operation,
          method: 'GET',
          pathTemplate: template,
          retryable: false,
          detail: 'the answer is not a page envelope {page, pages, items}',
        });
      }
      return body;
    };
    const first = await page(1);
    const pages = first.items.length === 0 ? 1 : (first.pages ?? 1);
    const items = [...first.items];
    for (let from = 2; from <= pages; from += PAGE_CONCURRENCY) {
      const batch = await Promise.all(
        Array.from({ length: Math.min(PAGE_CONCURRENCY, pages - from + 1) }, (_, i) => page(from + i)),
      );
      for (const b of batch) items.push(...b.items);
    }
    return items;
  }
}
