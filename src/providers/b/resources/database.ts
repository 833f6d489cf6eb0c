// provb:index/database:Database: a managed database (Pending → Ready). Name, node count and firewall
// update in place; engine, version, size, network and region (which the API cannot change) force
// replacement.
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { defineResource } from '../../../engine/provider/define.js';
import { isCannotTell } from '../../../engine/provider/define.js';
import { claim, derivedId } from './claim.js';
import type { ProvbConfig, ProvbContext } from '../config.js';
import type * as W from '../wire/objects.js';
import { orNull } from '../../../kit/gone.js';
import { checkRegion, priorRegion, regionOf } from '../support/region.js';
import { afterCreated, waitUntil } from '../support/wait.js';
import { reporter } from './reported.js';
import { defined } from '../../../kit/wire.js';
import type { Prior, ReadResult } from '../../../engine/provider/define.js';
import { readByRegion } from './read-many.js';

export const databaseInputs = z
  .strictObject({
    engine: z
      .string()
      .min(1)
      .describe(
        'Database engine (software), e.g. `mysql` or `postgresql`; see getDatabaseVersion. Changing it forces replacement.',
      ),
    nodes: z.number().int().min(1).describe('Number of nodes (at least 1). Updates in place.'),
    size: z
      .string()
      .min(1)
      .describe('Node size name, e.g. `g3.db.small`; see getSize. Changing it forces replacement.'),
    version: z
      .string()
      .min(1)
      .describe('Engine version, e.g. `8.0`; see getDatabaseVersion. Changing it forces replacement.'),
    name: z
      .string()
      .min(1)
      .optional()
      .describe('Database name; derived from the operation id when omitted. Updates in place.'),
    networkId: z
      .string()
      .optional()
      .describe('Private network to attach to; the default network when omitted. Changing it forces replacement.'),
    /** Blank: the network's default firewall (open to all). */
    firewallId: z
      .string()
      .optional()
      .describe(
        "Firewall to apply; when blank, the network's default firewall (open to all) is used. Updates in place.",
      ),
    region: z
      .string()
      .optional()
      .describe("Civo region code (e.g. LON1); defaults to the provider's region. Changing it forces replacement."),
  })
  .describe(
    'A managed database (MySQL or PostgreSQL), Pending until Ready. Name, node count and firewall update in place; engine, version, size, network and region force replacement.',
  );
type DatabaseInputs = z.output<typeof databaseInputs>;

export const databaseOutputs = z.object({
  databaseId: z.string().describe('Id of the database (the resource id; import by it).'),
  name: z.string().describe('Database name as the API reports it.'),
  dnsEndpoint: z.string().describe('DNS name of the database endpoint.'),
  endpoint: z.string().describe('Public IP address to connect to.'),
  password: z.string().describe("Password of the database's administrative user (secret)."),
  port: z.number().describe('TCP port the database listens on.'),
  privateIpv4: z.string().describe("Private IPv4 address on the database's network."),
  status: z.string().describe('Database status, e.g. `Pending` or `Ready`.'),
  username: z.string().describe('Administrative user name.'),
  networkId: z.string().describe('Id of the network the database is on.'),
  firewallId: z.string().describe('Id of the firewall applied to the database.'),
});

const outputsOf = (d: W.Database): z.output<typeof databaseOutputs> => ({
  databaseId: d.id,
  name: d.name,
  dnsEndpoint: `${d.id}.db.civo.com`,
  endpoint: d.public_ipv4 ?? '',
  password: d.password ?? '',
  port: d.port ?? 0,
  privateIpv4: d.private_ipv4 ?? '',
  status: d.status,
  username: d.username ?? '',
  networkId: d.network_id ?? '',
  firewallId: d.firewall_id ?? '',
});

const waitReady = (ctx: ProvbContext, region: string, id: string) =>
  waitUntil(
    ctx,
    'database',
    `database ${id} to be Ready`,
    () => ctx.config.client.getDatabase(ctx, region, id),
    (d) => d.status === 'Ready',
    (d) => d.status,
  );

