// prova:index/authGroup:AuthGroup: a fine-grained authorization group (needs the server extension
// access_management, LXD 5.21+). Permissions are (entitlement, entity type, entity args).
import { z } from 'zod';
import { cannotTell, defineResource, type CheckIssue } from '../../../engine/provider/define.js';
import { scopeIssues } from './checks.js';
import type { LxdClient, Ctx as ClientCtx } from '../client.js';
import type { ProvaConfig, ProvaContext } from '../config.js';
import { entityArgs, entityUrl } from '../support/entities.js';
import { formatId, parseId, scopeInputs } from '../support/ids.js';
import { createObject, deleteObject, getObject, replaceObject, type Where } from '../support/objects.js';

export const permissionSchema = z.object({
  entitlement: z
    .string()
    .min(1)
    .describe(
      'Entitlement granted on the entity, such as `can_view` or `admin`; the server defines the valid entitlements per entity type.',
    ),
  entityType: z
    .string()
    .min(1)
    .describe(
      'Type of the entity the permission applies to, such as `server`, `project` or `instance`; defined by the server.',
    ),
  entityArgs: z
    .record(z.string(), z.string())
    .default({})
    .describe(
      'Arguments that identify the entity (for example `name` and `project`); default empty, for server-wide entities.',
    ),
});
export type Permission = z.output<typeof permissionSchema>;
export type WirePermission = { entity_type: string; url: string; entitlement: string };
export type WireGroup = {
  name: string;
  description: string;
  permissions: WirePermission[] | null;
  identities?: Record<string, string[]>;
};

const inputs = z
  .object({
    name: z.string().min(1).describe('Name of the authorization group. Changing it replaces the authorization group.'),
    description: z.string().default('').describe('Free-text description of the group; default empty.'),
    permissions: z
      .array(permissionSchema)
      .default([])
      .describe("Permissions granted to the group's members; when omitted, the group has no permissions."),
    remote: z
      .string()
      .optional()
      .describe(
        "Name of the remote that holds the group; when omitted, the provider's default remote is used. Changing it replaces the group.",
      ),
  })
  .describe('An authorization group: a named set of permissions that identities gain by membership.');

const where = (name: string): Where => ({
  template: '/1.0/auth/groups/{name}',
  params: { name },
  what: `auth group ${name}`,
});
const idOf = (id: string, config: ProvaConfig) => parseId(id, 1, config.settings.defaultRemote, 'auth group');

export const toWirePermission = (p: Permission): WirePermission => ({
  entity_type: p.entityType,
  url: entityUrl(p.entityType, p.entityArgs),
  entitlement: p.entitlement,
});
export const fromWirePermission = (w: WirePermission): Permission => ({
  entitlement: w.entitlement,
  entityType: w.entity_type,
  entityArgs: entityArgs(w.entity_type, w.url),
});

export async function authClient(
  ctx: ClientCtx,
  config: ProvaConfig,
  remote: string | undefined,
  feature: string,
): Promise<LxdClient> {
  const client = await config.client(ctx, remote);
  await client.requireExtension(ctx, 'access_management', feature);
  return client;
}

export const authGroup = defineResource({
  token: 'prova:index/authGroup:AuthGroup',
  inputs,
  outputs: z.object({}),
  replaceOn: ['name', 'remote'],
  check(i, config: ProvaConfig): CheckIssue[] {
    const issues: CheckIssue[] = scopeIssues(i, config);
    i.permissions.forEach((p, n) => {
      try {
        entityUrl(p.entityType, p.entityArgs);
      } catch (error) {
        issues.push({ path: ['permissions', n, 'entityArgs'], message: (error as Error).message });
      }
    });
    return issues;
  },
  /** The group of this name, if one exists before the create's request (LXD refuses a taken name). */
  async existing(ctx: ProvaContext, i) {
    const client = await authClient(ctx, ctx.config, i.remote, 'auth groups');
    return (await getObject<WireGroup>(ctx, client, where(i.name))) ? [i.name] : [];
  },
  async create(ctx: ProvaContext, i) {
    const client = await authClient(ctx, ctx.config, i.remote, 'auth groups');
    await createObject(
      ctx,
      client,
      { template: '/1.0/auth/groups', what: 'auth group' },
      { name: i.name, description: i.description, permissions: i.permissions.map(toWirePermission) },
    );
    return { id: formatId(client.remote, undefined, [i.name]), outputs: {} };
  },
  async read(ctx: ProvaContext, id, prior) {
    const ref = idOf(id, ctx.config);
    const client = await authClient(ctx, ctx.config, ref.remote, 'auth groups');
    const got = await getObject<WireGroup>(ctx, client, where(ref.fields[0]!));
    if (!got) return null;
    return {
      id: formatId(ref.remote, undefined, [got.obj.name]),
      inputs: {
        name: got.obj.name,
        description: got.obj.description,
        permissions: (got.obj.permissions ?? []).map(fromWirePermission),
        ...scopeInputs(prior.inputs, ref, ctx.config.settings.defaultRemote, false),
      },
      outputs: {},
    };
  },
  async update(ctx: ProvaContext, id, _olds, news) {
    const ref = idOf(id, ctx.config);
    const client = await authClient(ctx, ctx.config, ref.remote, 'auth groups');
    await replaceObject<WireGroup>(ctx, client, where(ref.fields[0]!), () => ({
      description: news.description,
      permissions: news.permissions.map(toWirePermission),
    }));
    return { outputs: {} };
  },
  async delete(ctx: ProvaContext, id) {
    const ref = idOf(id, ctx.config);
    await deleteObject(ctx, await authClient(ctx, ctx.config, ref.remote, 'auth groups'), where(ref.fields[0]!));
  },
  /**
   * A group has no config to carry the create's operation id. Absent: the create made nothing. Present:
   * it is this create's when the pending record noted no group of that name before the request (LXD
   * refuses a create of a taken name), someone else's when it noted one; a record without that note
   * (an earlier release's) cannot tell.
   */
  async find(ctx: ProvaContext, i, hint) {
    const client = await authClient(ctx, ctx.config, i.remote, 'auth groups');
    if (!(await getObject<WireGroup>(ctx, client, where(i.name)))) return null;
    if (hint.existing)
      return hint.existing.includes(i.name) ? null : { id: formatId(client.remote, undefined, [i.name]), outputs: {} };
    return cannotTell(
      `auth group ${i.name} exists, and a group carries no mark of the create that made it; import it if it is this stack's`,
    );
  },
  importId: (importId, config: ProvaConfig) => {
    const ref = idOf(importId, config);
    return formatId(ref.remote, undefined, ref.fields);
  },
});
