// Lookups of LXD's fine-grained authorization: a group with its permissions, an identity with its groups.
import { z } from 'zod';
import { defineLookup } from '../../../engine/provider/define.js';
import { formatId } from '../support/ids.js';
import { getObject } from '../support/objects.js';
import { authClient, fromWirePermission, type WireGroup } from '../resources/auth-group.js';
import { remote, check, notFound } from './shared.js';
import type { ProvaContext } from '../config.js';

export const getAuthGroup = defineLookup({
  token: 'prova:index/getAuthGroup:getAuthGroup',
  check,
  args: z
    .object({ name: z.string().min(1).describe('Name of the authorization group.'), remote })
    .describe('Reads an authorization group (its description and permissions) by name.'),
  async run(ctx: ProvaContext, a) {
    const client = await authClient(ctx, ctx.config, a.remote, 'auth group lookups');
    const got = await getObject<WireGroup>(ctx, client, {
      template: '/1.0/auth/groups/{name}',
      params: { name: a.name },
      what: 'auth group',
    });
    if (!got) throw notFound('prova:index/getAuthGroup:getAuthGroup', `name=${a.name}`);
    return {
      id: formatId(client.remote, undefined, [a.name]),
      name: got.obj.name,
      description: got.obj.description ?? '',
      permissions: (got.obj.permissions ?? []).map(fromWirePermission),
      remote: client.remote,
    };
  },
});

type WireIdentity = {
  authentication_method: string;
  type?: string;
  id: string;
  name: string;
  groups: string[] | null;
  tls_certificate?: string;
};

export const getAuthIdentity = defineLookup({
  token: 'prova:index/getAuthIdentity:getAuthIdentity',
  check,
  args: z
    .object({
      authMethod: z
        .enum(['tls', 'bearer', 'oidc'])
        .describe('How the identity authenticates: `tls` (client certificate), `bearer` or `oidc`.'),
      name: z.string().min(1).describe('Name of the identity.'),
      remote,
    })
    .describe(
      'Reads an authentication identity (its groups, identifier and, for TLS identities, its certificate) by method and name.',
    ),
  async run(ctx: ProvaContext, a) {
    const client = await authClient(ctx, ctx.config, a.remote, 'auth identity lookups');
    const got = await getObject<WireIdentity>(ctx, client, {
      template: '/1.0/auth/identities/{method}/{name}',
      params: { method: a.authMethod, name: a.name },
      what: 'auth identity',
    });
    if (!got)
      throw notFound('prova:index/getAuthIdentity:getAuthIdentity', `authMethod=${a.authMethod} name=${a.name}`);
    const i = got.obj;
    return {
      id: formatId(client.remote, '', [a.authMethod, i.name]),
      authMethod: i.authentication_method,
      groups: i.groups ?? [],
      identifier: i.id,
      name: i.name,
      remote: client.remote,
      tlsCertificate: a.authMethod === 'tls' ? (i.tls_certificate ?? '') : '',
    };
  },
});