const same = (a: string | undefined, b: string) => a !== undefined && a.toLowerCase() === String(b).toLowerCase();

/** The declared name, else one derived from the create's operation id (so find knows it too). */
const nameOf = (name: string | undefined, operationId: string | undefined) =>
  name ?? `db-${(operationId ? derivedId(operationId) : randomUUID()).slice(0, 8)}`;

/** What read answers for a listed or fetched object. */
function databaseResult(d: W.Database, prior: Prior): ReadResult {
  const r = reporter(prior);
  const inputs: DatabaseInputs = defined({
    engine: same(r.kept('engine'), d.software) ? r.kept<string>('engine')! : d.software,
    nodes: d.nodes,
    size: d.size,
    version: String(d.software_version),
    name: r.computed('name', d.name),
    networkId: r.computed('networkId', d.network_id),
    firewallId: r.kept('firewallId') === '' ? '' : r.computed('firewallId', d.firewall_id),
    region: r.kept<string>('region'),
  });
  return { inputs, outputs: outputsOf(d) };
}

export const database = defineResource({
  token: 'provb:index/database:Database',
  inputs: databaseInputs,
  outputs: databaseOutputs,
  replaceOn: ['engine', 'version', 'size', 'networkId', 'region'],
  secrets: ['password'],
  computedOnUpdate: ['name', 'status', 'firewallId'],
  check: (inputs, config: ProvbConfig) => checkRegion(inputs, config),
  existing: async (ctx, inputs) => {
    const region = regionOf(ctx, inputs);
    const name = nameOf(inputs.name, ctx.operationId);
    return (await ctx.config.client.listDatabases(ctx, region)).filter((x) => x.name === name).map((x) => x.id);
  },
  create: async (ctx, inputs) => {
    const region = regionOf(ctx, inputs);
    const name = nameOf(inputs.name, ctx.operationId);
    const d = await ctx.config.client.createDatabase(ctx, region, {
      name,
      size: inputs.size,
      software: inputs.engine,
      software_version: inputs.version,
      network_id: inputs.networkId ?? '',
      nodes: inputs.nodes,
      firewall_id: inputs.firewallId ?? '',
      firewall_rule: '',
    });
    return { id: d.id, outputs: outputsOf(await afterCreated(ctx, d.id, () => waitReady(ctx, region, d.id))) };
  },
  read: async (ctx, id, prior) => {
    const d = await orNull(() => ctx.config.client.getDatabase(ctx, priorRegion(ctx, prior), id));
    return d ? databaseResult(d, prior) : null;
  },
  readMany: readByRegion(
    (ctx, region) => ctx.config.client.listDatabases(ctx, region),
    (w, prior) => databaseResult(w, prior),
  ),
  update: async (ctx, id, olds, news) => {
    const region = regionOf(ctx, news);
    const o = olds.inputs as DatabaseInputs;
    const d = await ctx.config.client.updateDatabase(
      ctx,
      region,
      id,
      defined({
        name: o.name !== news.name ? news.name : undefined,
        nodes: news.nodes,
        firewall_id: o.firewallId !== news.firewallId && news.firewallId ? news.firewallId : undefined,
      }),
    );
    return { outputs: outputsOf(d) };
  },
  delete: async (ctx, id, prior) => {
    await ctx.config.client.deleteDatabase(ctx, priorRegion(ctx, prior), id);
  },
  // find: the databases so named (an undeclared name is derived from the operation id) that did not
  // exist when the create sent its request (claim.ts).
  find: async (ctx, inputs, hint) => {
    const region = regionOf(ctx, inputs);
    const name = nameOf(inputs.name, hint.operationId);
    const d = claim(
      hint,
      (await ctx.config.client.listDatabases(ctx, region)).filter((x) => x.name === name),
      { what: `database '${name}'` },
    );
    return !d || isCannotTell(d)
      ? d
      : { id: d.id, outputs: outputsOf(await afterCreated(ctx, d.id, () => waitReady(ctx, region, d.id))) };
  },
  importId: (id) => id,
});
