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

export class CivoClient {
  readonly #http: HttpClient;

  constructor(options: { readonly baseUrl: string; readonly token: () => string; readonly rateLimit?: RequestRate }) {
    this.#http = new HttpClient({
      provider: 'provb',
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
  diskImages = (c: Ctx, r?: string) =>
    this.#call<W.DiskImage[]>(c, 'GET', '/v2/disk_images', {}, 'list disk images', { region: r });
  kubernetesVersions = (c: Ctx) =>
    this.#call<W.KubernetesVersion[]>(c, 'GET', '/v2/kubernetes/versions', {}, 'list kubernetes versions');
  databaseVersions = (c: Ctx) =>
    this.#call<W.DatabaseVersions>(c, 'GET', '/v2/databases/versions', {}, 'list database versions');
  // Instances
  listInstances = (c: Ctx, r: string) => this.#all<W.Instance>(c, '/v2/instances', {}, 'list instances', r);
  getInstance = (c: Ctx, r: string, id: string) =>
    this.#call<W.Instance>(c, 'GET', '/v2/instances/{id}', { id }, 'read instance', { region: r });
  createInstance = (c: Ctx, r: string, body: W.Body) =>
    this.#call<W.Instance>(c, 'POST', '/v2/instances', {}, 'create instance', {
      region: r,
      body: { ...body, region: r },
    });
  updateInstance = (c: Ctx, r: string, id: string, body: W.Body) =>
    this.#call<W.SimpleResponse>(c, 'PUT', '/v2/instances/{id}', { id }, 'update instance', {
      region: r,
      body: { ...body, region: r },
    });
  retagInstance = (c: Ctx, r: string, id: string, tags: readonly string[]) =>
    this.#call<W.SimpleResponse>(c, 'PUT', '/v2/instances/{id}/tags', { id }, 'tag instance', {
      region: r,
      body: { tags: tags.join(' '), region: r },
    });
  setInstanceFirewall = (c: Ctx, r: string, id: string, firewallId: string) =>
    this.#call<W.SimpleResponse>(c, 'PUT', '/v2/instances/{id}/firewall', { id }, 'set instance firewall', {
      region: r,
      body: { firewall_id: firewallId, region: r },
    });
  resizeInstance = (c: Ctx, r: string, id: string, size: string) =>
    this.#call<W.SimpleResponse>(c, 'PUT', '/v2/instances/{id}/resize', { id }, 'resize instance', {
      region: r,
      body: { size, region: r },
    });
  deleteInstance = (c: Ctx, r: string, id: string) =>
    this.#call<W.SimpleResponse>(c, 'DELETE', '/v2/instances/{id}', { id }, 'delete instance', { region: r });
  // Networks and subnets (the v1.2 provider's /v2/vpc aliases)
  listNetworks = (c: Ctx, r: string) =>
    this.#call<W.Network[]>(c, 'GET', '/v2/vpc/networks', {}, 'list networks', { region: r });
  getNetwork = (c: Ctx, r: string, id: string) =>
    this.#call<W.Network>(c, 'GET', '/v2/vpc/networks/{id}', { id }, 'read network', { region: r });
  createNetwork = (c: Ctx, r: string, body: W.Body) =>
    this.#call<W.Created>(c, 'POST', '/v2/vpc/networks', {}, 'create network', {
      region: r,
      body: { ...body, region: r },
    });
  updateNetwork = (c: Ctx, r: string, id: string, body: W.Body) =>
    this.#call<W.SimpleResponse>(c, 'PUT', '/v2/vpc/networks/{id}', { id }, 'update network', {
      region: r,
      body: { ...body, region: r },
    });
  deleteNetwork = (c: Ctx, r: string, id: string) =>
    this.#call<W.SimpleResponse>(c, 'DELETE', '/v2/vpc/networks/{id}', { id }, 'delete network', { region: r });
  listSubnets = (c: Ctx, r: string, networkId: string) =>
    this.#call<W.Subnet[]>(c, 'GET', '/v2/vpc/networks/{id}/subnets', { id: networkId }, 'list subnets', { region: r });
  // Firewalls and rules
  listFirewalls = (c: Ctx, r: string) =>
    this.#call<W.Firewall[]>(c, 'GET', '/v2/vpc/firewalls', {}, 'list firewalls', { region: r });
  createFirewall = (c: Ctx, r: string, body: W.Body) =>
    this.#call<W.Created>(c, 'POST', '/v2/vpc/firewalls', {}, 'create firewall', {
      region: r,
      body: { ...body, region: r },
    });
  renameFirewall = (c: Ctx, r: string, id: string, name: string) =>
    this.#call<W.SimpleResponse>(c, 'PUT', '/v2/vpc/firewalls/{id}', { id }, 'rename firewall', {
      region: r,
      body: { name, region: r },
    });
  deleteFirewall = (c: Ctx, r: string, id: string) =>
    this.#call<W.SimpleResponse>(c, 'DELETE', '/v2/vpc/firewalls/{id}', { id }, 'delete firewall', { region: r });
  listFirewallRules = (c: Ctx, r: string, id: string) =>
    this.#call<W.FirewallRule[]>(c, 'GET', '/v2/vpc/firewalls/{id}/rules', { id }, 'list firewall rules', {
      region: r,
    });
  createFirewallRule = (c: Ctx, r: string, id: string, body: W.Body) =>
    this.#call<W.FirewallRule>(c, 'POST', '/v2/vpc/firewalls/{id}/rules', { id }, 'create firewall rule', {
      region: r,
      body: { ...body, firewall_id: id, region: r },
    });
  deleteFirewallRule = (c: Ctx, r: string, id: string, ruleId: string) =>
    this.#call<W.SimpleResponse>(
      c,
      'DELETE',
      '/v2/vpc/firewalls/{id}/rules/{ruleId}',
      { id, ruleId },
      'delete firewall rule',
      {
        region: r,
      },
    );
  // Volumes
  listVolumes = (c: Ctx, r: string) =>
    this.#call<W.Volume[]>(c, 'GET', '/v2/volumes', {}, 'list volumes', { region: r });
  getVolume = (c: Ctx, r: string, id: string) =>
    this.#call<W.Volume>(c, 'GET', '/v2/volumes/{id}', { id }, 'read volume', { region: r });
  createVolume = (c: Ctx, r: string, body: W.Body) =>
    this.#call<W.Created>(c, 'POST', '/v2/volumes', {}, 'create volume', { region: r, body: { ...body, region: r } });
  resizeVolume = (c: Ctx, r: string, id: string, sizeGb: number) =>
    this.#call<W.SimpleResponse>(c, 'PUT', '/v2/volumes/{id}/resize', { id }, 'resize volume', {
      region: r,
      body: { size_gb: sizeGb, region: r },
    });
  attachVolume = (c: Ctx, r: string, id: string, instanceId: string, atBoot: boolean) =>
    this.#call<W.SimpleResponse>(c, 'PUT', '/v2/volumes/{id}/attach', { id }, 'attach volume', {
      region: r,
      body: { instance_id: instanceId, attach_at_boot: atBoot, region: r },
    });
  detachVolume = (c: Ctx, r: string, id: string) =>
    this.#call<W.SimpleResponse>(c, 'PUT', '/v2/volumes/{id}/detach', { id }, 'detach volume', {
      region: r,
      body: { region: r },
    });
  deleteVolume = (c: Ctx, r: string, id: string) =>
    this.#call<W.SimpleResponse>(c, 'DELETE', '/v2/volumes/{id}', { id }, 'delete volume', { region: r });
  // Reserved IPs
  listIps = (c: Ctx, r: string) => this.#all<W.ReservedIp>(c, '/v2/vpc/ips', {}, 'list reserved IPs', r);
  getIp = (c: Ctx, r: string, id: string) =>
    this.#call<W.ReservedIp>(c, 'GET', '/v2/vpc/ips/{id}', { id }, 'read reserved IP', { region: r });
  createIp = (c: Ctx, r: string, name: string) =>
    this.#call<W.ReservedIp>(c, 'POST', '/v2/vpc/ips', {}, 'create reserved IP', {
      region: r,
      body: { name, region: r },
    });
  renameIp = (c: Ctx, r: string, id: string, name: string) =>
    this.#call<W.ReservedIp>(c, 'PUT', '/v2/vpc/ips/{id}', { id }, 'rename reserved IP', {
      region: r,
      body: { name, region: r },
    });
  ipAction = (c: Ctx, r: string, id: string, action: 'assign' | 'unassign', instanceId: string) =>
    this.#call<W.SimpleResponse>(
      c,
      'POST',
      '/v2/vpc/ips/{id}/actions',
      { id },
      `${action} reserved IP`,
      { region: r, body: { action, assign_to_id: instanceId, assign_to_type: 'instance', region: r } },
      true,
    );
  deleteIp = (c: Ctx, r: string, id: string) =>
    this.#call<W.SimpleResponse>(c, 'DELETE', '/v2/vpc/ips/{id}', { id }, 'delete reserved IP', { region: r });
  // Load balancers
  listLoadBalancers = (c: Ctx, r: string) =>
    this.#call<W.LoadBalancer[]>(c, 'GET', '/v2/vpc/loadbalancers', {}, 'list load balancers', { region: r });
  getLoadBalancer = (c: Ctx, r: string, id: string) =>
    this.#call<W.LoadBalancer>(c, 'GET', '/v2/vpc/loadbalancers/{id}', { id }, 'read load balancer', { region: r });
  createLoadBalancer = (c: Ctx, r: string, body: W.Body) =>
    this.#call<W.LoadBalancer>(c, 'POST', '/v2/vpc/loadbalancers', {}, 'create load balancer', {
      region: r,
      body: { ...body, region: r },
    });
  updateLoadBalancer = (c: Ctx, r: string, id: string, body: W.Body) =>
    this.#call<W.LoadBalancer>(c, 'PUT', '/v2/vpc/loadbalancers/{id}', { id }, 'update load balancer', {
      region: r,
      body: { ...body, region: r },
    });
  deleteLoadBalancer = (c: Ctx, r: string, id: string) =>
    this.#call<W.SimpleResponse>(c, 'DELETE', '/v2/vpc/loadbalancers/{id}', { id }, 'delete load balancer', {
      region: r,
    });
  // Kubernetes clusters and pools
  listClusters = (c: Ctx, r: string) =>
    this.#all<W.KubernetesCluster>(c, '/v2/kubernetes/clusters', {}, 'list kubernetes clusters', r);
  getCluster = (c: Ctx, r: string, id: string) =>
    this.#call<W.KubernetesCluster>(c, 'GET', '/v2/kubernetes/clusters/{id}', { id }, 'read kubernetes cluster', {
      region: r,
    });
  createCluster = (c: Ctx, r: string, body: W.Body) =>
    this.#call<W.KubernetesCluster>(c, 'POST', '/v2/kubernetes/clusters', {}, 'create kubernetes cluster', {
      region: r,
      body: { ...body, region: r },
    });
  updateCluster = (c: Ctx, r: string, id: string, body: W.Body) =>
    this.#call<W.KubernetesCluster>(c, 'PUT', '/v2/kubernetes/clusters/{id}', { id }, 'update kubernetes cluster', {
      region: r,
      body: { ...body, region: r },
    });
  deleteCluster = (c: Ctx, r: string, id: string) =>
    this.#call<W.SimpleResponse>(c, 'DELETE', '/v2/kubernetes/clusters/{id}', { id }, 'delete kubernetes cluster', {
      region: r,
    });
  getPool = (c: Ctx, r: string, id: string, poolId: string) =>
    this.#call<W.KubernetesPool>(
      c,
      'GET',
      '/v2/kubernetes/clusters/{id}/pools/{poolId}',
      { id, poolId },
      'read node pool',
      {
        region: r,
      },
    );
  createPool = (c: Ctx, r: string, id: string, body: W.Body) =>
    this.#call<W.SimpleResponse>(c, 'POST', '/v2/kubernetes/clusters/{id}/pools', { id }, 'create node pool', {
      region: r,
      body: { ...body, region: r },
    });
  updatePool = (c: Ctx, r: string, id: string, poolId: string, body: W.Body) =>
    this.#call<W.KubernetesPool>(
      c,
      'PUT',
      '/v2/kubernetes/clusters/{id}/pools/{poolId}',
      { id, poolId },
      'update node pool',
      {
        region: r,
        body: { ...body, region: r },
      },
    );
  deletePool = (c: Ctx, r: string, id: string, poolId: string) =>
    this.#call<W.SimpleResponse>(
      c,
      'DELETE',
      '/v2/kubernetes/clusters/{id}/pools/{poolId}',
      { id, poolId },
      'delete node pool',
      {
        region: r,
      },
    );
  // Databases
  listDatabases = (c: Ctx, r: string) => this.#all<W.Database>(c, '/v2/databases', {}, 'list databases', r);
  getDatabase = (c: Ctx, r: string, id: string) =>
    this.#call<W.Database>(c, 'GET', '/v2/databases/{id}', { id }, 'read database', { region: r });
  createDatabase = (c: Ctx, r: string, body: W.Body) =>
    this.#call<W.Database>(c, 'POST', '/v2/databases', {}, 'create database', {
      region: r,
      body: { ...body, region: r },
    });
  updateDatabase = (c: Ctx, r: string, id: string, body: W.Body) =>
    this.#call<W.Database>(c, 'PUT', '/v2/databases/{id}', { id }, 'update database', {
      region: r,
      body: { ...body, region: r },
    });
  deleteDatabase = (c: Ctx, r: string, id: string) =>
    this.#call<W.SimpleResponse>(c, 'DELETE', '/v2/databases/{id}', { id }, 'delete database', { region: r });
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
    this.#call<W.DnsRecord>(
      c,
      'PUT',
      '/v2/dns/{id}/records/{recordId}',
      { id: domainId, recordId: id },
      'update DNS record',
      {
        body,
      },
    );
  deleteRecord = (c: Ctx, domainId: string, id: string) =>
    this.#call<W.SimpleResponse>(
      c,
      'DELETE',
      '/v2/dns/{id}/records/{recordId}',
      { id: domainId, recordId: id },
      'delete DNS record',
    );
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
    this.#call<W.ObjectStore>(c, 'GET', '/v2/objectstores/{id}', { id }, 'read object store', { region: r });
  createObjectStore = (c: Ctx, r: string, body: W.Body) =>
    this.#call<W.ObjectStore>(c, 'POST', '/v2/objectstores', {}, 'create object store', {
      region: r,
      body: { ...body, region: r },
    });
  resizeObjectStore = (c: Ctx, r: string, id: string, maxSizeGb: number) =>
    this.#call<W.ObjectStore>(c, 'PUT', '/v2/objectstores/{id}', { id }, 'resize object store', {
      region: r,
      body: { max_size_gb: maxSizeGb, region: r },
    });
  deleteObjectStore = (c: Ctx, r: string, id: string) =>
    this.#call<W.SimpleResponse>(c, 'DELETE', '/v2/objectstores/{id}', { id }, 'delete object store', { region: r });
  listCredentials = (c: Ctx, r: string) =>
    this.#all<W.ObjectStoreCredential>(c, '/v2/objectstore/credentials', {}, 'list object store credentials', r);
  getCredential = (c: Ctx, r: string, id: string) =>
    this.#call<W.ObjectStoreCredential>(
      c,
      'GET',
      '/v2/objectstore/credentials/{id}',
      { id },
      'read object store credential',
      {
        region: r,
      },
    );
  createCredential = (c: Ctx, r: string, body: W.Body) =>
    this.#call<W.ObjectStoreCredential>(
      c,
      'POST',
      '/v2/objectstore/credentials',
      {},
      'create object store credential',
      {
        region: r,
        body: { ...body, region: r },
      },
    );
  updateCredential = (c: Ctx, r: string, id: string, body: W.Body) =>
    this.#call<W.ObjectStoreCredential>(
      c,
      'PUT',
      '/v2/objectstore/credentials/{id}',
      { id },
      'update object store credential',
      {
        region: r,
        body: { ...body, region: r },
      },
    );
  deleteCredential = (c: Ctx, r: string, id: string) =>
    this.#call<W.SimpleResponse>(
      c,
      'DELETE',
      '/v2/objectstore/credentials/{id}',
      { id },
      'delete object store credential',
      {
        region: r,
      },
    );

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
