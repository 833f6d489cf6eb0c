// provb:index/loadBalancer:LoadBalancer: a load balancer in front of fixed backends (the API's
// /v2/loadbalancers; the upstream provider only reads them). Name, firewall and traffic settings
// update in place through the full PUT; network and region force replacement.
import { z } from 'zod';
import { defineResource } from '../../../engine/provider/define.js';
import { isCannotTell } from '../../../engine/provider/define.js';
import { claim } from './claim.js';
import type { ProvbConfig, ProvbContext } from '../config.js';
import type * as W from '../wire/objects.js';
import { orNull } from '../../../kit/gone.js';
import { checkRegion, priorRegion, regionOf } from '../support/region.js';
import { afterCreated, waitUntil } from '../support/wait.js';
import { reporter } from './reported.js';
import { defined } from '../../../kit/wire.js';
import type { Prior, ReadResult } from '../../../engine/provider/define.js';
import { readByRegion } from './read-many.js';

export const backend = z
  .strictObject({
    ip: z.string().min(1).describe('IP address of the backend.'),
    protocol: z
      .enum(['TCP', 'UDP', 'HTTP', 'HTTPS'])
      .default('TCP')
      .describe('Backend protocol: `TCP` (default), `UDP`, `HTTP` or `HTTPS`.'),
    sourcePort: z.number().int().min(1).max(65535).describe('Port the load balancer listens on (1-65535).'),
    targetPort: z.number().int().min(1).max(65535).describe('Port on the backend that traffic goes to (1-65535).'),
    healthCheckPort: z
      .number()
      .int()
      .min(0)
      .max(65535)
      .optional()
      .describe("Port of the backend's health check (0-65535); none when omitted."),
  })
  .describe('One backend the load balancer forwards to.');

export const loadBalancerInputs = z
  .strictObject({
    name: z
      .string()
      .min(1)
      .regex(/^\S+$/, 'must not contain whitespace')
      .describe('Name of the load balancer (no whitespace). Updates in place.'),
    networkId: z
      .string()
      .optional()
      .describe('Network of the load balancer; the default network when omitted. Changing it forces replacement.'),
    firewallId: z.string().optional().describe("Firewall to apply; the API's default when omitted. Updates in place."),
    algorithm: z
      .enum(['round_robin', 'least_connections'])
      .default('round_robin')
      .describe('Balancing algorithm: `round_robin` (default) or `least_connections`.'),
    externalTrafficPolicy: z
      .enum(['Cluster', 'Local'])
      .default('Cluster')
      .describe('`Cluster` (default) or `Local`, as for a Kubernetes service.'),
    sessionAffinity: z.string().optional().describe('Session affinity, e.g. `ClientIP`; none when omitted.'),
    sessionAffinityConfigTimeout: z
      .number()
      .int()
      .nonnegative()
      .optional()
      .describe('Session affinity timeout in seconds.'),
    enableProxyProtocol: z
      .string()
      .optional()
      .describe('PROXY protocol mode sent to backends (e.g. `send-proxy`); off when omitted.'),
    maxConcurrentRequests: z
      .number()
      .int()
      .positive()
      .optional()
      .describe("Maximum concurrent requests; the API's default when omitted."),
    backends: z.array(backend).default([]).describe('Backends traffic is forwarded to; default none.'),
    region: z
      .string()
      .optional()
      .describe("Civo region code (e.g. LON1); defaults to the provider's region. Changing it forces replacement."),
  })
  .describe(
    'A load balancer in front of fixed backends. Name, firewall and traffic settings update in place; network and region force replacement.',
  );
type LoadBalancerInputs = z.output<typeof loadBalancerInputs>;

export const loadBalancerOutputs = z.object({
  loadBalancerId: z.string().describe('Id of the load balancer (the resource id).'),
  publicIp: z.string().describe('Public IPv4 address; empty until assigned.'),
  privateIp: z.string().describe('Private IPv4 address on the network.'),
  state: z.string().describe('Load balancer state, e.g. `available`.'),
  firewallId: z.string().describe('Id of the firewall applied.'),
  networkId: z.string().describe("Id of the load balancer's network."),
});

const outputsOf = (lb: W.LoadBalancer) => ({
  loadBalancerId: lb.id,
  publicIp: lb.public_ip ?? '',
  privateIp: lb.private_ip ?? '',
  state: lb.state ?? '',
  firewallId: lb.firewall_id ?? '',
  networkId: lb.network_id ?? '',
});

const body = (i: LoadBalancerInputs): W.Body =>
  defined({
    name: i.name,
    network_id: i.networkId,
    firewall_id: i.firewallId,
    algorithm: i.algorithm,
    external_traffic_policy: i.externalTrafficPolicy,
    session_affinity: i.sessionAffinity,
    session_affinity_config_timeout: i.sessionAffinityConfigTimeout,
    enable_proxy_protocol: i.enableProxyProtocol,
    max_concurrent_requests: i.maxConcurrentRequests,
    backends: i.backends.map((b) => ({
      ip: b.ip,
      protocol: b.protocol,
      source_port: b.sourcePort,
      target_port: b.targetPort,
      health_check_port: b.healthCheckPort ?? 0,
    })),
  });

const waitAvailable = (ctx: ProvbContext, region: string, id: string) =>
  waitUntil(
    ctx,
    'loadBalancer',
    `load balancer ${id} to be available`,
    () => ctx.config.client.getLoadBalancer(ctx, region, id),
    (lb) => lb.state === 'available',
    (lb) => lb.state,
  );

/** What read answers for a listed or fetched object. */
function loadBalancerResult(lb: W.LoadBalancer, prior: Prior): ReadResult {
  const r = reporter(prior);
  const inputs: LoadBalancerInputs = defined({
    name: lb.name,
    networkId: r.computed('networkId', lb.network_id),
    firewallId: r.computed('firewallId', lb.firewall_id),
    algorithm: lb.algorithm === 'least_connections' ? 'least_connections' : 'round_robin',
    externalTrafficPolicy: lb.external_traffic_policy === 'Local' ? 'Local' : 'Cluster',
    sessionAffinity: r.optional('sessionAffinity', lb.session_affinity ?? ''),
    sessionAffinityConfigTimeout: r.computed('sessionAffinityConfigTimeout', lb.session_affinity_config_timeout),
    enableProxyProtocol: r.optional('enableProxyProtocol', lb.enable_proxy_protocol ?? ''),
    maxConcurrentRequests: r.computed('maxConcurrentRequests', lb.max_concurrent_requests),
    backends: (lb.backends ?? []).map((b) =>
      defined({
        ip: b.ip,
        protocol: b.protocol ?? 'TCP',
        sourcePort: b.source_port,
        targetPort: b.target_port,
        healthCheckPort: r.importing || b.health_check_port ? (b.health_check_port ?? undefined) : undefined,
      }),
    ),
    region: r.kept<string>('region'),
  });
  return { inputs, outputs: outputsOf(lb) };
}

export const loadBalancer = defineResource({
  token: 'provb:index/loadBalancer:LoadBalancer',
  inputs: loadBalancerInputs,
  outputs: loadBalancerOutputs,
  replaceOn: ['networkId', 'region'],
  computedOnUpdate: ['state', 'firewallId'],
  check: (inputs, config: ProvbConfig) => checkRegion(inputs, config),
  existing: async (ctx, inputs) => {
    const region = regionOf(ctx, inputs);
    return (await ctx.config.client.listLoadBalancers(ctx, region))
      .filter((x) => x.name === inputs.name)
      .map((x) => x.id);
  },
  create: async (ctx, inputs) => {
    const region = regionOf(ctx, inputs);
    const lb = await ctx.config.client.createLoadBalancer(ctx, region, { ...body(inputs), firewall_rule: '' });
    return { id: lb.id, outputs: outputsOf(await afterCreated(ctx, lb.id, () => waitAvailable(ctx, region, lb.id))) };
  },
  read: async (ctx, id, prior) => {
    const lb = await orNull(() => ctx.config.client.getLoadBalancer(ctx, priorRegion(ctx, prior), id));
    return lb ? loadBalancerResult(lb, prior) : null;
  },
  readMany: readByRegion(
    (ctx, region) => ctx.config.client.listLoadBalancers(ctx, region),
    (w, prior) => loadBalancerResult(w, prior),
  ),
  update: async (ctx, id, _olds, news) => ({
    outputs: outputsOf(await ctx.config.client.updateLoadBalancer(ctx, regionOf(ctx, news), id, body(news))),
  }),
  delete: async (ctx, id, prior) => {
    await ctx.config.client.deleteLoadBalancer(ctx, priorRegion(ctx, prior), id);
  },
  // find: the load balancers so named that did not exist when the create sent its request (claim.ts).
  find: async (ctx, inputs, hint) => {
    const lb = claim(
      hint,
      (await ctx.config.client.listLoadBalancers(ctx, regionOf(ctx, inputs))).filter((x) => x.name === inputs.name),
      { what: `load balancer '${inputs.name}'` },
    );
    return !lb || isCannotTell(lb) ? lb : { id: lb.id, outputs: outputsOf(lb) };
  },
  importId: (id) => id,
});
